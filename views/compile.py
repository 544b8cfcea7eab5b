"""Compile lab: HIP through AMD's compiler. Example, target and wave size live in the URL (cl_*)."""

import streamlit as st

from rocm_bridge.pages import by_file
from rocm_bridge.ui import page_header
from rocm_bridge.ui.compile_view import occupancy_widget, render_page
from rocm_bridge.ui.state import share_link

page_header(by_file("views/compile.py").title_key, "compile.page.caption")
render_page()
st.divider()
occupancy_widget("cl")
share_link()
