"""The glossary table embedded in chapters (`::: widget glossary`), read from content/glossary.yaml."""

from __future__ import annotations

import streamlit as st

from rocm_bridge import glossary
from rocm_bridge.text import md_escape
from rocm_bridge.ui import lang, tr


def render(key_prefix: str = "") -> None:
    current = lang()
    header = f"| {tr('chapters.glossary.term')} | {tr('chapters.glossary.english')} | {tr('chapters.glossary.note')} |"
    rows = [header, "|---|---|---|"]
    for term in glossary.terms():
        note = term.note.get(current) or term.note["en"]
        rows.append(f"| {md_escape(term.label(current))} | {md_escape(term.en)} | {md_escape(note)} |")
    st.caption(tr("chapters.glossary.caption"))
    st.markdown("\n".join(rows))
