"""The stack diagram (Plotly, imported inside the builder), headless: the stack explorer (rocm_bridge.ui.stack_widgets)
draws it with the learner's selection, the handout (rocm_bridge.course.handout) at the explorer's defaults.

Horizontal bars: one column per stack (CUDA, HIP portable, ROCm), one row per layer, bottom = hardware. Drawn for
the back row: a dozen rows at most (the overview, or one layer group of rocm_bridge.stack.hero), every label at
FONT_PX or more, long names on two lines, short enough for presenter mode's 80vh chart height at 1280x720.
"""

from __future__ import annotations

import functools
from typing import Any

from rocm_bridge import i18n, stack
from rocm_bridge.course.widgets import PrintChart
from rocm_bridge.visual import style
from rocm_bridge.visual.figures import house_layout

DEFAULT_COMPONENT = "cuda.math-blas"
NO_TRACE = "none"
COLUMN_X = {"cuda": 0.0, "hip": 1.0, "rocm": 2.0}
BAR_WIDTH = 0.94
HIGHLIGHT = "#FFB000"  # path outline: the colour the app uses for "dispatch" parts, visible on red and green
FONT_PX = 18  # every label of the diagram (the back-row floor, rocm_bridge.visual.svg.MIN_FONT_PX)
ROW_PX = 44  # one layer row
WRAP_AT = 22  # characters per line of a block label; longer names break at a space onto a second line
OVERVIEW = "overview"  # the explorer's default view: stack.COMPACT_LAYERS (the op's path and the everyday tools)


def _tr(lang: str, key: str, /, **params: object) -> str:
    return i18n.t(key, lang, **params)


def side_color(side: str, theme: str = "light") -> str:
    """The vendor colour of a stack column in a theme (style.palette)."""
    return style.palette(theme).vendor[stack.VENDOR_OF_SIDE[side]]


def display_name(comp: stack.Component, lang: str) -> str:
    """The diagram label: product and API names as they are, descriptions translated."""
    key = f"stack.short.{comp.layer}.{comp.side}"
    return i18n.t(key, lang) if i18n.has(key) else comp.name


def visible_layers(view: str = OVERVIEW, extra: tuple[str, ...] = ()) -> list[stack.Layer]:
    """The layers of a view: the overview (stack.COMPACT_LAYERS plus `extra`), a layer group of the hero picture
    (rocm_bridge.stack.hero.groups: "math", "tools" ...), or "all" (38 rows: tests and the CLI only)."""
    if view == "all":
        return list(stack.layers())
    if view != OVERVIEW:
        from rocm_bridge.stack import hero

        wanted = {la.slug for la in dict(hero.groups())[view]}
    else:
        wanted = set(stack.COMPACT_LAYERS) | set(extra)
    return [layer for layer in stack.layers() if layer.slug in wanted]


def wrap(text: str, width: int = WRAP_AT) -> str:
    """A block label on at most two lines (Plotly's <br>), broken at the last space before `width` characters;
    CJK characters count two."""
    import unicodedata

    def cols(t: str) -> int:
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in t)

    # after a space (it stays, unseen, at the line's end) or before a bracket: removing the <br> gives the name back
    breaks = [i + 1 if c == " " else i for i, c in enumerate(text) if i and c in " (（"]
    if cols(text) <= width or not breaks:
        return text
    cut = max((i for i in breaks if cols(text[:i].rstrip()) <= width), default=breaks[0])
    return f"{text[:cut]}<br>{text[cut:]}"


@functools.lru_cache(maxsize=128)
def cached_figure(layer_slugs: tuple[str, ...], selected: str, trace_op: str, hip_nv: bool, lang: str,
                  theme: str = "light") -> Any:
    """build_figure once per view, language and theme: building the Plotly object is most of a rerun's cost, and
    st.plotly_chart only reads the figure. lang and theme are part of the key (translated labels, colours)."""
    return build_figure([stack.layer(slug) for slug in layer_slugs], selected, trace_op, hip_nv, lang=lang,
                        theme=theme)


def path_edges(trace_op: str, hip_on_nvidia: bool) -> list[tuple[str, str]]:
    """The arrows to draw: the traced op on both sides, and the HIP-on-NVIDIA route when the toggle is on."""
    edges: list[tuple[str, str]] = []
    if trace_op != NO_TRACE:
        tr_ = stack.trace(trace_op)
        for side in ("cuda", "rocm"):
            ids = tr_.component_ids(side)
            edges += list(zip(ids, ids[1:], strict=False))
    if hip_on_nvidia:
        edges += list(stack.hip_path(on_nvidia=True))
    return edges


def build_figure(
    layers: list[stack.Layer], selected: str, trace_op: str = NO_TRACE, hip_on_nvidia: bool = False, *, lang: str,
    theme: str = "light",
) -> Any:
    """The side-by-side stack diagram; the selected block is outlined, a traced path highlighted."""
    import plotly.graph_objects as go

    pal = style.palette(theme)
    index = {layer.slug: i for i, layer in enumerate(layers)}
    edges = path_edges(trace_op, hip_on_nvidia)
    on_path = {cid for edge in edges for cid in edge}
    fig = go.Figure()
    # One trace per (side, look): per-point marker arrays (opacity, line) stop Plotly click-selection from
    # reaching Streamlit, so each look is its own trace with scalar marker settings.
    looks = {
        "plain": {"opacity": 0.35 if on_path else 1.0, "line": {"width": 0.5, "color": pal.edge}},
        "path": {"opacity": 1.0, "line": {"width": 3, "color": HIGHLIGHT}},
        "selected": {"opacity": 1.0, "line": {"width": 4, "color": pal.ink}},
    }
    for side in stack.SIDES:
        comps = [stack.component(c) for layer in layers if (c := layer.component_id(side))]
        look_of = {c.id: "selected" if c.id == selected else ("path" if c.id in on_path else "plain") for c in comps}
        for look, marker in looks.items():
            group = [c for c in comps if look_of[c.id] == look]
            if not group:
                continue
            fig.add_trace(
                go.Bar(
                    name=f"{_tr(lang, f'stack.side.{side}')} ({look})",
                    legendgroup=side,
                    orientation="h",
                    y=[index[c.layer] for c in group],
                    x=[BAR_WIDTH] * len(group),
                    base=[COLUMN_X[side]] * len(group),
                    width=0.86,
                    text=[wrap(display_name(c, lang)) for c in group],
                    textposition="inside",
                    insidetextanchor="middle",
                    constraintext="none",  # Plotly would shrink a long label to fit: wrap it instead
                    # black or white, whichever reads on the block as drawn (a dimmed block shows the page)
                    textfont={"color": style.text_on(style.blend(side_color(side, theme), pal.background,
                                                                 marker["opacity"])), "size": FONT_PX},
                    customdata=[
                        [
                            c.id,
                            _tr(lang, f"stack.layer.{c.layer}"),
                            _tr(lang, f"stack.role.{c.layer}"),
                            _tr(lang, f"stack.tier.{stack.layer(c.layer).tier}"),
                        ]
                        for c in group
                    ],
                    hovertemplate="<b>%{text}</b><br>%{customdata[3]} · %{customdata[1]}<br>%{customdata[2]}<extra></extra>",
                    marker={"color": side_color(side, theme), **marker},
                    # our outline shows the selection; keep Plotly's own selection dimming out of it
                    selected={"marker": {"opacity": marker["opacity"]}},
                    unselected={"marker": {"opacity": marker["opacity"]}},
                )
            )
    for src, dst in edges:
        a, b = stack.component(src), stack.component(dst)
        if a.layer not in index or b.layer not in index:
            continue
        same_column = a.side == b.side
        if same_column:  # down the right-hand side of the column, clear of the labels
            x_from = x_to = COLUMN_X[a.side] + 0.85
        elif COLUMN_X[b.side] < COLUMN_X[a.side]:  # leftwards: from the left edge to the right edge
            x_from, x_to = COLUMN_X[a.side], COLUMN_X[b.side] + BAR_WIDTH
        else:
            x_from, x_to = COLUMN_X[a.side] + BAR_WIDTH, COLUMN_X[b.side]
        fig.add_annotation(
            x=x_to,
            y=index[b.layer],
            ax=x_from,
            ay=index[a.layer],
            xref="x",
            yref="y",
            axref="x",
            ayref="y",
            showarrow=True,
            arrowhead=3,
            arrowsize=1.2,
            arrowwidth=2.5,
            arrowcolor=HIGHLIGHT if same_column else side_color("hip", theme),
            text="",
        )
    title = _tr(lang, "stack.chart_title_trace", op=trace_op) if trace_op != NO_TRACE else _tr(lang, "stack.chart_title")
    house_layout(fig, title=title, x_title=_tr(lang, "stack.axis_side"), y_title=_tr(lang, "stack.axis_layer"))
    fig.update_layout(
        height=ROW_PX * len(layers) + 100,
        barmode="overlay",
        showlegend=False,
        clickmode="event+select",
        dragmode=False,
        margin={"l": 10, "r": 10, "t": 90, "b": 10},
        font={"size": FONT_PX},
        title={"font": {"size": FONT_PX + 4}},
        hoverlabel={"font": {"size": FONT_PX}},
    )
    fig.update_xaxes(
        range=[-0.03, 2.97],
        tickvals=[COLUMN_X[s] + BAR_WIDTH / 2 for s in stack.SIDES],
        ticktext=[_tr(lang, f"stack.side.{s}") for s in stack.SIDES],
        side="top",
        showgrid=False,
        zeroline=False,
        fixedrange=True,
        tickfont={"size": FONT_PX},
    )
    fig.update_yaxes(
        tickvals=list(range(len(layers))),
        ticktext=[_tr(lang, f"stack.layer.{layer.slug}") for layer in layers],
        range=[-0.6, len(layers) - 0.4],
        showgrid=False,
        fixedrange=True,
        tickfont={"size": FONT_PX},
        automargin=True,
    )
    return fig


def print_chart(lang: str) -> PrintChart:
    """The explorer as a chapter first shows it: the compact layers, cuBLAS selected, no trace, no HIP-on-NVIDIA."""
    extra = (stack.component(DEFAULT_COMPONENT).layer,)
    layers = tuple(layer.slug for layer in visible_layers(OVERVIEW, extra))
    fig = cached_figure(layers, DEFAULT_COMPONENT, NO_TRACE, False, lang)
    return PrintChart(fig, (stack.STACK_SOURCE,))
