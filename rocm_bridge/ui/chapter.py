"""Renders a chapter (or the home page) from content/<lang>/<id>.md, with its widgets, quiz and navigation."""

from __future__ import annotations

import importlib

import streamlit as st

from rocm_bridge.course import content
from rocm_bridge.course.widgets import WIDGETS, resolve
from rocm_bridge.pages import CHAPTERS, page
from rocm_bridge.ui import formula_card, lang, page_link, tr

READ_KEY = "chapters_read"
CALLOUTS = {"story": st.info, "takeaways": st.success, "misconceptions": st.warning}
ICONS = {"story": ":material/restaurant:", "takeaways": ":material/lightbulb:", "misconceptions": ":material/report:"}


def _widget(name: str, doc_id: str) -> None:
    """The widget's renderer from the one registry (rocm_bridge.course.widgets), imported only when a chapter shows it."""
    spec = WIDGETS[name]
    resolve(spec.render)(key_prefix=doc_id, **spec.kwargs)


def render_document(doc_id: str) -> None:
    blocks = content.load(doc_id, lang())
    if blocks is None:
        st.warning(tr("chapters.missing"))
        blocks = content.load(doc_id, "en") or ()
    for block in blocks:
        if block.kind == "markdown":
            st.markdown(block.text)
        elif block.kind in CALLOUTS:
            CALLOUTS[block.kind](f"**{tr('chapters.' + block.kind)}**\n\n{block.text}", icon=ICONS[block.kind])
        elif block.kind == "formula":
            formula_card(block.text)
        elif block.kind == "widget":
            with st.expander(tr("chapters.try_it"), expanded=True, icon=":material/science:"):
                _widget(block.text, doc_id)
        elif block.kind == "lab":
            spec = page(block.text)
            page_link(block.text, label=tr(f"common.open_{spec.group}", title=tr(spec.title_key)))


def _progress(chapter_id: str) -> None:
    """Chapters read: kept in the store for a learner with a nickname (rocm_bridge.ui.learner), else in the tab."""
    learner = importlib.import_module("rocm_bridge.ui.learner")
    read = st.session_state.setdefault(READ_KEY, set())
    read.add(chapter_id)
    me = learner.identify()
    sent = st.session_state.setdefault(READ_KEY + "_sent", set())
    if me and (me.id, chapter_id) not in sent:
        learner.submit("read", learner_id=me.id, chapter=chapter_id)
        sent.add((me.id, chapter_id))
    done = importlib.import_module("rocm_bridge.ui.quiz_widgets").chapters_read() | (set() if me else read)
    done &= set(CHAPTERS)
    label = "classroom.chapters_progress" if me else "chapters.progress"  # "in this session" only without a name
    st.progress(len(done) / len(CHAPTERS), text=tr(label, read=len(done), total=len(CHAPTERS)))


def _prev_next(chapter_id: str) -> None:
    i = CHAPTERS.index(chapter_id)
    left, right = st.columns(2)
    if i > 0:
        with left:
            prev = page(CHAPTERS[i - 1])
            page_link(prev.key, label=tr("chapters.previous", title=tr(prev.title_key)))
    if i + 1 < len(CHAPTERS):
        with right:
            nxt = page(CHAPTERS[i + 1])
            page_link(nxt.key, label=tr("chapters.next", title=tr(nxt.title_key)))


def render_chapter(chapter_id: str) -> None:
    st.title(tr(page(chapter_id).title_key))
    _progress(chapter_id)
    render_document(chapter_id)
    st.divider()
    st.subheader(tr("chapters.quiz"))
    importlib.import_module("rocm_bridge.ui.quiz_widgets").chapter_quiz(chapter_id)
    st.divider()
    _prev_next(chapter_id)
