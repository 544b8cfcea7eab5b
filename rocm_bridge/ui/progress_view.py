"""My progress (views/progress.py): chapters read, the per-chapter mastery chart and table, my exams, and my
data (download it as JSON, or delete it). `mastery_chart` also draws the class's chart in classroom_view."""

from __future__ import annotations

import time

import streamlit as st

from rocm_bridge.pages import page
from rocm_bridge.quiz import store
from rocm_bridge.ui import learner as learner_mod
from rocm_bridge.ui import page_link, tr
from rocm_bridge.ui.learner import outage
from rocm_bridge.ui.quiz_question import ANSWERS, CHECKED, HISTORY, SAVED, history, learner, the_bank, the_store


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
    db = the_store() if me else None
    if db is None:
        return here
    try:
        return db.chapters_read(me.id) | {
            w["chapter"] for w in st.session_state.get(learner_mod.OUTBOX, []) if w["op"] == "read"
        }
    except Exception:  # noqa: BLE001 - the outbox notice already says the database is away
        return here


def _my_exams(me: store.Learner) -> None:
    db = the_store()
    try:
        exams = [e for e in db.exams_of(me.id) if e["status"] != "open"] if db else []
    except Exception as exc:  # noqa: BLE001 - a database outage must not break the page
        outage(exc)
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
    db = the_store()
    if db is None:
        return
    try:
        doc = json.dumps(db.export_learner(me.id), ensure_ascii=False, indent=1)
    except Exception as exc:  # noqa: BLE001
        outage(exc)
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
                outage(exc)
                return
            learner_mod.leave()
            for k in (HISTORY, CHECKED, SAVED, ANSWERS, learner_mod.OUTBOX):
                st.session_state.pop(k, None)
            st.session_state["qz_deleted"] = True
            st.rerun()
