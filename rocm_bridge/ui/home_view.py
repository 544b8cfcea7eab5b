"""The home page, picture first: one line, the hero (a TensorFlow op down both stacks), the chapters as cards with
their pictures' names, and the four audiences' starting points as short cards (content/<lang>/home.md)."""

from __future__ import annotations

import re

import streamlit as st

from rocm_bridge.course import content
from rocm_bridge.pages import CHAPTERS, page
from rocm_bridge.ui import lang, page_link, tr
from rocm_bridge.ui import pictures as picture_ui
from rocm_bridge.visual.pictures import PICTURES

HERO = "hero"
CHAPTER_COLUMNS = 3
# chapter titles wrap inside their cards instead of ending in "…" (st.page_link keeps a label on one line)
_CARD_CSS = """<style>
.st-key-rb-chapters [data-testid="stPageLink"] a, .st-key-rb-chapters [data-testid="stPageLink"] a * {
  white-space: normal !important; overflow: visible !important; text-overflow: clip !important; height: auto; }
</style>"""


def _sections(blocks) -> tuple[str, str, list[tuple[str, str, list[str]]]]:
    """(intro, heading of the starting points, [(audience, its text, its lab links)]) from home.md's blocks."""
    intro, heading, cards = "", "", []
    for block in blocks:
        if block.kind == "lab":
            if cards:
                cards[-1][2].append(block.text)
            continue
        if block.kind != "markdown":
            continue
        parts = re.split(r"^### (.+)$", block.text, flags=re.MULTILINE)
        head, rest = parts[0], parts[1:]
        if not intro and not heading:
            intro, _, head = head.partition("\n## ")
            head = "## " + head if head else ""
        if head.strip():
            heading = re.sub(r"^##\s*", "", head.strip())
        for title, text in zip(rest[::2], rest[1::2], strict=True):
            cards.append((title.strip(), text.strip(), []))
    return intro.strip(), heading, cards


def _chapter_cards() -> None:
    st.subheader(tr("home.chapters"))
    pictures_of = {}
    for spec in PICTURES.values():
        pictures_of.setdefault(spec.page, []).append(spec)
    st.html(_CARD_CSS)
    box = st.container(key="rb-chapters")
    for row in range(0, len(CHAPTERS), CHAPTER_COLUMNS):
        cols = box.columns(CHAPTER_COLUMNS)
        for col, key in zip(cols, CHAPTERS[row : row + CHAPTER_COLUMNS], strict=False):
            with col, st.container(border=True):
                page_link(key)
                for spec in pictures_of.get(key, [])[:1]:
                    st.caption(f":material/animation: {tr(spec.title_key)}")


def render() -> None:
    blocks = content.load("home", lang()) or content.load("home", "en") or ()
    intro, heading, cards = _sections(blocks)
    st.markdown(intro)
    picture_ui.render(HERO)
    _chapter_cards()
    if heading:
        st.subheader(heading)
    for row in range(0, len(cards), 2):
        for col, (title, text, labs) in zip(st.columns(2), cards[row : row + 2], strict=False):
            with col, st.container(border=True):
                st.markdown(f"**{title}**")
                st.markdown(text)
                for key in labs:
                    spec = page(key)
                    page_link(key, label=tr(f"common.open_{spec.group}", title=tr(spec.title_key)))
