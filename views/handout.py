"""Printable handouts: a chapter without widgets, and a quiz sheet with an answer key."""

import streamlit as st

from rocm_bridge.pages import by_file
from rocm_bridge.ui import page_header
from rocm_bridge.ui.handout_view import render

with st.container(key="rb_ho_head"):  # the page's own heading: on screen, not on paper (handout_view._PRINT_CSS)
    page_header(by_file("views/handout.py").title_key, "handout.caption")
render()
