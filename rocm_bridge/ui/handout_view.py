"""Printable handouts: a chapter as a clean print layout (no sidebar, no widgets) and its quiz sheet with a key.

The browser's own "Save as PDF" makes the file, with the CJK fonts the page already uses; the print style hides
everything that is not the handout.
"""

from __future__ import annotations

import json

import streamlit as st

from rocm_bridge import handout
from rocm_bridge.pages import CHAPTERS, page
from rocm_bridge.text import md_escape
from rocm_bridge.ui import formula_card, lang, tr
from rocm_bridge.ui.chapter import CALLOUTS
from rocm_bridge.ui.state import parse_flag, push_url, url_state

DOC_KEY, QUIZ_KEY, ANSWERS_KEY = "ho_doc", "ho_quiz", "ho_key"

_PRINT_CSS = """
<style>
  @media print {
    [data-testid="stSidebar"], [data-testid="stHeader"], [data-testid="stToolbar"], .rb-no-print,
    [data-testid="stElementToolbar"], #rb-skip, .stButton, [data-testid="stWidgetLabel"],
    [data-testid="stSelectbox"], [data-testid="stCheckbox"], [data-testid="stToggle"] { display: none !important; }
    [data-testid="stMain"] { overflow: visible !important; }
    [data-testid="stMainBlockContainer"] { max-width: 100% !important; padding: 0 !important; }
    .rb-page-break { break-before: page; }
    h2, h3 { break-after: avoid; }
    [data-testid="stVerticalBlockBorderWrapper"] { break-inside: avoid; }
  }
</style>
"""


def _controls() -> tuple[str, bool, bool]:
    url_state(DOC_KEY, "ch1", valid=CHAPTERS)
    url_state(QUIZ_KEY, True, cast=parse_flag)
    url_state(ANSWERS_KEY, True, cast=parse_flag)
    c1, c2, c3 = st.columns([3, 2, 2])
    c1.selectbox(tr("handout.doc"), CHAPTERS, key=DOC_KEY, format_func=lambda k: tr(page(k).title_key))
    c2.toggle(tr("handout.quiz"), key=QUIZ_KEY)
    c3.toggle(tr("handout.answers"), key=ANSWERS_KEY, disabled=not st.session_state[QUIZ_KEY])
    push_url(DOC_KEY, QUIZ_KEY, ANSWERS_KEY)
    return st.session_state[DOC_KEY], st.session_state[QUIZ_KEY], st.session_state[ANSWERS_KEY]


def _print_button() -> None:
    label = json.dumps(tr("handout.print"))[1:-1].replace("<", "&lt;")  # catalog text, escaped for HTML anyway
    st.html(_PRINT_CSS + f'<button class="rb-no-print" onclick="window.print()" '
            f'style="padding:.4rem 1rem;border-radius:.5rem;border:1px solid #888;background:transparent;color:inherit;cursor:pointer">'
            f"{label}</button>", unsafe_allow_javascript=True)
    st.caption(tr("handout.how"))


def _chapter(chapter: str) -> None:
    st.header(tr(page(chapter).title_key))
    for block in handout.chapter_blocks(chapter, lang()):
        if block.kind == "markdown":
            st.markdown(block.text)
        elif block.kind in CALLOUTS:
            CALLOUTS[block.kind](f"**{tr('chapters.' + block.kind)}**\n\n{block.text}")
        elif block.kind == "formula":
            formula_card(block.text)
        elif block.kind == "lab":
            st.caption(tr("handout.lab", title=tr(page(block.text).title_key)))


def _sheet(chapter: str, answers: bool) -> None:
    st.html('<div class="rb-page-break"></div>')
    st.header(tr("handout.sheet_title", title=tr(page(chapter).title_key)))
    st.caption(tr("handout.sheet_name"))
    items = handout.quiz_sheet(chapter, lang())
    for item in items:
        st.markdown(f"**{item.number}.** {item.prompt}")
        if item.code:
            st.code(item.code, language="cpp")
        for letter, option in zip(handout.LETTERS, item.options, strict=False):
            st.markdown(f"&nbsp;&nbsp;**{letter}.** {option}")
    if answers:
        st.html('<div class="rb-page-break"></div>')
        st.header(tr("handout.key_title"))
        for item in items:
            st.markdown(f"**{item.number}.** {md_escape(item.answer)} — {item.explanation}")
            st.caption(f"{tr('common.source')}: {md_escape(item.source)}")


def render() -> None:
    chapter, quiz, answers = _controls()
    _print_button()
    _chapter(chapter)
    if quiz:
        _sheet(chapter, answers)
