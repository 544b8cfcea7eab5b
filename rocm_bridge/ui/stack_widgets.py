"""The interactive stack explorer (views/stack.py, and embedded in chapter 1 through the chapter renderer).

The diagram is rocm_bridge.stack.figure's (the handout prints the same one). Clicking a block (st.plotly_chart
on_select) or picking it in the selectbox selects a component; the selection, the traced op and the HIP-on-NVIDIA toggle live in the URL.
"""

from __future__ import annotations

import re

import plotly.graph_objects as go
import streamlit as st

from rocm_bridge import stack
from rocm_bridge.errors import InvalidInput
from rocm_bridge.stack import figure as sf
from rocm_bridge.stack import hero
from rocm_bridge.stack.figure import DEFAULT_COMPONENT, NO_TRACE, OVERVIEW, cached_figure, side_color, visible_layers
from rocm_bridge.text import md_escape
from rocm_bridge.ui import lang, show_error, source_note, tr
from rocm_bridge.ui.charts import house_layout, show_chart
from rocm_bridge.ui.state import parse_flag, push_url, share_link, url_state
from rocm_bridge.ui.theme import chart_theme

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+\-.!|~$])")


def md(text: str) -> str:
    """Data text as literal Markdown (names like __CUDACC__ or hipModule* must not turn into formatting)."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def source_md(source: str) -> str:
    if source.startswith(("http://", "https://")):
        url = source.split(" ")[0]
        return f"[{md(url)}]({url}){md(source[len(url) :])}"
    return md(source)


def display_name(comp: stack.Component) -> str:
    """The diagram label in the current language (rocm_bridge.stack.figure.display_name)."""
    return sf.display_name(comp, lang())


def component_label(cid: str) -> str:
    comp = stack.component(cid)
    return f"{display_name(comp)} · {tr(f'stack.side.{comp.side}')} · {tr(f'stack.layer.{comp.layer}')}"


def _take_click(chart_key: str, comp_key: str, last_key: str) -> None:
    """Turn a click on the diagram (the chart's selection state) into the selected component, once per click."""
    event = st.session_state.get(chart_key)
    points = []
    if event is not None:
        try:
            points = event["selection"]["points"]
        except (KeyError, TypeError):
            points = []
    clicked = None
    if points:
        data = points[0].get("customdata")
        clicked = data[0] if isinstance(data, list | tuple) and data else data
    if clicked and clicked != st.session_state.get(last_key):
        try:
            stack.component(str(clicked))
        except InvalidInput:
            clicked = None
        else:
            st.session_state[comp_key] = str(clicked)
    st.session_state[last_key] = clicked


def render_detail(cid: str) -> None:
    """The selected component, its twin, the HIP portable layer, the API counts and the sources."""
    comp = stack.component(cid)
    sides = stack.counterparts(cid)
    twin = stack.twin(cid)
    left, right = st.columns(2)
    with left, st.container(border=True):
        st.markdown(f"#### `{display_name(comp)}`")
        st.caption(f"{tr(f'stack.side.{comp.side}')} · {tr('stack.detail.layer')}: {tr(f'stack.layer.{comp.layer}')}")
        st.markdown(f"**{tr('stack.detail.role')}:** {md(tr(f'stack.role.{comp.layer}'))}")
        if comp.full != comp.name:  # the data cell says more than the heading: show it; else it only repeats it
            st.markdown(f"**{tr('stack.detail.full')}:** {md(comp.full)}")
    with right, st.container(border=True):
        st.markdown(f"**{tr('stack.detail.twin')}**")
        if twin is None:
            st.markdown(tr("stack.detail.no_twin"))
        else:
            st.markdown(f"#### `{display_name(twin)}`")
            st.caption(tr(f"stack.side.{twin.side}"))
            if twin.full != twin.name:
                st.markdown(f"**{tr('stack.detail.full')}:** {md(twin.full)}")
    cuda, hip, rocm = sides["cuda"], sides["hip"], sides["rocm"]
    st.markdown(f"**{tr('stack.detail.portable')}:**")
    if hip and cuda and rocm:
        st.markdown(md(tr("stack.detail.portable_line", cuda=display_name(cuda), rocm=display_name(rocm),
                             hip=display_name(hip))))
        st.caption(md(hip.full))
    else:
        st.caption(tr("stack.detail.no_portable"))
    count = stack.api_count_for_layer(comp.layer)
    if count is not None:
        text = tr(
            "stack.detail.api",
            total=count.cuda_names,
            cuda=count.cuda_library,
            hip=count.with_hip,
            hip_lib=count.hip_library,
            share=f"{count.hip_share:.0%}",
        )
        if count.with_roc is not None:
            text += " " + tr("stack.detail.api_roc", roc=count.with_roc, roc_lib=count.roc_library)
        st.markdown(md(text))
        source_note(stack.API_COUNT_SOURCE)
    if comp.note:
        st.caption(f"{tr('stack.detail.note')}: {md(comp.note)}")
    st.markdown(f"**{tr('common.sources')}:**\n" + "\n".join(f"- {source_md(s)}" for s in comp.sources))


def _keep_view(key: str) -> None:
    if st.session_state.get(key) is None:  # pills can be clicked off: back to the overview
        st.session_state[key] = OVERVIEW
    push_url(key)


def render_trace(trace_op: str) -> None:
    tr_ = stack.trace(trace_op)
    st.markdown(f"**{tr('stack.trace_steps', op=tr_.op, raw=tr_.raw_op)}**")
    cuda_ids, rocm_ids = tr_.component_ids("cuda"), tr_.component_ids("rocm")
    rows = [
        {
            tr("stack.trace_step"): i + 1,
            tr("stack.detail.layer"): tr(f"stack.layer.{stack.component(c).layer}"),
            tr("stack.side.cuda"): display_name(stack.component(c)),
            tr("stack.side.rocm"): display_name(stack.component(r)),
        }
        for i, (c, r) in enumerate(zip(cuda_ids, rocm_ids, strict=True))
    ]
    st.dataframe(rows, hide_index=True, width="stretch")
    none = tr("stack.trace_none_kernels")
    st.caption(
        tr(
            "stack.trace_kernels",
            raw=tr_.raw_op,
            cuda=", ".join(stack.gpu_kernel_dtypes(tr_.raw_op, "cuda")) or none,
            rocm=", ".join(stack.gpu_kernel_dtypes(tr_.raw_op, "rocm")) or none,
        )
    )
    source_note(*stack.trace_sources(trace_op))


def render_explorer(key_prefix: str = "st", compact: bool = False) -> None:
    """The explorer: diagram, component picker, trace and HIP-on-NVIDIA controls, detail panel."""
    comp_key, trace_key, hip_key = f"{key_prefix}_comp", f"{key_prefix}_trace", f"{key_prefix}_hipnv"
    chart_key, last_key, view_key = f"{key_prefix}_chart", f"{key_prefix}_lastclick", f"{key_prefix}_view"
    ids = [c.id for c in stack.components()]
    views = [OVERVIEW, *(gid for gid, _ in hero.groups())]
    url_state(comp_key, DEFAULT_COMPONENT, valid=ids)
    url_state(view_key, OVERVIEW, valid=views)
    url_state(trace_key, NO_TRACE, valid=[NO_TRACE, *stack.TRACES])
    url_state(hip_key, False, cast=parse_flag)
    _take_click(chart_key, comp_key, last_key)

    if not compact:
        st.markdown(tr("stack.intro"))
    c1, c2, c3 = st.columns([3, 2, 2])
    with c1:
        st.selectbox(
            tr("stack.pick"),
            ids,
            format_func=component_label,
            key=comp_key,
            help=tr("stack.pick_help", key=comp_key),
        )
    with c2:
        st.selectbox(
            tr("stack.trace"),
            [NO_TRACE, *stack.TRACES],
            format_func=lambda op: tr("stack.trace_none") if op == NO_TRACE else op,
            key=trace_key,
            help=tr("stack.trace_help"),
        )
    with c3:
        st.toggle(tr("stack.hip_nvidia"), key=hip_key, help=tr("stack.hip_nvidia_help"))
    st.pills(tr("stack.view"), views, key=view_key, on_change=_keep_view, args=(view_key,),
             format_func=lambda v: tr("stack.view_overview") if v == OVERVIEW else tr(f"pictures.hero.group_{v}"),
             help=tr("stack.view_help"))
    selected, trace_op, hip_nv = st.session_state[comp_key], st.session_state[trace_key], st.session_state[hip_key]
    view = st.session_state[view_key] or OVERVIEW
    push_url(comp_key)
    if trace_op != NO_TRACE:
        st.query_params[trace_key] = trace_op
    else:
        st.query_params.pop(trace_key, None)
    if hip_nv:
        st.query_params[hip_key] = "1"
    else:
        st.query_params.pop(hip_key, None)

    try:
        extra = (stack.component(selected).layer,)
        layers = tuple(layer.slug for layer in visible_layers(view, extra))
        fig = cached_figure(layers, selected, trace_op, hip_nv, lang(), chart_theme())
    except InvalidInput as err:  # a stale session value; the URL value was validated by url_state
        show_error(err)
        return
    sources = [stack.STACK_SOURCE]
    if hip_nv:
        sources += list(stack.HIP_PATH_SOURCES)
    show_chart(fig, sources, key=chart_key, on_select="rerun", selection_mode="points")
    st.caption(tr("stack.hip_path_on") if hip_nv else tr("stack.hip_path_off"))
    if trace_op != NO_TRACE:
        render_trace(trace_op)
    render_detail(selected)
    if not compact:
        share_link()


def render_terminology() -> None:
    st.subheader(tr("stack.terms"))
    rows = [
        {
            tr("stack.terms_concept"): tr(term["concept_key"]),
            tr("stack.side.cuda"): term["cuda"],
            tr("stack.side.rocm"): term["rocm"],
            tr("stack.terms_meaning"): tr(term["role_key"]),
            tr("common.source"): term["source"],
        }
        for term in stack.terminology()
    ]
    st.table([{k: md_escape(v) for k, v in r.items()} for r in rows])  # wraps long cells; st.table renders Markdown
    source_note(stack.STACK_SOURCE)


def api_count_figure() -> go.Figure:
    counts = list(reversed(stack.api_counts()))  # largest groups read top-down in the horizontal chart
    labels = [f"{c.cuda_library} ({c.api_group})" for c in counts]
    fig = go.Figure()
    fig.add_trace(
        go.Bar(
            name=tr("stack.api_cuda"),
            orientation="h",
            y=labels,
            x=[c.cuda_names for c in counts],
            marker_color=side_color("cuda", chart_theme()),
            hovertemplate="%{y}: %{x}<extra>" + tr("stack.api_cuda") + "</extra>",
        )
    )
    fig.add_trace(
        go.Bar(
            name=tr("stack.api_hip"),
            orientation="h",
            y=labels,
            x=[c.with_hip for c in counts],
            customdata=[c.hip_library for c in counts],
            marker_color=side_color("hip", chart_theme()),
            hovertemplate="%{y} -> %{customdata}: %{x}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Bar(
            name=tr("stack.api_roc"),
            orientation="h",
            y=labels,
            x=[c.with_roc for c in counts],
            customdata=[c.roc_library or "" for c in counts],
            marker_color=side_color("rocm", chart_theme()),
            hovertemplate="%{y} -> %{customdata}: %{x}<extra></extra>",
        )
    )
    house_layout(fig, title=tr("stack.api_title"), x_title=tr("stack.api_axis_x"), y_title=tr("stack.api_axis_y"))
    fig.update_layout(barmode="group", height=620, legend={"orientation": "h", "y": -0.12})
    return fig


def render_api_counts() -> None:
    show_chart(api_count_figure(), stack.API_COUNT_SOURCE, key="st_api_chart")
    st.caption(tr("stack.api_caption"))


__all__ = ["api_count_figure", "render_api_counts", "render_explorer", "render_terminology"]


# --- the hero picture's detail: a layer group opened below the picture ----------------------------------------

HERO_GROUP_KEY = "hero_group"


def hero_detail(step: int, op: str) -> None:
    """Below the hero (rocm_bridge.stack.hero): pick a layer group to open its layers, CUDA | HIP | ROCm. With none
    picked, the group the op has reached is open. The pick is kept in the link (?hero_group=...)."""
    ids = [gid for gid, _ in hero.groups()]
    url_state(HERO_GROUP_KEY, None, str, ids)
    st.pills(tr("pictures.hero.open_group"), ids, format_func=lambda g: tr(f"pictures.hero.group_{g}"),
             key=HERO_GROUP_KEY, on_change=push_url, args=(HERO_GROUP_KEY,))
    gid = st.session_state.get(HERO_GROUP_KEY) or hero.step_group(step, op)
    if not gid:
        return
    layers = dict(hero.groups())[gid]
    rows = [
        {
            tr("stack.detail.layer"): tr(f"stack.layer.{la.slug}"),
            **{tr(f"stack.side.{side}"): display_name(stack.component(cid)) if (cid := la.component_id(side)) else "—"
               for side in stack.SIDES},
        }
        for la in layers
    ]
    st.markdown(f"**{tr('pictures.hero.group_layers', group=tr(f'pictures.hero.group_{gid}'), n=len(layers))}**")
    st.table([{k: md_escape(v) for k, v in r.items()} for r in rows])
