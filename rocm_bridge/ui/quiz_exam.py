"""The timed exam: one paper for the whole class (or a fresh one alone), its clock, answers sent as they
change so a reload or a server restart resumes it, then the score by chapter and the review of each answer."""

from __future__ import annotations

import random
import time
from typing import Any

import streamlit as st

from rocm_bridge.classroom import papers as class_papers
from rocm_bridge.pages import page
from rocm_bridge.quiz import paper, scoring
from rocm_bridge.quiz.model import Question
from rocm_bridge.quiz.text import md_content
from rocm_bridge.ui import lang, tr
from rocm_bridge.ui import learner as learner_mod
from rocm_bridge.ui.learner import outage
from rocm_bridge.ui.quiz_question import (
    ANSWERS,
    answer_of,
    feedback,
    learner,
    question_input,
    record,
    show_prompt,
    the_store,
)

EXAM = "qz_exam"  # the paper.ExamState of this tab's exam
EXAM_META = "qz_exam_meta"  # {"seed": ..., "saved": progress last sent, "confirm": asking before submit}


def exam_seed(n: int, chapter: str | None) -> str:
    """A class's exam is the same paper for everyone (class, chapter, size); else a fresh random one."""
    info = learner_mod.current_class()
    if info is not None:
        return class_papers.exam_seed(info.id, n, chapter)
    return f"solo:{random.randrange(1 << 62):x}"


def build_paper(n: int, chapter: str | None, seed: str) -> list[Question]:
    return class_papers.exam(seed, n, chapter)


def start_exam(n: int, chapter: str | None) -> None:
    seed = exam_seed(n, chapter)
    exam = paper.ExamState(build_paper(n, chapter, seed), time.time(), n * paper.SECONDS_PER_QUESTION)
    me = learner()
    db = the_store() if me else None
    if me and db is not None:
        try:
            exam.exam_id = db.start_exam(me.id, n, exam.duration_s, seed=seed, chapter=chapter or "")
        except Exception as exc:  # noqa: BLE001 - the exam still runs in this tab; its answers are queued
            outage(exc)
    st.session_state[EXAM] = exam
    st.session_state[EXAM_META] = {"seed": seed, "saved": {}, "confirm": False}


def _raw_for_widget(q: Question, given: Any) -> Any:
    return str(given) if q.type == "numeric" and given is not None else given


def resume_exam() -> paper.ExamState | None:
    """The learner's open exam from the database (after a reload or a server restart), with its answers."""
    me = learner()
    if st.session_state.get(EXAM) is not None or not me:
        return st.session_state.get(EXAM)
    db = the_store()
    if db is None:
        return None
    try:
        row = db.open_exam(me.id)
    except Exception as exc:  # noqa: BLE001
        outage(exc)
        return None
    if row is None or not row["seed"]:
        return None
    questions = build_paper(row["n_questions"], row["chapter"] or None, row["seed"])
    exam = paper.ExamState(questions, row["started_at"], row["duration_s"], exam_id=row["id"])
    answers = st.session_state.setdefault(ANSWERS, {})
    by_id = {q.id: q for q in questions}
    for qid, given in row["progress"].items():
        if qid in by_id:
            answers[f"qz_w_exam_{qid}"] = _raw_for_widget(by_id[qid], given)
    st.session_state[EXAM] = exam
    st.session_state[EXAM_META] = {"seed": row["seed"], "saved": dict(row["progress"]), "confirm": False}
    st.toast(tr("classroom.exam_resumed"), icon=":material/restore:")
    return exam


def _exam_progress(exam: paper.ExamState) -> dict[str, Any]:
    out = {}
    for q in exam.questions:
        value = scoring.normalize_given(q, answer_of(q, f"qz_w_exam_{q.id}"))
        if value is not None:
            out[q.id] = value
    return out


def save_progress(exam: paper.ExamState) -> None:
    """Send the answers so far when they changed (a reload or a restart resumes from them)."""
    meta = st.session_state.setdefault(EXAM_META, {"seed": "", "saved": {}, "confirm": False})
    progress = _exam_progress(exam)
    if exam.exam_id is not None and learner() and progress != meta["saved"]:
        learner_mod.submit("exam_progress", exam_id=exam.exam_id, progress=progress)
        meta["saved"] = progress


def finish_exam(exam: paper.ExamState) -> None:
    if exam.finished_at is not None:
        return
    for q in exam.questions:
        exam.answers[q.id] = answer_of(q, f"qz_w_exam_{q.id}")
    exam.finished_at = time.time()
    score = exam.score()
    for slot, q in enumerate(exam.questions):  # one row per question even if another tab submits it too
        given = exam.answers.get(q.id)
        if scoring.normalize_given(q, given) is not None:
            record(q, given, scoring.is_correct(q, given), "exam", exam.exam_id, slot)
    if learner() and exam.exam_id is not None:
        learner_mod.submit("finish_exam", exam_id=exam.exam_id, n_correct=score.n_correct)


@st.fragment(run_every=5)
def exam_clock() -> None:
    exam = st.session_state.get(EXAM)
    if exam is None or exam.finished_at is not None:
        return
    left = exam.remaining_s(time.time())
    st.progress(
        left / exam.duration_s, text=tr("quiz.exam.remaining", mmss=f"{int(left) // 60:02d}:{int(left) % 60:02d}")
    )
    if left <= 0:
        st.rerun(scope="app")


def exam_runner(exam: paper.ExamState) -> None:
    n = len(exam.questions)
    if exam.finished_at is None and exam.expired(time.time()):
        finish_exam(exam)
        st.warning(tr("quiz.exam.time_up"))
    if exam.finished_at is None:
        exam_clock()
        for i, q in enumerate(exam.questions):
            with st.container(border=True):
                show_prompt(q, tr("quiz.question_n", i=i + 1, n=n))
                question_input(q, f"qz_w_exam_{q.id}")
        save_progress(exam)
        done = sum(scoring.normalize_given(q, answer_of(q, f"qz_w_exam_{q.id}")) is not None for q in exam.questions)
        st.caption(tr("quiz.exam.answered", done=done, n=n))
        meta = st.session_state.setdefault(EXAM_META, {"seed": "", "saved": {}, "confirm": False})
        if meta.get("confirm") and done < n:
            st.warning(tr("classroom.exam_confirm", left=n - done), icon=":material/help:")
            left, right = st.columns(2)
            if left.button(tr("classroom.exam_submit_anyway"), type="primary", key="qz_exam_submit_anyway"):
                finish_exam(exam)
                st.rerun()
            if right.button(tr("classroom.exam_keep_going"), key="qz_exam_keep_going"):
                meta["confirm"] = False
                st.rerun()
        elif st.button(tr("quiz.exam.submit"), type="primary", key="qz_exam_submit"):
            if done < n:
                meta["confirm"] = True
            else:
                finish_exam(exam)
            st.rerun()
        return
    score = exam.score()
    st.subheader(tr("quiz.exam.score", correct=score.n_correct, n=n, percent=score.percent))
    st.markdown(
        f"**{tr('quiz.exam.by_chapter')}:** "
        + " · ".join(f"{tr(page(ch).title_key)} {c}/{t}" for ch, (c, t) in sorted(score.per_chapter.items()))
    )
    with st.expander(tr("quiz.exam.review"), expanded=True):
        wrong_first = sorted(exam.questions, key=lambda q: q.id not in score.wrong_ids)
        for q in wrong_first:
            with st.container(border=True):
                show_prompt(q)
                given = exam.answers.get(q.id)
                st.markdown(tr("quiz.exam.given", given=md_content(scoring.format_answer(q, given, lang()))))
                feedback(q, given)


def clear_exam() -> None:
    """Leave the exam: an unfinished one is closed as abandoned (not left open forever)."""
    exam = st.session_state.pop(EXAM, None)
    st.session_state.pop(EXAM_META, None)
    if exam is not None and exam.finished_at is None and exam.exam_id is not None and learner():
        learner_mod.submit("abandon_exam", exam_id=exam.exam_id)
    st.session_state[ANSWERS] = {k: v for k, v in st.session_state.get(ANSWERS, {}).items() if "_exam_" not in k}
    for k in [k for k in st.session_state if str(k).startswith("qz_w_exam_")]:
        del st.session_state[k]
