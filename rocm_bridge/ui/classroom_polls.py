"""Live polls in the classroom: the student's banner (on the classroom page every POLL_EVERY_S, on other pages every
POLL_AWAY_S, without reloading) and the teacher's side (open a question, watch the answers arrive as a chart,
reveal, close). The rest of the classroom page is rocm_bridge.ui.classroom_view."""

from __future__ import annotations

import json
from collections import Counter

import streamlit as st

from rocm_bridge.classroom import classes, polls
from rocm_bridge.i18n import t
from rocm_bridge.pages import CHAPTERS, page
from rocm_bridge.quiz import report, scoring, store
from rocm_bridge.quiz.generate import generators_for
from rocm_bridge.quiz.model import Question
from rocm_bridge.quiz.text import md_content
from rocm_bridge.ui import lang, tr
from rocm_bridge.ui import learner as learner_mod
from rocm_bridge.ui import quiz_widgets as qw
from rocm_bridge.ui.learner import outage

POLL_EVERY_S = 1.0  # with the 1 s per-class poll cache (polls.POLL_CACHE_S): a new poll shows within ~1-2 s
# On other pages (the quiz) the poll banner is looked for every 2 s: each timer tick costs a session ~3 ms of
# Streamlit's own CPU whatever the fragment does (docs/deploy.md, Scale), and a practising student is most of a class
POLL_AWAY_S = 2.0


# --- students ---------------------------------------------------------------------------------------------


def student_poll() -> None:
    """The class's live poll, looked for every POLL_EVERY_S without reloading the page."""
    me, info = learner_mod.current(), learner_mod.current_class()
    if me is None or info is None:
        return
    if _on_page("classroom"):
        _poll_fragment()
    else:
        _poll_fragment_away()


def _on_page(key: str) -> bool:
    """Whether this run is the page `key` (Streamlit's page registry of st.navigation; False if unknown)."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx()
        info = ctx.pages_manager.get_pages().get(ctx.page_script_hash) if ctx else None
        return bool(info) and info.get("url_pathname") == page(key).url_path
    except Exception:  # noqa: BLE001 - an internal API of Streamlit 1.67: when it moves, the fast timer
        return True


def _poll_body() -> None:
    me, info = learner_mod.current(), learner_mod.current_class()
    if me is None or info is None:
        return
    try:
        db = store.get_store()
        poll = polls.current_poll(db, info.id)
    except Exception:  # noqa: BLE001 - the outbox notice tells about outages; the poll just waits
        return
    shown = st.session_state.get("cr_poll_shown")
    if shown is not None and (poll is None or poll.id != shown or poll.status != "open"):
        st.session_state.pop("cr_poll_shown", None)
        if st.session_state.get(f"cr_poll_send_{shown}"):  # sent just as the teacher closed it: not counted
            st.warning(tr("classroom.poll.closed_before"))
    if poll is None:
        st.caption(tr("classroom.poll.none"))
        return
    q = poll.question()
    if q is None:
        return
    with st.container(border=True, key=f"cr_poll_box_{poll.id}"):
        st.markdown(f"**{tr('classroom.poll.title')}**")
        qw.show_prompt(q)
        mine = st.session_state.setdefault("cr_poll_mine", {})
        if poll.id not in mine:
            try:
                mine_db = polls.my_answer(db, poll.id, me.id)
            except Exception:  # noqa: BLE001
                mine_db = None
            if mine_db is not None:
                mine[poll.id] = mine_db
        if poll.status == "revealed":
            if poll.id in mine:
                qw.feedback(q, mine[poll.id])
            else:
                st.info(tr("classroom.poll.revealed_unanswered"))
                qw.feedback(q, None)
            return
        if poll.id in mine:
            st.success(tr("classroom.poll.received"), icon=":material/how_to_vote:")
            return
        key = f"cr_poll_w_{poll.id}"
        st.session_state["cr_poll_shown"] = poll.id
        qw.question_input(q, key)
        if st.button(tr("classroom.poll.send"), key=f"cr_poll_send_{poll.id}", type="primary"):
            given = qw.answer_of(q, key)
            if scoring.normalize_given(q, given) is None:
                st.warning(tr("quiz.unanswered"))
                return
            try:
                result = polls.answer(db, poll, me.id, given)
            except Exception as exc:  # noqa: BLE001 - not acknowledged: say so, the learner can send again
                outage(exc)
                return
            if result == "closed":
                st.warning(tr("classroom.poll.closed_before"))
                return
            mine[poll.id] = scoring.normalize_given(q, given)
            st.success(tr("classroom.poll.received"), icon=":material/how_to_vote:")


_poll_fragment = st.fragment(run_every=POLL_EVERY_S)(_poll_body)
_poll_fragment_away = st.fragment(run_every=POLL_AWAY_S)(_poll_body)


# --- live poll, teacher side ------------------------------------------------------------------------------


def _choices(chapter: str) -> list[str]:
    bank = qw.the_bank()
    ids = [q.id for q in bank.select(sets=("bank", "misconceptions"), chapters=[chapter], graded_only=True)]
    return ids + [g.id for g in generators_for([chapter])]


def teacher_poll(info: classes.ClassInfo) -> None:
    lg = lang()
    bank = qw.the_bank()
    left, right = st.columns([1, 3])
    ch = left.selectbox(tr("quiz.chapter"), CHAPTERS, key="cr_poll_ch", format_func=lambda c: t(page(c).title_key, lg))
    qid = right.selectbox(tr("classroom.poll.pick"), _choices(ch), key="cr_poll_q",
                          format_func=lambda i: report.question_label(bank, i, lg))  # fmt: skip
    if st.button(tr("classroom.poll.open"), type="primary", key="cr_poll_open", icon=":material/campaign:"):
        try:
            polls.open_poll(store.get_store(), info.id, qid)
        except Exception as exc:  # noqa: BLE001
            outage(exc)
    _teacher_poll_live(info.id)
    try:
        done = polls.history(store.get_store(), info.id)
    except Exception:  # noqa: BLE001
        done = []
    if done:
        st.subheader(tr("classroom.poll.past"))
        st.dataframe(
            [{tr("progress.col_question"): report.question_label(bank, p["question_id"], lg),
              tr("progress.col_answers"): p["n_answers"], tr("classroom.poll.right"): p["n_correct"]} for p in done],
            hide_index=True,
        )  # fmt: skip


def distribution_bars(q: Question, counts: Counter, lg: str) -> tuple[list[str], list[int]]:
    """Answer labels and how many students gave each (a multiple-choice pick counts for each option picked)."""
    tally: Counter = Counter()
    for raw, n in counts.items():
        try:
            given = json.loads(raw)
        except ValueError:
            continue
        if q.type == "multiple" and isinstance(given, list):
            for i in given:
                tally[scoring.format_answer(q, [i], lg)] += n
        else:
            tally[scoring.format_answer(q, given, lg)] += n
    if q.type in ("single", "code", "multiple"):
        labels = [scoring.format_answer(q, i if q.type != "multiple" else [i], lg) for i in range(len(q.options))]
    elif q.type == "true_false":
        labels = [scoring.format_answer(q, v, lg) for v in (True, False)]
    else:
        labels = [label for label, _ in tally.most_common(10)]
    return labels, [tally.get(label, 0) for label in labels]


@st.fragment(run_every=POLL_EVERY_S)
def _teacher_poll_live(class_id: int) -> None:
    from rocm_bridge.ui.charts import house_figure, show_chart

    try:
        db = store.get_store()
        poll = polls.current_poll(db, class_id, fresh=True)
        if poll is None:
            st.caption(tr("classroom.poll.none_teacher"))
            return
        counts, n, right = polls.distribution(db, poll.id)
    except Exception as exc:  # noqa: BLE001
        outage(exc)
        return
    q = poll.question()
    if q is None:
        return
    lg = lang()
    with st.container(border=True):
        qw.show_prompt(q)
        labels, values = distribution_bars(q, counts, lg)
        import plotly.graph_objects as go

        fig = house_figure(
            go.Bar(x=[lab[:40] for lab in labels], y=values, text=values),
            title=tr("classroom.poll.chart_title", n=n),
            x_title=tr("classroom.poll.axis_answer"),
            y_title=tr("classroom.poll.axis_students"),
        )
        # whole students: integer ticks from 0, never 0.5 of a student
        fig.update_yaxes(rangemode="tozero", tickformat="d", dtick=max(1, -(-max(values, default=1) // 8)))
        show_chart(fig, tr("classroom.poll.chart_source", every=POLL_EVERY_S), key=f"cr_poll_chart_{poll.id}")
        cols = st.columns(2)
        if poll.status == "open":
            if cols[0].button(tr("classroom.poll.reveal"), key=f"cr_reveal_{poll.id}", icon=":material/visibility:"):
                polls.reveal(db, poll)
                st.rerun()
        else:
            st.markdown(tr("classroom.poll.right_n", right=right, n=n))
            st.markdown(
                f"**{tr('classroom.teacher.answer')}:** {md_content(scoring.correct_answer_text(q, lg))}\n\n"
                f"**{tr('quiz.explanation')}:** {md_content(q.t('explanation', lg))}"
            )
        if cols[1].button(tr("classroom.poll.close"), key=f"cr_close_{poll.id}", icon=":material/stop_circle:"):
            polls.close(db, poll)
            st.rerun()
