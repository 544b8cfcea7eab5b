"""Operator coverage lab: ops of a model vs ROCm/CUDA kernel registries. Deep links carry codes, not labels."""

import streamlit as st

from rocm_bridge import coverage
from rocm_bridge.coverage import trace
from rocm_bridge.ui import coverage_view as cov
from rocm_bridge.ui import formula_card, page_header, source_note, tr
from rocm_bridge.ui.pictures import render as picture

page_header("coverage.title", "coverage.caption")
picture("coverage")
tf_ok = trace.tensorflow_installed()
if not tf_ok:
    st.warning(tr("coverage.no_tf"), icon=":material/info:")

model, regs, phases = cov.choose(tf_ok)
if model is None:  # an upload still to come, or an error already shown
    st.stop()
for note in model.notes:
    st.caption(tr(note, tf=model.tf_version or "?"))
if not regs:
    st.info(tr("coverage.pick_registry"))
    st.stop()

reports = [coverage.analyze(model.nodes, reg, model.name, phases) for reg in regs]
formula_card("coverage")
cov.metrics(reports)
cov.status_chart(model, reports)
cov.differences(reports)
cov.op_table(reports)
cov.fallback(reports)
st.info(tr("coverage.cost_note"), icon=":material/swap_horiz:")
st.caption(tr("coverage.xla_note"))
source_note(tr("coverage.readme_source"))
