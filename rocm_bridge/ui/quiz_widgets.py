"""Quiz widgets: one question with its input and feedback, the learner's nickname, the practice / exam /
review / interview runners used by views/quiz.py, and `chapter_quiz` at the end of every chapter page.

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
from rocm_bridge.quiz import paper, review, scoring, store
from rocm_bridge.quiz.generate import GENERATORS, generate
from rocm_bridge.quiz.model import Question
from rocm_bridge.quiz.text import md_content, md_escape, option_order, parse_number
from rocm_bridge.ui import lang, page_link, show_error, tr
from rocm_bridge.ui import learner as learner_mod

ANSWERS = "qz_answers"  # widget key -> raw widget value (the learner's inputs, kept across reruns)
CHECKED = "qz_checked"  # context key -> {question id: given}, answers already graded
HISTORY = "qz_history"  # this tab's graded answers (review works without a nickname)
SAVED = "qz_saved"  # context key -> {question id: whether the database confirmed the answer}
SEED = "qz_seed"  # per-session seed for option order and decks
LETTERS = "ABCDEFGH"


# --- session basics ---------------------------------------------------------------------------------------


def _seed() -> int:
    """Option order and decks: the same for everyone in a class (the teacher's screen matches), else per tab."""
    info = learner_mod.current_class()
    if info is not None:
        return class_papers.option_seed(info.id)
    if SEED not in st.session_state:
        st.session_state[SEED] = random.randrange(1 << 30)
    return st.session_state[SEED]


def the_bank() -> bank_mod.Bank:
    return bank_mod.bank()


def _store() -> store.Store | None:
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
        db = _store()
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
                show_error(store.StoreUnavailable(detail=type(exc).__name__))
    return list(st.session_state.get(HISTORY, []))


def record(q: Question, given: Any, correct: bool, mode: str, exam_id: int | None = None) -> str | None:
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


def _remember(key: str) -> None:
    st.session_state.setdefault(ANSWERS, {})[key] = st.session_state.get(key)


def _restore(key: str) -> None:
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
    _restore(key)
    lg = lang()
    labels = q.option_labels(lg)
    cb = {} if in_form else {"on_change": _remember, "args": (key,)}
    common = {"key": key, "disabled": disabled, "label_visibility": "collapsed", **cb}
    if q.type in ("single", "code"):
        order = option_order(q.id, len(labels), _seed())
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
        order = option_order(q.id, len(labels), _seed())
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


# --- practice and review: one question at a time ----------------------------------------------------------


def deck_runner(ctx: str, deck: list[Question], mode: str) -> None:
    """Show deck[i] with Check / Next; graded answers are kept under CHECKED[ctx]."""
    if not deck:
        st.info(tr("quiz.empty"))
        return
    state = st.session_state.setdefault(f"qz_deck_{ctx}", {"i": 0})
    checked: dict[str, Any] = st.session_state.setdefault(CHECKED, {}).setdefault(ctx, {})
    i = min(state["i"], len(deck))
    if i >= len(deck):
        n_ok = sum(scoring.is_correct(q, checked.get(q.id)) for q in deck)
        st.success(tr("quiz.deck_done", correct=n_ok, total=len(deck)))
        return
    q = deck[i]
    key = f"qz_w_{ctx}_{q.id}"
    with st.container(border=True):
        show_prompt(q, tr("quiz.question_n", i=i + 1, n=len(deck)))
        done = q.id in checked
        question_input(q, key, disabled=done)
        if not done and st.button(tr("quiz.check"), key=f"qz_check_{ctx}", type="primary"):
            given = answer_of(q, key)
            if scoring.normalize_given(q, given) is None:
                st.warning(tr("quiz.unanswered"))
            else:
                checked[q.id] = given
                saved = st.session_state.setdefault(SAVED, {}).setdefault(ctx, {})
                saved[q.id] = record(q, given, scoring.is_correct(q, given), mode)
                st.rerun()
        if q.id in checked:
            feedback(q, checked[q.id])
            saved_note(st.session_state.get(SAVED, {}).get(ctx, {}).get(q.id))
            if st.button(tr("quiz.next"), key=f"qz_next_{ctx}", type="primary"):
                state["i"] = i + 1
                st.rerun()


def practice_deck(sets: list[str], chapter: str | None, with_generated: bool) -> tuple[str, list[Question]]:
    """The same deck on every rerun for one selection (kept in the session)."""
    ctx = f"practice_{'-'.join(sets)}_{chapter or 'all'}_{int(with_generated)}"
    decks = st.session_state.setdefault("qz_decks", {})
    if ctx not in decks:
        rng = random.Random(f"{_seed()}:{ctx}:{len(decks)}")
        decks[ctx] = paper.practice_deck(
            the_bank(), sets=sets, chapters=[chapter] if chapter else None, rng=rng, generated=with_generated
        )
    return ctx, decks[ctx]


def restart(ctx: str) -> None:
    st.session_state.get("qz_decks", {}).pop(ctx, None)
    st.session_state.pop(f"qz_deck_{ctx}", None)
    st.session_state.get(CHECKED, {}).pop(ctx, None)
    st.session_state[ANSWERS] = {k: v for k, v in st.session_state.get(ANSWERS, {}).items() if f"_{ctx}_" not in k}
    for k in [k for k in st.session_state if str(k).startswith(f"qz_w_{ctx}_")]:
        del st.session_state[k]


def review_deck(chapter: str | None) -> tuple[str, list[Question]]:
    """Mistakes first, then due questions (Leitner); generated kinds come back with fresh numbers."""
    ctx = f"review_{chapter or 'all'}"
    decks = st.session_state.setdefault("qz_decks", {})
    if ctx not in decks:
        b, rng = the_bank(), random.Random()
        deck = []
        for qid in review.review_queue(history(), time.time()):
            q = b.get(qid) or (generate(qid, rng) if qid in GENERATORS else None)
            if q is not None and q.graded and (chapter is None or q.chapter == chapter):
                deck.append(q)
        decks[ctx] = deck
    return ctx, decks[ctx]


# --- exam -------------------------------------------------------------------------------------------------

EXAM = "qz_exam"


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
    db = _store() if me else None
    if me and db is not None:
        try:
            exam.exam_id = db.start_exam(me.id, n, exam.duration_s, seed=seed, chapter=chapter or "")
        except Exception as exc:  # noqa: BLE001 - the exam still runs in this tab; its answers are queued
            show_error(store.StoreUnavailable(detail=type(exc).__name__))
    st.session_state[EXAM] = exam
    st.session_state[EXAM_META] = {"seed": seed, "saved": {}, "confirm": False}


def _raw_for_widget(q: Question, given: Any) -> Any:
    return str(given) if q.type == "numeric" and given is not None else given


def resume_exam() -> paper.ExamState | None:
    """The learner's open exam from the database (after a reload or a server restart), with its answers."""
    me = learner()
    if st.session_state.get(EXAM) is not None or not me:
        return st.session_state.get(EXAM)
    db = _store()
    if db is None:
        return None
    try:
        row = db.open_exam(me.id)
    except Exception as exc:  # noqa: BLE001
        show_error(store.StoreUnavailable(detail=type(exc).__name__))
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
    for q in exam.questions:
        given = exam.answers.get(q.id)
        if scoring.normalize_given(q, given) is not None:
            record(q, given, scoring.is_correct(q, given), "exam", exam.exam_id)
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


# --- interview --------------------------------------------------------------------------------------------


def interview_runner(chapter: str | None) -> None:
    ctx = f"interview_{chapter or 'all'}"
    deck = the_bank().select(sets=["interview"], chapters=[chapter] if chapter else None)
    if not deck:
        st.info(tr("quiz.empty"))
        return
    state = st.session_state.setdefault(f"qz_deck_{ctx}", {"i": 0, "shown": False})
    q = deck[state["i"] % len(deck)]
    lg = lang()
    with st.container(border=True):
        show_prompt(q, tr("quiz.question_n", i=state["i"] % len(deck) + 1, n=len(deck)))
        key = f"qz_w_{ctx}_{q.id}_notes"
        _restore(key)
        st.text_area(tr("quiz.interview.notes"), key=key, max_chars=4000, on_change=_remember, args=(key,))
        if not state["shown"]:
            if st.button(tr("quiz.interview.reveal"), key=f"qz_reveal_{ctx}", type="primary"):
                state["shown"] = True
                st.rerun()
            return
        st.markdown(f"**{tr('quiz.interview.model')}:** {md_content(q.t('model_answer', lg))}")
        st.markdown(f"**{tr('quiz.interview.listen')}:**")
        st.markdown("\n".join(f"- {md_content(p)}" for p in q.listen_for[lg]))
        if q.weak_answer:  # course issue 16: the common weak answer and follow-up questions
            st.markdown(f"**{tr('chapters.interview.weak')}:** {md_content(q.t('weak_answer', lg))}")
        if q.follow_ups:
            st.markdown(f"**{tr('chapters.interview.follow_ups')}:**\n" + "\n".join(f"- {md_content(p)}" for p in q.follow_ups[lg]))
        rate = st.radio(
            tr("quiz.interview.rate"),
            list(scoring.SELF_ASSESSMENT),
            horizontal=True,
            index=None,
            format_func=lambda v: t(f"quiz.interview.rates.{v}", lg),
            key=f"qz_rate_{ctx}_{q.id}",
        )
        page_link(q.page_key, label=tr("quiz.learn_more", title=tr(page(q.page_key).title_key)))
        if st.button(tr("quiz.interview.save"), key=f"qz_save_{ctx}", disabled=rate is None, type="primary"):
            record(q, rate, scoring.is_correct(q, rate), "interview")
            state["i"] += 1
            state["shown"] = False
            st.rerun()


# --- the end-of-chapter quiz ------------------------------------------------------------------------------


def chapter_quiz(chapter_id: str) -> None:
    """Two or three questions at the end of a chapter page, in one form (no rerun until 'Check')."""
    learner_mod.outbox_notice()  # answers waiting for the database are announced here too
    rounds = st.session_state.setdefault("qz_ch_round", {})
    ctx = f"ch_{chapter_id}_{rounds.get(chapter_id, 0)}"
    info = learner_mod.current_class()
    if info is not None:  # the same questions for the whole class (and the teacher's preview)
        questions = class_papers.chapter_quiz(info.id, chapter_id, rounds.get(chapter_id, 0))
    else:
        questions = paper.chapter_quiz(the_bank(), chapter_id, seed=_seed() + rounds.get(chapter_id, 0))
    checked: dict[str, Any] = st.session_state.setdefault(CHECKED, {}).setdefault(ctx, {})
    st.caption(tr("quiz.chapter_quiz.intro"))
    keys = {q.id: f"qz_w_{ctx}_{q.id}" for q in questions}
    done = bool(checked) and all(q.id in checked for q in questions)
    with st.form(f"qz_form_{ctx}"):
        for i, q in enumerate(questions):
            show_prompt(q, f"{i + 1}/{len(questions)}")
            question_input(q, keys[q.id], disabled=done, in_form=True)
            if done:
                feedback(q, checked[q.id])
            st.divider()
        submitted = st.form_submit_button(tr("quiz.chapter_quiz.check"), type="primary", disabled=done)
    if submitted and not done:
        for q in questions:
            _remember(keys[q.id])
            given = answer_of(q, keys[q.id])
            checked[q.id] = given
            if scoring.normalize_given(q, given) is not None:
                key = record(q, given, scoring.is_correct(q, given), "chapter")
                st.session_state.setdefault(SAVED, {}).setdefault(ctx, {})[q.id] = key
        st.rerun()
    if done:
        n_ok = sum(scoring.is_correct(q, checked[q.id]) for q in questions)
        st.markdown(tr("quiz.chapter_quiz.result", correct=n_ok, n=len(questions)))
        saved_note(*st.session_state.get(SAVED, {}).get(ctx, {}).values())
        if st.button(tr("quiz.chapter_quiz.again"), key=f"qz_again_{ctx}"):
            rounds[chapter_id] = rounds.get(chapter_id, 0) + 1
            st.rerun()
    spec = page("quiz")
    st.page_link(spec.file, label=tr("quiz.chapter_quiz.more"), icon=spec.icon, query_params={"qz_ch": chapter_id})


# --- progress page ----------------------------------------------------------------------------------------


def mastery_chart(values: list[tuple[str, float, str]], *, title: str, source: str, key: str) -> None:
    """A bar per chapter: (chapter id, mastery 0..1, bar label)."""
    import plotly.graph_objects as go

    from rocm_bridge.ui.charts import house_layout, show_chart
    from rocm_bridge.ui.theme import palette

    fig = go.Figure(
        go.Bar(
            x=[tr(page(ch).title_key) for ch, _, _ in values],
            y=[round(100 * m, 1) for _, m, _ in values],
            text=[label for _, _, label in values],
            marker_color=palette().status["ok"],
        )
    )
    house_layout(fig, title=title, x_title=tr("progress.axis_chapter"), y_title=tr("progress.axis_mastery"))
    fig.update_yaxes(range=[0, 100])
    show_chart(fig, source, key=key)


def my_progress() -> None:
    """Per-chapter mastery chart and table, chapters read, my exams, and my data (download, delete)."""
    from rocm_bridge.pages import CHAPTERS
    from rocm_bridge.quiz.progress import mastery_by_chapter

    me = learner()
    if not me:
        st.info(tr("progress.session_only"), icon=":material/info:")
    read = chapters_read()
    st.markdown(tr("classroom.chapters_read", read=len(read), total=len(CHAPTERS)))
    hist = history()
    if not hist:
        st.info(tr("progress.no_answers"))
        spec = page("quiz")
        page_link(spec.key)
    else:
        rows = mastery_by_chapter(the_bank(), hist)
        mastery_chart(
            [(r.chapter, r.mastery, f"{r.mastered}/{r.pool}") for r in rows],
            title=tr("progress.chart_title"),
            source=tr("progress.source_mine"),
            key="qz_mastery_chart",
        )
        st.dataframe(
            [
                {
                    tr("progress.col_chapter"): tr(page(r.chapter).title_key),
                    tr("classroom.col_read"): "✓" if r.chapter in read else "",
                    tr("progress.col_mastery"): f"{100 * r.mastery:.0f} %",
                    tr("progress.col_answered"): r.answered,
                    tr("progress.col_pool"): r.pool,
                    tr("progress.col_accuracy"): f"{100 * r.accuracy:.0f} %" if r.n_answers else "—",
                }
                for r in rows
            ],
            hide_index=True,
        )
    if me:
        _my_exams(me)
        _my_data(me)


def chapters_read() -> set[str]:
    """Chapters read: from the database for a named learner (plus waiting writes), else from this tab."""
    from rocm_bridge.ui.chapter import READ_KEY

    here = set(st.session_state.get(READ_KEY, set()))
    me = learner()
    db = _store() if me else None
    if db is None:
        return here
    try:
        return db.chapters_read(me.id) | {
            w["chapter"] for w in st.session_state.get(learner_mod.OUTBOX, []) if w["op"] == "read"
        }
    except Exception:  # noqa: BLE001 - the outbox notice already says the database is away
        return here


def _my_exams(me: store.Learner) -> None:
    db = _store()
    try:
        exams = [e for e in db.exams_of(me.id) if e["status"] != "open"] if db else []
    except Exception as exc:  # noqa: BLE001 - a database outage must not break the page
        show_error(store.StoreUnavailable(detail=type(exc).__name__))
        exams = []
    st.subheader(tr("progress.exams"))
    if not exams:
        st.caption(tr("progress.no_exams"))
        return
    st.dataframe(
        [
            {
                tr("progress.col_date"): time.strftime("%Y-%m-%d %H:%M", time.gmtime(e["started_at"])),
                tr("progress.col_score"): f"{e['n_correct']}/{e['n_questions']}" if e["status"] == "finished"
                else tr("classroom.exam_abandoned"),
            }
            for e in exams
        ],
        hide_index=True,
    )  # fmt: skip


def _my_data(me: store.Learner) -> None:
    """Download everything stored about me (JSON), or delete it."""
    import json

    st.subheader(tr("classroom.my_data"))
    db = _store()
    if db is None:
        return
    try:
        doc = json.dumps(db.export_learner(me.id), ensure_ascii=False, indent=1)
    except Exception as exc:  # noqa: BLE001
        show_error(store.StoreUnavailable(detail=type(exc).__name__))
        return
    left, right = st.columns(2)
    left.download_button(tr("classroom.export_mine"), doc, "rocm_bridge_my_data.json", "application/json",
                         key="qz_dl_mine")  # fmt: skip
    with right.popover(tr("classroom.delete_mine"), icon=":material/delete:"):
        st.markdown(tr("classroom.delete_mine_warn"))
        if st.button(tr("classroom.delete_mine_confirm"), type="primary", key="qz_delete_mine"):
            try:
                db.delete_learner(me.id)
            except Exception as exc:  # noqa: BLE001
                show_error(store.StoreUnavailable(detail=type(exc).__name__))
                return
            learner_mod.leave()
            for k in (HISTORY, CHECKED, SAVED, ANSWERS, learner_mod.OUTBOX):
                st.session_state.pop(k, None)
            st.session_state["qz_deleted"] = True
            st.rerun()


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
