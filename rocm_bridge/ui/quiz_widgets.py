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

from rocm_bridge.errors import RocmBridgeError
from rocm_bridge.i18n import t
from rocm_bridge.pages import page
from rocm_bridge.quiz import bank as bank_mod
from rocm_bridge.quiz import paper, review, scoring, store
from rocm_bridge.quiz.generate import GENERATORS, generate
from rocm_bridge.quiz.model import Question
from rocm_bridge.quiz.text import md_content, md_escape, md_option, option_order, parse_number
from rocm_bridge.ui import lang, page_link, show_error, tr

ANSWERS = "qz_answers"  # widget key -> raw widget value (the learner's inputs, kept across reruns)
CHECKED = "qz_checked"  # context key -> {question id: given}, answers already graded
HISTORY = "qz_history"  # this tab's graded answers (review works without a nickname)
LEARNER = "qz_learner"  # (learner id, nickname) once a nickname is saved
SEED = "qz_seed"  # per-session seed for option order and decks
LETTERS = "ABCDEFGH"


# --- session basics ---------------------------------------------------------------------------------------


def _seed() -> int:
    if SEED not in st.session_state:
        st.session_state[SEED] = random.randrange(1 << 30)
    return st.session_state[SEED]


def the_bank() -> bank_mod.Bank:
    return bank_mod.bank()


def _store() -> store.Store | None:
    try:
        return store.get_store()
    except RocmBridgeError as err:
        show_error(err)
    return None


def learner() -> tuple[int, str] | None:
    return st.session_state.get(LEARNER)


def nickname_box() -> None:
    """Pick a nickname (validated, shown escaped) so answers are saved; without one they stay in this tab."""
    me = learner()
    if me:
        cols = st.columns([4, 1])
        cols[0].markdown(tr("quiz.nick.as", nick=md_escape(me[1])))
        if cols[1].button(tr("quiz.nick.leave"), key="qz_nick_leave"):
            del st.session_state[LEARNER]
            st.rerun()
        return
    with st.form("qz_nick_form", border=False):
        cols = st.columns([4, 1], vertical_alignment="bottom")
        raw = cols[0].text_input(tr("quiz.nick.label"), max_chars=store.NICK_MAX, key="qz_nick")
        joined = cols[1].form_submit_button(tr("quiz.nick.join"))
    if joined:
        try:
            nick = store.validate_nickname(raw)
            db = _store()
            if db is not None:
                lid = db.learner_id(nick)
                st.session_state[LEARNER] = (lid, db.nickname(lid) or nick)  # as first registered
                st.rerun()
        except RocmBridgeError as err:
            show_error(err)
        except Exception as exc:  # noqa: BLE001 - the database went away after connecting
            show_error(store.StoreUnavailable(detail=type(exc).__name__))
    else:
        st.caption(tr("quiz.nick.anonymous"))


def history() -> list[review.Answer]:
    """Graded answers: from the database for a named learner, else from this tab."""
    me = learner()
    if me:
        db = _store()
        if db is not None:
            try:
                return db.history(me[0])
            except Exception as exc:  # noqa: BLE001 - a database outage must not break the page
                show_error(store.StoreUnavailable(detail=type(exc).__name__))
    return list(st.session_state.get(HISTORY, []))


def record(q: Question, given: Any, correct: bool, mode: str, exam_id: int | None = None) -> None:
    """Keep a graded answer in this tab and, with a nickname, in the database."""
    st.session_state.setdefault(HISTORY, []).append(review.Answer(q.record_id, correct, time.time()))
    me = learner()
    if not me:
        return
    db = _store()
    if db is None:
        return
    try:
        db.record_answer(
            me[0],
            question_id=q.record_id,
            chapter=q.chapter,
            set_name=q.set,
            mode=mode,
            given=scoring.normalize_given(q, given),
            correct=correct,
            misconception=q.misconception,
            exam_id=exam_id,
        )
    except Exception as exc:  # noqa: BLE001
        show_error(store.StoreUnavailable(detail=type(exc).__name__))


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
        if code_lines and any("\n" in lab or len(lab) > 70 for lab in labels):
            for pos, i in enumerate(order):  # long code options: show each as a block, pick by letter
                st.caption(tr("quiz.option_letter", letter=LETTERS[pos]))
                st.code(labels[i], language="cpp")
            fmt = lambda i: LETTERS[order.index(i)]  # noqa: E731
        else:
            fmt = lambda i: md_option(labels[i], code=code_lines)  # noqa: E731
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
                record(q, given, scoring.is_correct(q, given), mode)
                st.rerun()
        if q.id in checked:
            feedback(q, checked[q.id])
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


def start_exam(n: int, chapter: str | None) -> None:
    questions = paper.build_exam(the_bank(), n, chapters=[chapter] if chapter else None, rng=random.Random())
    exam = paper.ExamState(questions, time.time(), n * paper.SECONDS_PER_QUESTION)
    me = learner()
    db = _store() if me else None
    if me and db is not None:
        try:
            exam.exam_id = db.start_exam(me[0], n, exam.duration_s)
        except Exception as exc:  # noqa: BLE001
            show_error(store.StoreUnavailable(detail=type(exc).__name__))
    st.session_state[EXAM] = exam


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
    db = _store() if learner() and exam.exam_id else None
    if db is not None:
        try:
            db.finish_exam(exam.exam_id, score.n_correct)
        except Exception as exc:  # noqa: BLE001
            show_error(store.StoreUnavailable(detail=type(exc).__name__))


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
        done = sum(scoring.normalize_given(q, answer_of(q, f"qz_w_exam_{q.id}")) is not None for q in exam.questions)
        st.caption(tr("quiz.exam.answered", done=done, n=n))
        if st.button(tr("quiz.exam.submit"), type="primary", key="qz_exam_submit"):
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
    st.session_state.pop(EXAM, None)
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
    rounds = st.session_state.setdefault("qz_ch_round", {})
    ctx = f"ch_{chapter_id}_{rounds.get(chapter_id, 0)}"
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
                record(q, given, scoring.is_correct(q, given), "chapter")
        st.rerun()
    if done:
        n_ok = sum(scoring.is_correct(q, checked[q.id]) for q in questions)
        st.markdown(tr("quiz.chapter_quiz.result", correct=n_ok, n=len(questions)))
        if st.button(tr("quiz.chapter_quiz.again"), key=f"qz_again_{ctx}"):
            rounds[chapter_id] = rounds.get(chapter_id, 0) + 1
            st.rerun()
    spec = page("quiz")
    st.page_link(spec.file, label=tr("quiz.chapter_quiz.more"), icon=spec.icon, query_params={"qz_ch": chapter_id})


# --- progress page ----------------------------------------------------------------------------------------


def _db_where(db: store.Store) -> str:
    url = db.engine.url
    return f"{url.get_backend_name()}: {url.database}" if url.get_backend_name() == "sqlite" else url.render_as_string()


def my_progress() -> None:
    """Per-chapter mastery chart and table, and my exams."""
    import plotly.graph_objects as go

    from rocm_bridge import style
    from rocm_bridge.quiz.progress import mastery_by_chapter
    from rocm_bridge.ui.charts import house_layout, show_chart

    me = learner()
    if not me:
        st.info(tr("progress.session_only"), icon=":material/info:")
    hist = history()
    if not hist:
        st.info(tr("progress.no_answers"))
        spec = page("quiz")
        page_link(spec.key)
        return
    rows = mastery_by_chapter(the_bank(), hist)
    names = [tr(page(r.chapter).title_key) for r in rows]
    fig = go.Figure(
        go.Bar(
            x=names,
            y=[round(100 * r.mastery, 1) for r in rows],
            text=[f"{r.mastered}/{r.pool}" for r in rows],
            marker_color=style.STATUS_COLORS["ok"],
        )
    )
    house_layout(
        fig, title=tr("progress.chart_title"), x_title=tr("progress.axis_chapter"), y_title=tr("progress.axis_mastery")
    )
    fig.update_yaxes(range=[0, 100])
    show_chart(fig, tr("progress.source_mine"), key="qz_mastery_chart")
    st.dataframe(
        [
            {
                tr("progress.col_chapter"): name,
                tr("progress.col_mastery"): f"{100 * r.mastery:.0f} %",
                tr("progress.col_answered"): r.answered,
                tr("progress.col_pool"): r.pool,
                tr("progress.col_accuracy"): f"{100 * r.accuracy:.0f} %" if r.n_answers else "—",
            }
            for name, r in zip(names, rows, strict=True)
        ],
        hide_index=True,
    )
    if me:
        db = _store()
        try:
            exams = [e for e in db.exams_of(me[0]) if e["finished_at"]] if db else []
        except Exception as exc:  # noqa: BLE001 - a database outage must not break the page
            show_error(store.StoreUnavailable(detail=type(exc).__name__))
            exams = []
        st.subheader(tr("progress.exams"))
        if not exams:
            st.caption(tr("progress.no_exams"))
        else:
            st.dataframe(
                [
                    {
                        tr("progress.col_date"): time.strftime("%Y-%m-%d %H:%M", time.gmtime(e["started_at"])),
                        tr("progress.col_score"): f"{e['n_correct']}/{e['n_questions']}",
                    }
                    for e in exams
                ],
                hide_index=True,
            )


def teacher_view() -> None:
    """The whole database: common misconceptions, questions by wrong-answer rate, CSV exports."""
    from rocm_bridge.quiz import report

    db = _store()
    if db is None:
        return
    try:
        stats = db.question_stats()
        counts = db.misconception_counts()
        n_learners, n_answers = db.class_size(), db.count_answers()
    except Exception as exc:  # noqa: BLE001
        show_error(store.StoreUnavailable(detail=type(exc).__name__))
        return
    st.caption(tr("progress.db_note", where=md_escape(_db_where(db))))
    if not stats:
        st.info(tr("progress.teacher_empty"))
        return
    st.markdown(tr("progress.class_size", learners=n_learners, answers=n_answers))
    lg = lang()
    b = the_bank()
    if counts:
        st.subheader(tr("progress.misconceptions"))
        st.dataframe(
            [
                {tr("progress.col_myth"): r["misconception"], tr("progress.col_wrong"): r["wrong_answers"],
                 tr("progress.col_learners"): r["learners"]}
                for r in report.misconception_rows(b, counts, lg)
            ],
            hide_index=True,
        )  # fmt: skip
    st.subheader(tr("progress.hardest"))
    rows = report.question_rows(b, stats, lg)
    st.dataframe(
        [
            {tr("progress.col_question"): r["question"], tr("progress.col_chapter"): r["chapter"],
             tr("progress.col_answers"): r["answers"], tr("progress.col_learners"): r["learners"],
             tr("progress.col_wrong_rate"): f"{r['wrong_rate_percent']:.0f} %",
             tr("progress.col_common_wrong"): r["most_common_wrong"]}
            for r in rows
        ],
        hide_index=True,
    )  # fmt: skip
    left, right = st.columns(2)
    left.download_button(
        tr("progress.export_answers"),
        db.export_answers_csv(),
        "rocm_bridge_answers.csv",
        "text/csv",
        key="qz_dl_answers",
    )
    right.download_button(
        tr("progress.export_stats"),
        report.rows_to_csv(rows),
        "rocm_bridge_questions.csv",
        "text/csv",
        key="qz_dl_stats",
    )


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
