"""The roofline picture (chapter 7 and /hardware): the stepped tour (rocm_bridge.ui.pictures) whose last step
shows the visitor's own point once the live lab has measured this machine, wherever the picture is drawn; the
registry row names context() below as its page-context provider."""

from __future__ import annotations

import json

import streamlit as st

from rocm_bridge import hardware as hw
from rocm_bridge.hardware import measured
from rocm_bridge.hardware import picture as roof
from rocm_bridge.ui import pictures as pictures_ui


def context() -> dict[str, str]:
    """The page context of the roofline picture: this session's live-lab measurement, when it has an FP16 point."""
    host = measured.from_session(st.session_state)
    if host is None or host.recorded or hw.host_point(host, roof.PRECISION) is None:
        return {}
    return {roof.MEASURED: json.dumps(host.to_dict(), sort_keys=True)}


def render() -> None:
    pictures_ui.render("roofline")
