"""Every chart goes through show_chart: house layout, toolbar config and a source line."""

from __future__ import annotations

from typing import Any

import streamlit as st

from rocm_bridge import style
from rocm_bridge.ui import source_note
from rocm_bridge.ui.theme import palette

_HOUSE_LAYOUT = {
    "font": {"family": style.FONT_FAMILY},
    "height": style.CHART_HEIGHT,
    "margin": {"l": 60, "r": 20, "t": 60, "b": 50},
    "legend": {"orientation": "h", "y": -0.2},
}


def _house_dict(title: str, x_title: str | None, y_title: str | None,
                x_axes: list[str], y_axes: list[str], extra: dict[str, Any]) -> dict[str, Any]:
    changes: dict[str, Any] = {**_HOUSE_LAYOUT, "title": {"text": title}}
    for axes, text in ((x_axes, x_title), (y_axes, y_title)):
        if text is not None:
            changes.update({axis: {"title": {"text": text}} for axis in axes})
    for key, value in extra.items():  # nested dicts (xaxis=...) merge with the titles set above
        changes[key] = {**changes[key], **value} if isinstance(value, dict) and key in changes else value
    return changes


def house_figure(data: Any = None, *, title: str, x_title: str | None = None, y_title: str | None = None,
                 **layout: Any) -> Any:
    """A new figure (traces in `data`) in the house layout: title, axis titles with units, fonts, plus any layout
    keywords.

    Prefer this to house_layout on a fresh figure: Plotly validates a layout given to the constructor once,
    while updating an existing figure runs its relayout machinery, about 6x the cost (1 ms against 5 ms), which
    a chapter page with two charts feels on every rerun (bench/startup.py)."""
    import plotly.graph_objects as go  # plotly only where a chart is drawn

    return go.Figure(data=data, layout=_house_dict(title, x_title, y_title, ["xaxis"], ["yaxis"], layout))


def house_layout(fig: Any, *, title: str, x_title: str | None = None, y_title: str | None = None) -> Any:
    """Apply the house layout to an existing figure (every axis of a subplot grid gets the axis titles)."""
    x_axes = [k for k in fig.layout if k.startswith("xaxis")] or ["xaxis"]
    y_axes = [k for k in fig.layout if k.startswith("yaxis")] or ["yaxis"]
    fig.layout.update(_house_dict(title, x_title, y_title, x_axes, y_axes, {}))
    return fig


def reference_line(fig: Any, *, y: float | None = None, x: float | None = None, text: str | None = None,
                   dash: str = "dash", color: str | None = None) -> Any:
    """A horizontal (y=) or vertical (x=) line across the plot, with an optional label at its end; the colour
    defaults to the reference-line grey of the visitor's theme (pass it in a figure cached across themes).

    Appended to layout.shapes / annotations directly: fig.add_hline costs ~9 ms per call (it resolves subplots)."""
    if (x is None) == (y is None):
        raise ValueError("give exactly one of x or y")
    if color is None:
        color = palette().line
    line = {"dash": dash, "color": color, "width": 1.5}
    if y is not None:
        shape = {"type": "line", "xref": "paper", "x0": 0, "x1": 1, "yref": "y", "y0": y, "y1": y, "line": line}
        label = {"xref": "paper", "x": 1, "yref": "y", "y": y, "xanchor": "right", "yanchor": "bottom"}
    else:
        shape = {"type": "line", "yref": "paper", "y0": 0, "y1": 1, "xref": "x", "x0": x, "x1": x, "line": line}
        label = {"yref": "paper", "y": 1, "xref": "x", "x": x, "xanchor": "left", "yanchor": "top"}
    fig.layout.shapes += (shape,)
    if text:
        fig.layout.annotations += ({**label, "text": text, "showarrow": False},)
    return fig


def show_chart(fig: Any, source: str | list[str], *, key: str | None = None, **kwargs: Any) -> Any:
    """Render a Plotly figure (already titled, with units) and its source line."""
    result = st.plotly_chart(fig, config=style.PLOTLY_CONFIG, key=key, **kwargs)
    source_note(*([source] if isinstance(source, str) else source))
    return result
