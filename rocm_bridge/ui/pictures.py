"""Shows an explainer picture (rocm_bridge.visual.pictures) with the same controls everywhere: previous, play /
pause, next and a step slider. The step lives in the link (`?<picture>_step=N`, counted from 1), so a teacher can share the exact
frame; playing advances one step every PLAY_EVERY_S seconds inside a fragment (only the picture reruns)."""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from rocm_bridge.ui import lang, source_note, tr
from rocm_bridge.ui.charts import show_chart
from rocm_bridge.ui.state import push_url, url_state
from rocm_bridge.ui.theme import chart_theme
from rocm_bridge.visual import pictures

PLAY_EVERY_S = 1.6


def step_key(picture: str) -> str:
    return f"{picture}_step"


def box_key(picture: str) -> str:
    """The key of the container holding the frame: the page gets the CSS class `st-key-<key>` (the back-row
    browser test finds the picture by it)."""
    return f"rbpic-{picture}"


def variant_key(spec: pictures.Picture) -> str:
    return f"{spec.id}_{spec.variant_param}"


def _variant(spec: pictures.Picture, where: object = st) -> str:
    """The variant control (a segmented control kept in the link), or "" for a picture without variants."""
    if not spec.variants:
        return ""
    key = variant_key(spec)
    url_state(key, spec.variants[0], str, spec.variants)
    where.segmented_control(tr(spec.variant_label_key), spec.variants, key=key, on_change=_pick_variant,
                            args=(key, spec.variants[0]), label_visibility="collapsed")
    return st.session_state[key]


def _pick_variant(key: str, default: str) -> None:
    if st.session_state.get(key) is None:  # a segmented control can be clicked off: one variant stays chosen
        st.session_state[key] = default
    push_url(key)


def _move(key: str, by: int, steps: int) -> None:
    st.session_state[key] = (st.session_state[key] - 1 + by) % steps + 1
    push_url(key)


def _toggle_play(key: str, steps: int) -> None:
    playing = not st.session_state.get(key + "_play", False)
    st.session_state[key + "_play"] = playing
    if playing and st.session_state[key] == steps:  # play from the start after the last frame
        st.session_state[key] = 1


SLIDER_PX = 260  # the step slider's width; the row wraps it under the buttons where the column is narrower


def _controls(spec: pictures.Picture, key: str) -> str:
    """The variant control and the step controls on one row (a picture's first screen is the picture); returns
    the variant. The row is a wrapping flex row of content-wide controls, so a label is never cut to "B…" (in
    presenter mode's larger type or in Chinese): a control that does not fit moves to the next line."""
    if spec.steps < 2:
        return _variant(spec)
    playing = st.session_state.get(key + "_play", False)
    row = st.container(horizontal=True, vertical_alignment="center", gap="small", key=key + "_controls")
    variant = _variant(spec, row) if spec.variants else ""
    row.button(tr("pictures.prev"), key=key + "_prev", on_click=_move, args=(key, -1, spec.steps),
               icon=":material/skip_previous:", width="content")
    row.button(tr("pictures.pause" if playing else "pictures.play"), key=key + "_pp", on_click=_toggle_play,
               args=(key, spec.steps), icon=":material/pause:" if playing else ":material/play_arrow:",
               width="content")
    row.button(tr("pictures.next"), key=key + "_next", on_click=_move, args=(key, 1, spec.steps),
               icon=":material/skip_next:", width="content")
    row.slider(tr("pictures.step"), 1, spec.steps, key=key, on_change=push_url, args=(key,),
               format=tr("pictures.step_format", n="%d", total=spec.steps), label_visibility="collapsed",
               width=SLIDER_PX)
    return variant


def _frame(spec: pictures.Picture, key: str, variant: str = "", context: tuple = ()) -> None:
    frame = pictures.frame(spec.id, st.session_state[key] - 1, lang(), chart_theme(), variant, context)
    if frame.svg is not None:
        with st.container(key=box_key(spec.id)):
            # st.html sanitizes with DOMPurify's HTML profile, which drops SVG; the document is built escaped
            st.markdown(frame.svg, unsafe_allow_html=True)
        st.caption(frame.caption)
        source_note(*spec.sources)
    else:
        with st.container(key=box_key(spec.id)):
            show_chart(frame.figure, list(spec.sources), key=f"{key}_chart")
        st.caption(frame.caption)


def page_context(spec: pictures.Picture, extra: Mapping[str, str] | None = None) -> tuple[tuple[str, str], ...]:
    """The page context the picture's builder gets: its row's provider's mapping, updated with `extra`."""
    got = dict(pictures._resolve(spec.context)() or {}) if spec.context else {}
    return pictures.context_key(got | dict(extra or {}))


def render(picture: str, key_prefix: str = "", context: Mapping[str, str] | None = None, **_: object) -> None:
    """The picture with its controls. `key_prefix` is the page (kept for the widget interface; the step key is the
    picture's own, so one picture has one step per session wherever it is shown). `context` adds page context
    to what the picture's provider gives (rocm_bridge.visual.pictures.Picture.context)."""
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
        variant = _controls(spec, key)
        _frame(spec, key, variant, page_context(spec, context))
        if spec.detail:
            pictures._resolve(spec.detail)(st.session_state[key] - 1, variant)

    body()
