"""The glossary table embedded in chapters (`::: widget glossary`), read from content/glossary.yaml."""

from __future__ import annotations

import streamlit as st

from rocm_bridge.course import widget_tables
from rocm_bridge.ui import lang


def render(key_prefix: str = "") -> None:
    table = widget_tables.glossary(lang())  # the handout prints the same table
    st.caption(table.note)
    st.markdown(widget_tables.markdown(table))
