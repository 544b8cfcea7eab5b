import streamlit as st

from rocm_bridge.ui import tr
from rocm_bridge.ui.chapter import render_document

st.title(tr("app.name"))
render_document("home")
