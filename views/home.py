import streamlit as st

from rocm_bridge.ui import tr
from rocm_bridge.ui.home_view import render

st.title(tr("app.name"))
render()
