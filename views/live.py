"""Live GPU lab: environment check, benchmarks, GPU monitor; recorded H200 results when there is no GPU."""

import streamlit as st

from rocm_bridge.live import BACKEND_LABELS, BACKENDS, available_backends
from rocm_bridge.pages import by_file
from rocm_bridge.ui import live_view as lv
from rocm_bridge.ui import page_header, tr
from rocm_bridge.ui.state import push_url, url_state

page_header(by_file("views/live.py").title_key, "live.caption")

installed = available_backends()
MODES = ("live", "recorded")
url_state("lv_mode", "live" if installed else "recorded", valid=MODES)
mode = st.radio(
    tr("live.mode.label"), MODES, key="lv_mode", horizontal=True, format_func=lambda m: tr(f"live.mode.{m}")
)

if mode == "live" and not installed:
    st.info(tr("live.backend.none"), icon=":material/memory:")
    mode = "recorded"
if mode == "live":
    url_state("lv_backend", installed[0], valid=installed)
    name = st.selectbox(tr("live.backend.label"), installed, key="lv_backend", format_func=BACKEND_LABELS.get)
    push_url("lv_mode", "lv_backend")
    lv.env_check(name)
    lv.runner(name)
    result = st.session_state.get(lv.RESULT_KEY)
    if result is not None:
        lv.show_results(result)
else:
    push_url("lv_mode")
    doc = lv.pick_recorded()
    if doc is not None:
        lv.show_results(doc)

missing = [b for b in BACKENDS if b not in installed]
if missing:  # after the results, folded: a visitor comes for numbers, an installer opens it
    lv.install_help(missing)
st.divider()
lv.monitor()
