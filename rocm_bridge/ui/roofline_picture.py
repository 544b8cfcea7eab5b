"""The roofline picture on /hardware: the stepped tour (rocm_bridge.ui.pictures), then, once the live lab has
measured this machine, the same picture with the visitor's own point (rocm_bridge.hardware.picture)."""

from __future__ import annotations

import streamlit as st

from rocm_bridge import hardware as hw
from rocm_bridge.hardware import measured
from rocm_bridge.hardware import picture as roof
from rocm_bridge.ui import lang
from rocm_bridge.ui import pictures as pictures_ui
from rocm_bridge.ui.theme import chart_theme


def render() -> None:
    pictures_ui.render("roofline")
    host = measured.from_session(st.session_state)
    if host is None or host.recorded or hw.host_point(host, roof.PRECISION) is None:
        return
    frame = roof.roofline_frame(roof.STEPS.index("you"), lang(), chart_theme(), measurement=host)
    st.markdown(frame.svg, unsafe_allow_html=True)  # st.html would sanitise the SVG away
    st.caption(frame.caption)
