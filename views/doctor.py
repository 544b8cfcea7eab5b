"""Doctor: the ordered checklist for this machine (or a recorded example), Compatible, log doctor, report."""

import streamlit as st

from rocm_bridge.doctor import examine, example_root, example_sources, example_systems
from rocm_bridge.pages import by_file
from rocm_bridge.ui import page_header, source_note, tr
from rocm_bridge.ui.doctor_widgets import (
    checklist,
    findings,
    formula_section,
    log_doctor,
    report_section,
    verdict_banner,
)
from rocm_bridge.ui.state import push_url, url_state

page_header(by_file("views/doctor.py").title_key, "doctor.caption")

HERE = "here"
options = [HERE, *example_systems()]
labels = {n: tr("doctor.system.here") if n == HERE else tr(f"doctor.example.{n}") for n in options}
url_state("doc_sys", HERE, valid=options)  # ?doc_sys=<example> deep-links a recorded system
system = st.selectbox(
    tr("doctor.system.label"),
    options,
    format_func=labels.__getitem__,
    key="doc_sys",
    help=tr("doctor.system.help"),
)

if system == HERE:
    st.query_params.pop("doc_sys", None)  # the default needs no link
else:
    push_url("doc_sys")

# One examination per (system, with TensorFlow) per session; re-run only on request.
cache = st.session_state.setdefault("doctor_reports", {})
col_run, col_again = st.columns([3, 1])
want_tf = col_run.button(tr("doctor.run_tf"), key="doc_run_tf", icon=":material/play_arrow:")
if col_again.button(tr("doctor.rerun"), key="doc_rerun", icon=":material/refresh:"):
    cache.pop(system, None)

if want_tf or system not in cache:
    with st.status(tr("doctor.running"), expanded=False) as status:
        root = "/" if system == HERE else example_root(system)
        # Recorded examples answer instantly, so they always include their recorded TensorFlow result.
        cache[system] = examine(root, tensorflow=want_tf or system != HERE)
        status.update(label=tr("doctor.done"), state="complete")
report = cache[system]

if system == HERE:
    st.caption(tr("doctor.machine_note"))
else:
    st.info(tr("doctor.system.recorded_note", name=tr(f"doctor.example.{system}")), icon=":material/inventory_2:")
    source_note(example_sources(system))  # what this recorded system was written from

verdict_banner(report)
checklist(report)
if report.log_findings:
    st.markdown(f"**{tr('doctor.log.tf_findings')}**")
    findings(report.log_findings)

st.divider()
formula_section(report)
st.divider()
log_doctor()
st.divider()
report_section(report)
