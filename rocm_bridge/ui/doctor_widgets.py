"""Streamlit pieces of the Doctor page: checklist, Compatible card, log doctor, Markdown report.

Everything read from the host or pasted by the user is shown with st.code / st.text (never as HTML or
Markdown); catalog texts filled with values are Markdown-escaped first.
"""

from __future__ import annotations

import streamlit as st

from rocm_bridge.doctor import logs
from rocm_bridge.doctor.report import check_message, check_title, fix_steps, person_text, to_markdown, verdict_text
from rocm_bridge.doctor.rules import Report
from rocm_bridge.errors import RocmBridgeError
from rocm_bridge.text import md_escape
from rocm_bridge.ui import formula_card, lang, show_error, source_note, tr
from rocm_bridge.ui.upload import file_upload

STATUS_STYLE = {
    "ok": ("green", ":material/check_circle:"),
    "warn": ("orange", ":material/warning:"),
    "fail": ("red", ":material/cancel:"),
    "skipped": ("gray", ":material/skip_next:"),
}
def verdict_banner(report: Report) -> None:
    v = report.verdict
    text = md_escape(verdict_text(report, lang()))
    if v is None and report.facts.tensorflow.status == "not_run":
        st.info(text, icon=":material/pending:")
    elif v is None:
        st.success(text, icon=":material/verified:")
    elif v.status == "fail":
        st.error(text, icon=":material/cancel:")
    else:
        st.warning(text, icon=":material/warning:")
    f = report.facts
    wsl_gpu = f.platform == "none" and f.wsl and f.dxg_exists  # a shared Windows GPU without a Linux-side stack
    st.caption(tr("doctor.platform.wsl_unknown" if wsl_gpu else f"doctor.platform.{f.platform}"))


def checklist(report: Report) -> None:
    st.subheader(tr("doctor.checklist"))
    verdict = report.verdict
    for c in report.checks:
        color, icon = STATUS_STYLE[c.status]
        label = f"{check_title(c, lang())} · :{color}[{tr('doctor.status.' + c.status)}]"
        with st.expander(label, icon=icon, expanded=c is verdict):
            st.markdown(md_escape(check_message(c, lang())))
            st.caption(f"{tr('doctor.why')}: {tr(c.why_key)}")
            if c.evidence:
                st.markdown(f"**{tr('doctor.evidence')}**")
                st.code("\n".join(c.evidence), language=None)
            if (c.fix or c.person) and c.status in ("fail", "warn"):
                st.markdown(f"**{tr('doctor.fix')}**")
                for note, cmds in fix_steps(c, report, lang()):
                    st.caption(md_escape(note))
                    st.code("\n".join(cmds), language="bash")
                if c.person:
                    st.warning(md_escape(person_text(c, lang())), icon=":material/person:")
                elif c.actions and c.status == "fail":
                    st.caption(tr("doctor.fix_then_check"))
            if c.source:
                source_note(c.source)  # source_note escapes itself
    if report.facts.tensorflow.status == "not_run":
        st.info(tr("doctor.tf_not_run_note"), icon=":material/info:")


def formula_section(report: Report) -> None:
    formula_card("compatible")
    fr = report.formula
    st.markdown(f"**{tr('doctor.formula.title')}**")
    st.caption(tr("doctor.formula.intro"))
    if fr.target_tf:
        st.caption(tr("doctor.formula.target", tf=fr.target_tf))
    if fr.value is None:
        st.info(tr("doctor.formula.not_evaluated"))
    elif fr.value == 1:
        st.success(tr("doctor.formula.value", value=1))
    else:
        names = ", ".join(tr(f"doctor.formula.factor.{n}") for n in fr.zero_factors)
        st.error(tr("doctor.formula.value", value=0) + " — " + tr("doctor.formula.zero", names=names))
    rows = {tr("doctor.formula.col_factor"): [], tr("doctor.formula.col_installed"): [],
            tr("doctor.formula.col_minimum"): [], tr("doctor.formula.col_value"): []}
    for x in fr.factors:
        cols = list(rows)
        rows[cols[0]].append(tr(f"doctor.formula.factor.{x.name}"))
        rows[cols[1]].append(x.installed or tr("doctor.formula.missing"))
        rows[cols[2]].append(x.minimum or "-")
        rows[cols[3]].append("-" if x.ok is None else str(int(x.ok)))
    st.dataframe(rows, hide_index=True, width="stretch")
    for x in fr.factors:
        if x.reason:
            st.caption(f"{tr(f'doctor.formula.factor.{x.name}')}: {tr(f'doctor.formula.reason.{x.reason}')}")
    if fr.platform == "rocm":
        st.caption(tr("doctor.formula.driver_note"))
    sources = sorted({x.source for x in fr.factors if x.source})
    if sources:
        source_note(*sources)


def findings(items: list) -> None:
    for f in items:
        color = {"error": "red", "warning": "orange", "info": "blue"}[f.severity]
        with st.container(border=True):
            st.markdown(f":{color}[**{tr('doctor.log.severity.' + f.severity)}**] "
                        f"{md_escape(f.text('problem', lang()))}")
            st.caption(tr("doctor.log.line", line_no=f.line_no, count=f.count))
            st.code(f.line, language=None)
            st.markdown(f"**{tr('doctor.log.cause')}:** {md_escape(f.text('cause', lang()))}")
            st.markdown(f"**{tr('doctor.log.fix')}:** {md_escape(f.text('fix', lang()))}")
            source_note(f.source)


def log_doctor() -> None:
    st.subheader(tr("doctor.log.title"))
    # one limit for paste and upload (logs.MAX_LOG_BYTES); the caption under the uploader states it once
    limit_mb = max(1, logs.MAX_LOG_BYTES // 1_000_000)
    st.caption(tr("doctor.log.intro"))
    text = st.text_area(tr("doctor.log.paste"), key="doc_log", height=180, max_chars=logs.MAX_LOG_BYTES)
    upload = file_upload(tr("doctor.log.upload"), ["log", "txt", "out", "err"], key="doc_log_file", limit_mb=limit_mb)
    if not st.button(tr("doctor.log.button"), key="doc_log_go", icon=":material/stethoscope:"):
        return
    try:
        if upload is not None:
            text = logs.decode_log(upload.getvalue(), upload.name)
        if not text.strip():
            st.info(tr("doctor.log.empty"))
            return
        found = logs.diagnose(text)
    except RocmBridgeError as err:
        show_error(err)
        return
    if not found:
        st.info(tr("doctor.log.none", count=len(logs.signatures())))
        return
    st.success(tr("doctor.log.found", count=len(found)))
    findings(found)


def report_section(report: Report) -> None:
    st.subheader(tr("doctor.report.title"))
    st.caption(tr("doctor.report.intro"))
    md = to_markdown(report, lang())
    st.code(md, language="markdown")
    st.download_button(tr("doctor.report.download"), md, file_name="rocm_bridge_doctor_report.md",
                       mime="text/markdown", key="doc_report_dl", icon=":material/download:")
