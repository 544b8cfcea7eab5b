"""Quiz widgets, the module the quiz, progress and classroom pages, chapter pages and classroom_view import:
the selection kept in the URL (below) and, re-exported, the parts that live in their own modules:

- quiz_question: one question (prompt, input, feedback), the bank, the learner's nickname, recorded answers;
- quiz_runners: practice / review decks, the interview runner, `chapter_quiz` at the end of every chapter page;
- quiz_exam: the timed exam (start, resume after a reload, clock, submit, review, leave);
- progress_view: my progress (chapters read, mastery chart and table, my exams, my data).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from rocm_bridge.ui.progress_view import chapters_read, mastery_chart, my_progress
from rocm_bridge.ui.quiz_exam import clear_exam, exam_runner, resume_exam, start_exam
from rocm_bridge.ui.quiz_question import answer_of, feedback, nickname_box, question_input, show_prompt, the_bank
from rocm_bridge.ui.quiz_runners import (
    chapter_quiz,
    deck_runner,
    interview_runner,
    practice_deck,
    restart,
    review_deck,
)

__all__ = [
    "answer_of",
    "chapter_quiz",
    "chapters_read",
    "clear_exam",
    "deck_runner",
    "exam_runner",
    "feedback",
    "interview_runner",
    "keep_choices",
    "mastery_chart",
    "my_progress",
    "nickname_box",
    "practice_deck",
    "question_input",
    "restart",
    "resume_exam",
    "review_deck",
    "show_prompt",
    "start_exam",
    "the_bank",
    "url_choice",
]


# --- selection kept in the URL (language-independent values, unlike bind="query-params" which stores labels) ---

PREFS = "qz_prefs"


def url_choice(key: str, default: Any, valid: Any, cast: Any = str) -> None:
    """Seed a selection widget's state from ?key= (validated, with a notice when invalid) or from this session."""
    from rocm_bridge.ui.state import url_state

    if key in st.session_state:
        return
    prefs = st.session_state.get(PREFS, {})
    if key not in st.query_params and key in prefs:
        st.session_state[key] = prefs[key]
    else:
        url_state(key, default, cast, valid)


def keep_choices(*keys: str) -> None:
    """Remember the selections across pages and write them into the URL so a link reproduces the view."""
    from rocm_bridge.ui.state import push_url

    prefs = st.session_state.setdefault(PREFS, {})
    for key in keys:
        prefs[key] = st.session_state.get(key)
    push_url(*keys)
