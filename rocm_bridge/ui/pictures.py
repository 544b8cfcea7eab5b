"""Shows an explainer picture (rocm_bridge.visual.pictures) with the same controls everywhere: previous, play /
pause, next and a step slider. The step lives in the link (`?<picture>_step=N`, counted from 1), so a teacher can share the exact
frame; playing advances one step every PLAY_EVERY_S seconds inside a fragment (only the picture reruns)."""

from __future__ import annotations

import streamlit as st

from rocm_bridge.ui import lang, source_note, tr
from rocm_bridge.ui.charts import show_chart
from rocm_bridge.ui.state import push_url, url_state
from rocm_bridge.ui.theme import chart_theme
from rocm_bridge.visual import pictures

PLAY_EVERY_S = 1.6


def step_key(picture: str) -> str:
    return f"{picture}_step"


def _move(key: str, by: int, steps: int) -> None:
    st.session_state[key] = (st.session_state[key] - 1 + by) % steps + 1
    push_url(key)


def _toggle_play(key: str, steps: int) -> None:
    playing = not st.session_state.get(key + "_play", False)
    st.session_state[key + "_play"] = playing
    if playing and st.session_state[key] == steps:  # play from the start after the last frame
        st.session_state[key] = 1


def _controls(spec: pictures.Picture, key: str) -> None:
    if spec.steps < 2:
        return
    playing = st.session_state.get(key + "_play", False)
    prev_c, play_c, next_c, slide_c = st.columns([1, 1, 1, 6], vertical_alignment="center")
    prev_c.button(tr("pictures.prev"), key=key + "_prev", on_click=_move, args=(key, -1, spec.steps),
                  icon=":material/skip_previous:", use_container_width=True)
    play_c.button(tr("pictures.pause" if playing else "pictures.play"), key=key + "_pp", on_click=_toggle_play,
                  args=(key, spec.steps), icon=":material/pause:" if playing else ":material/play_arrow:",
                  use_container_width=True)
    next_c.button(tr("pictures.next"), key=key + "_next", on_click=_move, args=(key, 1, spec.steps),
                  icon=":material/skip_next:", use_container_width=True)
    slide_c.slider(tr("pictures.step"), 1, spec.steps, key=key, on_change=push_url, args=(key,),
                   format=tr("pictures.step_format", n="%d", total=spec.steps), label_visibility="collapsed")


def _frame(spec: pictures.Picture, key: str) -> None:
    frame = pictures.frame(spec.id, st.session_state[key] - 1, lang(), chart_theme())
    if frame.svg is not None:
        st.markdown(frame.svg, unsafe_allow_html=True)  # st.html sanitises SVG away (DOMPurify html profile)
        st.caption(frame.caption)
        source_note(*spec.sources)
    else:
        show_chart(frame.figure, list(spec.sources), key=f"{key}_chart")
        st.caption(frame.caption)


def render(picture: str, key_prefix: str = "", **_: object) -> None:
    """The picture with its controls. `key_prefix` is the page (kept for the widget interface; the step key is the
    picture's own, so one picture has one step per session wherever it is shown)."""
    spec = pictures.PICTURES[picture]
    key = step_key(picture)
    url_state(key, 1, int, range(1, spec.steps + 1))
    playing = spec.steps > 1 and st.session_state.get(key + "_play", False)
    st.markdown(f"#### {tr(spec.title_key)}")

    @st.fragment(run_every=PLAY_EVERY_S if playing else None)
    def body() -> None:
        now = spec.steps > 1 and st.session_state.get(key + "_play", False)
        if now != playing:  # play or pause was pressed: start or stop the timer with a full rerun
            st.rerun(scope="app")
        if now:
            if st.session_state[key] >= spec.steps:
                st.session_state[key + "_play"] = False  # the last frame stays
                st.rerun(scope="app")
            st.session_state[key] += 1
            push_url(key)
        _controls(spec, key)
        _frame(spec, key)

    body()
