"""The hipify page's report, lint and flow views: what is left for you (against the target ROCm, with the compile
lab's last result), the counts, the notes, the per-group, unconverted, deprecated, header and launch tables, the
target and wavefront rewrites line by line, the lint findings as cards, and the four steps of the migration flow.
The tables show user text only through st.dataframe, st.code or md_escape.
"""

from __future__ import annotations

import streamlit as st

from rocm_bridge import i18n
from rocm_bridge.hipify import page_model as pm
from rocm_bridge.hipify import report as rp
from rocm_bridge.pages import page as by_key
from rocm_bridge.text import md_escape
from rocm_bridge.ui import formula_card, lang, source_note, tr
from rocm_bridge.ui.hipify_state import shown, typed_rocm


def _table(rows: list[dict], columns: dict[str, str]) -> None:
    if not rows:
        st.caption(tr("hipify.page.none"))
        return
    st.dataframe([{tr(label): shown(row[key]) if isinstance(row[key], str) else row[key]
                   for key, label in columns.items()} for row in rows], hide_index=True,
                 width="stretch")


def compile_failed(fr: pm.FileResult) -> bool | None:
    """The compile lab's last build of exactly this HIP: True failed, False built, None not built."""
    saved = st.session_state.get("hp_cl_result")
    if not saved or saved[0] != fr.result.output or saved[1] is None:
        return None
    return not saved[1].ok


def left_story(fr: pm.FileResult) -> pm.LeftForYou:
    """What is left for you, said once at the top of the report: the same count the metric, the flow and the
    minimum-ROCm section use, against the target ROCm of the picker, with the compile lab's last result on this
    code."""
    left = pm.left_for_you(fr, typed_rocm())
    failed = compile_failed(fr)
    lines = []
    if left.unconverted:
        lines.append(tr("hipify.left.unconverted", n=left.unconverted))
    if left.lint_errors:
        lines.append(tr("hipify.left.lint", n=left.lint_errors))
    if left.too_new:
        newest = max((v for _n, v in left.too_new), key=lambda v: tuple(int(x) for x in v.split(".")))
        lines.append(tr("hipify.left.too_new", n=len(left.too_new), version=newest, against=left.against,
                        names=", ".join(f"`{n}`" for n, _v in left.too_new[:4])))  # names from the mapping table
    if failed:
        fit = pm.compile_fit(fr, typed_rocm())
        lines.append(tr("hipify.left.compile_failed_newer", compiler=fit.compiler, target=fit.target, n=len(fit.beyond))
                     if fit.beyond else tr("hipify.left.compile_failed"))
    if lines:
        st.warning(tr("hipify.left.title", n=left.total + (1 if failed and not left.total else 0)) + "\n\n"
                   + "\n".join(f"- {line}" for line in lines))
    else:
        st.success(tr("hipify.left.none", against=left.against))
    return left


def applied_rows(fr: pm.FileResult) -> list[dict]:
    """The target and wavefront rewrites applied to this file, one row each (the engine's own records)."""
    lg = lang()
    rows = []
    for a in pm.applied_rewrites(fr.result):
        rows.append({"line": a.line, "col": a.col, "kind": i18n.t(f"hipify.applied.kind_{a.kind}", lg),
                     "before": a.before, "after": a.after or i18n.t("hipify.applied.left", lg),
                     "why": i18n.t(a.note, lg),
                     "until": f"ROCm {a.until}" if a.until else i18n.t(f"hipify.applied.until_none_{a.kind}", lg),
                     "source": a.source or i18n.t("hipify.applied.source_wavefront", lg),
                     "rule": a.before if a.kind == "target" else a.note})  # one explanation per rule
    return rows


APPLIED_COLUMNS = {"line": "hipify.col.line", "col": "hipify.col.col", "kind": "hipify.applied.col_kind",
                   "before": "hipify.col.cuda", "after": "hipify.applied.col_written", "why": "hipify.applied.col_why",
                   "until": "hipify.applied.col_until", "source": "hipify.applied.col_source"}


def render_applied(fr: pm.FileResult) -> None:
    """What was rewritten for the target ROCm and the wavefront, line by line, or why nothing was."""
    opts = fr.result.options
    st.subheader(tr("hipify.applied.title", target=opts.rocm_version or pm.target_releases()[0]))
    rows = applied_rows(fr)
    if not rows:
        st.caption(tr("hipify.applied.none_wave" if opts.wavefront else "hipify.applied.none"))
        return
    st.caption(tr("hipify.applied.intro"))
    table = ("line", "col", "kind", "before", "after", "until")  # why and source once per rule, below: a cell cuts them
    st.dataframe([{tr(APPLIED_COLUMNS[k]): shown(row[k]) if isinstance(row[k], str) else row[k] for k in table}
                  for row in rows], hide_index=True, width="stretch")
    st.markdown(f"**{tr('hipify.applied.reasons')}**")
    said = set()
    for row in rows:
        key = row["rule"]
        if key in said:
            continue
        said.add(key)
        # before / after can be the visitor's code (a wavefront rewrite's "% 32"): escaped
        st.markdown(f"- **{md_escape(shown(row['before']))} → {md_escape(shown(row['after']))}** ({row['until']}): "
                    f"{row['why']}  \n  {tr('hipify.applied.col_source')}: {md_escape(row['source'])}")


def render_report(fr: pm.FileResult) -> None:
    result, lg = fr.result, lang()
    s = rp.summarize(result)
    left = left_story(fr)
    c1, c2, c3, c4 = st.columns(4)
    c1.metric(tr("hipify.page.metric_refs"), f"{s.converted} / {s.total}")
    c2.metric(tr("hipify.page.metric_pct"), "n/a" if s.percentage is None else f"{s.percentage:.1f} %",
              help=tr("hipify.page.metric_pct_help"))
    c3.metric(tr("hipify.page.metric_left"), left.total, help=tr("hipify.page.metric_left_help"))
    c4.metric(tr("hipify.page.metric_lines"), f"{s.lines_changed} / {s.lines_total}")
    for key, line, _col in result.notes:
        st.warning(tr(key) if not line else f"{tr('hipify.col.line')} {line}: {tr(key)}")
    st.subheader(tr("hipify.page.groups"))
    _table(rp.group_rows(result), {"api_group": "hipify.col.group", "converted": "hipify.col.converted",
                                   "unsupported": "hipify.col.unsupported", "experimental": "hipify.col.experimental"})
    st.subheader(tr("hipify.page.unconverted"))
    _table(rp.unconverted_rows(result, lg), {"line": "hipify.col.line", "col": "hipify.col.col",
                                             "name": "hipify.col.name", "api_group": "hipify.col.group",
                                             "reason": "hipify.col.reason"})
    st.subheader(tr("hipify.page.deprecated"))
    _table(rp.deprecated_rows(result, lg), {"line": "hipify.col.line", "col": "hipify.col.col",
                                            "name": "hipify.col.name", "hip_name": "hipify.col.hip_name",
                                            "note": "hipify.col.note"})
    st.subheader(tr("hipify.page.headers"))
    _table([{"line": h.line, "cuda": h.cuda_header, "hip": h.hip_header, "action": tr(f"hipify.header.{h.reason}")}
            for h in result.headers],
           {"line": "hipify.col.line", "cuda": "hipify.col.cuda_header", "hip": "hipify.col.hip_header",
            "action": "hipify.col.action"})
    st.subheader(tr("hipify.page.launches"))
    _table([{"line": x.line, "kernel": x.kernel, "rewritten": x.rewritten, "note": tr(x.reason) if x.reason else ""}
            for x in result.launches],
           {"line": "hipify.col.line", "kernel": "hipify.col.kernel", "rewritten": "hipify.col.rewritten",
            "note": "hipify.col.note"})
    render_applied(fr)
    from rocm_bridge.ui.hipify_project import render_minimum_rocm  # minimum ROCm section (hipify-data)

    render_minimum_rocm(fr)
    with st.expander(tr("hipify.page.formula")):
        formula_card("coverage")
    source_note(tr("hipify.page.source"))


def render_lint(fr: pm.FileResult) -> None:
    st.caption(tr("hipify.page.lint_intro"))
    if not fr.findings:
        st.success(tr("hipify.page.lint_clean"))
        return
    settled = pm.settled_findings(fr)
    if settled:
        st.info(tr("hipify.applied.lint_settled", n=len(settled)))
    # one card per finding: a table cell would cut the explanations; the user's code is shown only through st.code
    for k, (f, row) in enumerate(zip(fr.findings, rp.lint_rows(list(fr.findings), lang()), strict=True)):
        row["rule_id"] = f.rule
        severity = row["severity"]
        with st.container(border=True):
            st.markdown(f"**{tr('hipify.col.line')} {row['line']} · {tr(f'hipify.severity.{severity}')} · "
                        f"{md_escape(row['rule'])}**")
            st.code(row["code"], language="cpp")
            st.markdown(f"**{tr('hipify.col.why')}:** {row['why']}")
            st.markdown(f"**{tr('hipify.col.fix')}:** {row['fix']}")
            if k in settled:  # the written text comes from the rules table or wavefront.py, escaped all the same
                a = settled[k]
                st.success(tr(f"hipify.applied.settled_{a.kind}", written=md_escape(a.after),
                              target=fr.result.options.rocm_version), icon=":material/check:")
            if row["rule_id"] in pm.WAVEFRONT_RULES:
                st.page_link(by_key("ch9").file, label=tr("hipify.page.wavefront_link"), icon=":material/waves:",
                             query_params={"wavefront_step": "3", "lang": lang()})


def render_flow(fr: pm.FileResult) -> None:
    flow = pm.migration_flow(fr.result, fr.findings)
    left = pm.left_for_you(fr, typed_rocm())
    flow.report["left"], flow.report["lint_errors"] = left.total, left.lint_errors  # less what the rewrites settled
    with st.container(border=True):
        st.markdown(f"**{tr('hipify.flow.scan')}**")
        st.write(tr("hipify.flow.scan_body", **flow.scan))
    with st.container(border=True):
        st.markdown(f"**{tr('hipify.flow.map')}**")
        _table([{**m, "status": tr(f"hipify.status.{m['status']}")} for m in flow.mapping],
               {"cuda": "hipify.col.name", "hip": "hipify.col.hip_name", "api_group": "hipify.col.group",
                "status": "hipify.col.status", "count": "hipify.col.count"})
    with st.container(border=True):
        st.markdown(f"**{tr('hipify.flow.rewrite')}**")
        st.write(tr("hipify.flow.rewrite_body", **flow.rewrite))
        rows = applied_rows(fr)
        if rows:  # the target's and the wavefront's rewrites, line by line (the report's table, shorter)
            st.write(tr("hipify.flow.applied", n=len(rows), target=typed_rocm()))
            _table(rows, {k: APPLIED_COLUMNS[k] for k in ("line", "before", "after", "until")})
    with st.container(border=True):
        st.markdown(f"**{tr('hipify.flow.report')}**")
        pct = flow.report["percentage"]
        st.write(tr("hipify.flow.report_body", **{**flow.report, "pct": "n/a" if pct is None else f"{pct:.1f} %"}))
