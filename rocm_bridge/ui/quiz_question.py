"""One quiz question and what every quiz runner shares: the session's keys and seed, the bank, the learner and
the store, graded answers recorded (this tab and, with a nickname, the database), and one question's prompt,
input and feedback. Used by quiz_runners, quiz_exam, progress_view and classroom_view (through quiz_widgets).

Answers never live only in widget state: every input copies its value into st.session_state[ANSWERS] and is
re-seeded from there, so a rerun, a language switch or a visit to another page loses nothing.
"""

from __future__ import annotations

import random
import time
from typing import Any

import streamlit as st

from rocm_bridge.classroom import papers as class_papers
from rocm_bridge.i18n import t
from rocm_bridge.pages import page
from rocm_bridge.quiz import bank as bank_mod
from rocm_bridge.quiz import review, scoring, store
from rocm_bridge.quiz.model import Question
from rocm_bridge.quiz.text import md_content, md_escape, option_order, parse_number
from rocm_bridge.ui import lang, page_link, tr
from rocm_bridge.ui import learner as learner_mod
from rocm_bridge.ui.learner import outage

ANSWERS = "qz_answers"  # widget key -> raw widget value (the learner's inputs, kept across reruns)
CHECKED = "qz_checked"  # context key -> {question id: given}, answers already graded
HISTORY = "qz_history"  # this tab's graded answers (review works without a nickname)
SAVED = "qz_saved"  # context key -> {question id: whether the database confirmed the answer}
SEED = "qz_seed"  # per-session seed for option order and decks
LETTERS = "ABCDEFGH"


# --- session basics ---------------------------------------------------------------------------------------


def session_seed() -> int:
    """Option order and decks: the same for everyone in a class (the teacher's screen matches), else per tab."""
    info = learner_mod.current_class()
    if info is not None:
        return class_papers.option_seed(info.id)
    if SEED not in st.session_state:
        st.session_state[SEED] = random.randrange(1 << 30)
    return st.session_state[SEED]


def the_bank() -> bank_mod.Bank:
    return bank_mod.bank()


def the_store() -> store.Store | None:
    return learner_mod.get_store()


def learner() -> store.Learner | None:
    return learner_mod.current()


def nickname_box() -> None:
    """Who am I (rocm_bridge.ui.learner): a nickname and class, or join / come back with a resume code."""
    learner_mod.learner_box()


def history() -> list[review.Answer]:
    """Graded answers: from the database for a named learner (plus any still waiting to be written), else
    from this tab."""
    me = learner()
    if me:
        db = the_store()
        if db is not None:
            try:
                stored = db.history(me.id)
                waiting = [
                    review.Answer(w["question_id"], bool(w["correct"]), w["answered_at"])
                    for w in st.session_state.get(learner_mod.OUTBOX, [])
                    if w["op"] == "answer"
                ]
                return stored + waiting
            except Exception as exc:  # noqa: BLE001 - a database outage must not break the page
                outage(exc)
    return list(st.session_state.get(HISTORY, []))


def record(
    q: Question, given: Any, correct: bool, mode: str, exam_id: int | None = None, exam_slot: int | None = None
) -> str | None:
    """Keep a graded answer in this tab and, with a nickname, send it to the database through the outbox.

    Returns the answer's client key (None without a nickname): saved_note(key) says whether it is written."""
    now = time.time()
    st.session_state.setdefault(HISTORY, []).append(review.Answer(q.record_id, correct, now))
    me = learner()
    if not me:
        return None
    key = learner_mod.new_key()
    learner_mod.submit(
        "answer",
        learner_id=me.id,
        question_id=q.record_id,
        chapter=q.chapter,
        set_name=q.set,
        mode=mode,
        given=scoring.normalize_given(q, given),
        correct=bool(correct),
        misconception=q.misconception,
        exam_id=exam_id,
        answered_at=now,
        client_key=key,
        **({"exam_slot": exam_slot} if exam_slot is not None else {}),
    )
    return key


def saved_note(*keys: str | None) -> None:
    """Say honestly where the answers are: written to the database, or still waiting in this tab."""
    keys = tuple(k for k in keys if k is not None)
    if not keys:
        return
    queued = {w.get("client_key") for w in st.session_state.get(learner_mod.OUTBOX, [])}
    st.caption(tr("classroom.not_saved") if queued & set(keys) else tr("classroom.saved"))


# --- one question -----------------------------------------------------------------------------------------


def remember(key: str) -> None:
    st.session_state.setdefault(ANSWERS, {})[key] = st.session_state.get(key)


def restore(key: str) -> None:
    saved = st.session_state.get(ANSWERS, {})
    if key not in st.session_state and key in saved:
        st.session_state[key] = saved[key]


def given_from_raw(q: Question, raw: Any) -> Any:
    """The answer as scoring expects it, from a widget's raw value."""
    if q.type == "numeric":
        return parse_number(raw)
    if q.type == "multiple":
        return list(raw) if raw else None
    return raw


def answer_of(q: Question, key: str) -> Any:
    raw = st.session_state.get(key, st.session_state.get(ANSWERS, {}).get(key))
    return given_from_raw(q, raw)


def show_prompt(q: Question, number: str = "") -> None:
    lg = lang()
    meta = tr(
        "quiz.meta", chapter=tr(page(q.chapter).title_key), kind=tr(f"quiz.types.{q.type}"), difficulty=q.difficulty
    )
    st.caption(f"{number} · {meta}" if number else meta)
    st.markdown(f"**{md_content(q.t('prompt', lg))}**")
    if q.code:
        st.code(q.code, language="cpp")


def question_input(q: Question, key: str, *, disabled: bool = False, in_form: bool = False) -> None:
    """The input for one question; its value is kept under ANSWERS[key] (in a form: copied on submit)."""
    restore(key)
    lg = lang()
    labels = q.option_labels(lg)
    cb = {} if in_form else {"on_change": remember, "args": (key,)}
    common = {"key": key, "disabled": disabled, "label_visibility": "collapsed", **cb}
    if q.type in ("single", "code"):
        order = option_order(q.id, len(labels), session_seed())
        code_lines = q.type == "code" and all(o["en"] == o["zh"] for o in q.options)  # options are code, not prose
        if code_lines:  # code options: each as a readable block (inline code in a radio label is tiny), pick by letter
            for pos, i in enumerate(order):
                st.caption(tr("quiz.option_letter", letter=LETTERS[pos]))
                st.code(labels[i], language="cpp")
            fmt = lambda i: LETTERS[order.index(i)]  # noqa: E731
        else:
            fmt = lambda i: md_content(labels[i])  # noqa: E731
        st.radio(tr("quiz.your_answer"), order, index=None, format_func=fmt, **common)
    elif q.type == "multiple":
        order = option_order(q.id, len(labels), session_seed())
        st.caption(tr("quiz.pick_all"))
        st.multiselect(
            tr("quiz.your_answer"), order, format_func=lambda i: labels[i], placeholder=tr("quiz.pick_all"), **common
        )
    elif q.type == "true_false":
        st.radio(
            tr("quiz.your_answer"),
            [True, False],
            index=None,
            horizontal=True,
            format_func=lambda v: t("quiz.true" if v else "quiz.false", lg),
            **common,
        )
    elif q.type == "numeric":
        cols = st.columns([2, 3], vertical_alignment="center")
        with cols[0]:
            st.text_input(tr("quiz.your_answer"), placeholder=tr("quiz.number_placeholder"), max_chars=40, **common)
        if q.unit:
            cols[1].markdown(md_escape(q.unit))


def feedback(q: Question, given: Any) -> bool:
    """Right or wrong, the right answer, the explanation, its source and the page that teaches it."""
    lg = lang()
    ok = scoring.is_correct(q, given)
    if ok:
        st.success(tr("quiz.correct"), icon=":material/check_circle:")
    else:
        st.error(tr("quiz.wrong", answer=md_content(scoring.correct_answer_text(q, lg))), icon=":material/cancel:")
    st.markdown(f"**{tr('quiz.explanation')}:** {md_content(q.t('explanation', lg))}")
    if q.misconception and not ok and q.set != "misconceptions":
        myth = the_bank().get(q.misconception)
        if myth is not None:
            st.info(tr("quiz.misconception_note", myth=md_content(myth.t("prompt", lg))), icon=":material/psychology:")
    if q.set == "generated":
        st.caption(tr("quiz.generated_note"))
    st.caption(f"{tr('common.source')}: {md_escape(q.source)}")
    spec = page(q.page_key)
    page_link(spec.key, label=tr("quiz.learn_more", title=tr(spec.title_key)))
    return ok
