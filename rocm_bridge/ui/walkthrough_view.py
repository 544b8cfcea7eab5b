"""Chapter 9's transpose walkthrough (`::: widget transpose_walkthrough`): one kernel in six steps, each with its
HIP source, the diff from the step before, its CUDA twin, the AMD compile result (recorded, or compiled here where
the compile lab builds the target: rocm_bridge.kernels.live), the time measured on a named GPU, and its lesson.
Everything it shows comes from rocm_bridge.kernels (one table of steps) and data/kernel_walkthrough/."""

from __future__ import annotations

import streamlit as st

from rocm_bridge import kernels
from rocm_bridge.course.widget_tables import markdown
from rocm_bridge.course.widgets import PrintTable
from rocm_bridge.errors import RocmBridgeError
from rocm_bridge.kernels import figure, lessons, live, recorded
from rocm_bridge.text import md_escape
from rocm_bridge.ui import lang, show_error, source_note, tr
from rocm_bridge.ui.charts import show_chart
from rocm_bridge.ui.theme import chart_theme


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    st.markdown(markdown(PrintTable("", header, tuple(rows))))


def _compile_result(s: kernels.Step, target: str, key: str) -> tuple:
    """The step's compile result and where it comes from: a live result of this session if the learner asked
    for one (and it worked), else the recorded one."""
    rec = recorded.compile_record(target)
    label = tr("walkthrough.src.recorded", target=target, date=rec.recorded)
    live_key = f"{key}_live_{target}_{s.id}"
    if live.supports(target):
        if st.button(tr("walkthrough.live.button", target=target), key=f"{key}_btn_{target}_{s.id}"):
            try:
                st.session_state[live_key] = live.compile_step(s, target)
            except RocmBridgeError as err:
                show_error(err)
            except RuntimeError:
                st.warning(tr("walkthrough.live.failed", target=target))
    else:
        st.caption(tr("walkthrough.live.unavailable", target=target, compiler=rec.compiler, date=rec.recorded))
    done = st.session_state.get(live_key)
    if done is not None:
        st.success(tr("walkthrough.live.done", compiler=md_escape(done.compiler)))
        return done.result, tr("walkthrough.src.live", target=target, seconds=f"{done.seconds:.1f}")
    return rec.steps[s.id], label


def render(key_prefix: str = "wt") -> None:
    code = lang()  # captured once: format_func may run outside the script run (AppTest)
    key = f"{key_prefix}_wt"
    run = recorded.run_record()
    comp = recorded.compile_record()
    st.caption(tr("walkthrough.caption", target=comp.target, compiler=comp.compiler, compiled=comp.recorded,
                  gpu=run.gpu, driver=run.driver, measured=run.date))
    show_chart(figure.figure(code, chart_theme()), figure.sources(code, run), key=f"{key}_chart")

    ids = kernels.ids()
    picked = st.segmented_control(tr("walkthrough.pick"), ids, default=ids[0], key=f"{key}_step",
                                  format_func=lambda i: lessons.step_label(kernels.step(i), code))
    s = kernels.step(picked or ids[0])
    st.info(lessons.lesson(s, code, run, comp))

    target = st.radio(tr("walkthrough.target"), recorded.TARGETS, horizontal=True, key=f"{key}_target")
    result, source = _compile_result(s, target, key)
    header = (tr("walkthrough.col.what"), tr("walkthrough.col.value"), tr("walkthrough.col.source"))
    _table(header, lessons.step_rows(s, code, result, source, run))

    before = kernels.previous(s)
    tabs = st.tabs([tr("walkthrough.tab.diff", n=before.number) if before else tr("walkthrough.tab.diff", n="–"),
                    tr("walkthrough.tab.source"), tr("walkthrough.tab.cuda"), tr("walkthrough.tab.isa", target=target)])
    with tabs[0]:
        if before:
            st.code(kernels.diff(s), language="diff")
        else:
            st.caption(tr("walkthrough.first_step"))
    with tabs[1]:
        st.code(kernels.hip_source(s), language="cpp")
    with tabs[2]:
        st.caption(tr("walkthrough.cuda_note", hip=f"`{kernels.HIP_INCLUDE}`", cuda=f"`{kernels.CUDA_INCLUDE}`"))
        st.code(kernels.cuda_source(s), language="cpp")
    with tabs[3]:
        st.code(result.isa, language="asm")

    st.markdown(f"**{tr('walkthrough.published.title')}**")
    st.caption(tr("walkthrough.published.note"))
    _table(lessons.published_header(code), lessons.published_rows(code))
    source_note(*lessons.published_sources())
