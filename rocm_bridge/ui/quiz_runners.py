"""The quiz runners that ask one question after another: practice and review decks (Check / Next), the
interview runner (notes, model answer, self-assessment) and `chapter_quiz` at the end of every chapter page."""

from __future__ import annotations

import random
import time
import zlib
from typing import Any

import streamlit as st

from rocm_bridge.classroom import papers as class_papers
from rocm_bridge.i18n import t
from rocm_bridge.pages import page
from rocm_bridge.quiz import paper, review, scoring
from rocm_bridge.quiz.generate import GENERATORS, generate
from rocm_bridge.quiz.model import Question
from rocm_bridge.quiz.text import md_content
from rocm_bridge.ui import lang, page_link, tr
from rocm_bridge.ui import learner as learner_mod
from rocm_bridge.ui.quiz_question import (
    ANSWERS,
    CHECKED,
    SAVED,
    answer_of,
    feedback,
    history,
    question_input,
    record,
    remember,
    restore,
    saved_note,
    session_seed,
    show_prompt,
    the_bank,
)

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
                _keep_position(ctx)
                st.rerun()


# Where a practice deck is survives a reload and a move to another replica (issue 27.12): the deck's seed and
# position in the browser's `rb_deck` cookie (ctx checksum, seed, index: digits and dashes only), read back when a
# new session builds the same deck. Nothing personal; a wrong or stale value only picks another deck order.
DECK_COOKIE = "rb_deck"
DECK_SEEDS = "qz_deck_seeds"


def _ctx_sum(ctx: str) -> int:
    return zlib.crc32(ctx.encode())


def _keep_position(ctx: str) -> None:
    seed = st.session_state.get(DECK_SEEDS, {}).get(ctx)
    if seed is not None:
        i = st.session_state.get(f"qz_deck_{ctx}", {}).get("i", 0)
        learner_mod.set_cookie(DECK_COOKIE, f"{_ctx_sum(ctx)}-{seed}-{i}", learner_mod.COOKIE_DAYS * 86400)


def _position_from_cookie(ctx: str) -> tuple[int, int] | None:
    """(seed, index) of this deck from the browser's cookie, once per session (a restart starts afresh)."""
    used = st.session_state.setdefault("qz_deck_cookie_used", set())
    raw = str(st.context.cookies.get(DECK_COOKIE) or "")
    parts = raw.split("-")
    if ctx in used or len(parts) != 3 or not all(p.isascii() and p.isdigit() and len(p) <= 12 for p in parts):
        return None
    used.add(ctx)
    return (int(parts[1]), int(parts[2])) if int(parts[0]) == _ctx_sum(ctx) else None


def practice_deck(sets: list[str], chapter: str | None, with_generated: bool) -> tuple[str, list[Question]]:
    """The same deck on every rerun for one selection (kept in the session, its place in the browser)."""
    ctx = f"practice_{'-'.join(sets)}_{chapter or 'all'}_{int(with_generated)}"
    decks = st.session_state.setdefault("qz_decks", {})
    if ctx not in decks:
        found = _position_from_cookie(ctx)
        if found is not None:
            seed, i = found
            st.session_state[f"qz_deck_{ctx}"] = {"i": i}
        else:
            seed = random.Random(f"{session_seed()}:{ctx}:{len(decks)}").randrange(1 << 40)
        st.session_state.setdefault(DECK_SEEDS, {})[ctx] = seed
        decks[ctx] = paper.practice_deck(
            the_bank(), sets=sets, chapters=[chapter] if chapter else None, rng=random.Random(seed),
            generated=with_generated,
        )  # fmt: skip
        _keep_position(ctx)
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
        restore(key)
        st.text_area(tr("quiz.interview.notes"), key=key, max_chars=4000, on_change=remember, args=(key,))
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
            st.markdown(
                f"**{tr('chapters.interview.follow_ups')}:**\n"
                + "\n".join(f"- {md_content(p)}" for p in q.follow_ups[lg])
            )
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
        questions = paper.chapter_quiz(the_bank(), chapter_id, seed=session_seed() + rounds.get(chapter_id, 0))
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
            remember(keys[q.id])
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
