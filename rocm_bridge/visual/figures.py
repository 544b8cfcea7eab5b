"""The house chart layout, headless: widgets (through rocm_bridge.ui.charts) and handouts build figures with it.

Plotly is imported inside the functions that draw, so importing this module stays light.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from rocm_bridge.visual import style

_HOUSE_LAYOUT = {
    "font": {"family": style.FONT_FAMILY},
    "height": style.CHART_HEIGHT,
    "margin": {"l": 60, "r": 20, "t": 60, "b": 50},
    "legend": {"orientation": "h", "y": -0.2},
}

# Paper: 680 px at 96 px per inch is 180 mm, inside the printable width of A4 (210 mm) and Letter (216 mm) with
# Chromium's default 10 mm margins. Black on white whatever the app's theme, no hover, no toolbar.
PRINT_WIDTH = 680
PRINT_INK, PRINT_PAPER, PRINT_GRID = style.palette("light").ink, style.BACKGROUND["light"], "#D0D0D0"
PRINT_CONFIG: dict = {"staticPlot": True, "displayModeBar": False}
PRINT_TITLE_COLUMNS = 66  # Latin characters of the 17 px title per line in 680 px; a CJK character counts 2


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
    """A horizontal (y=) or vertical (x=) line across the plot, with an optional label at its end.

    Appended to layout.shapes / annotations directly: fig.add_hline costs ~9 ms per call (it resolves subplots)."""
    if (x is None) == (y is None):
        raise ValueError("give exactly one of x or y")
    line = {"dash": dash, "color": color or style.palette("light").line, "width": 1.5}
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


def _columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def wrap_title(text: str, columns: int = PRINT_TITLE_COLUMNS) -> list[str]:
    """A title in lines of at most `columns` (Plotly never wraps a title; one that is too long is cut off).
    Lines break after a space or between CJK characters.

    >>> wrap_title("Time per launch: x -> Dense(4096) -> Gelu", 20)
    ['Time per launch: x', '-> Dense(4096) ->', 'Gelu']
    >>> wrap_title("每次启动的耗时（分为三部分）", 12)
    ['每次启动的耗', '时（分为三部', '分）']
    """
    lines: list[str] = []
    line = ""
    for token in re.findall(r"[^\s\u2e80-\uffef]+\s*|[\u2e80-\uffef]\s*|\s+", text):
        if line and _columns(line + token.rstrip()) > columns:
            lines.append(line.rstrip())
            line = ""
        line += token
    if line.strip():
        lines.append(line.rstrip())
    return lines


def for_print(fig: Any) -> Any:
    """A copy of `fig` for paper: fixed width, white background, black text and axis lines, no hover.

    The copy uses Plotly's own white template, so show it with st.plotly_chart(theme=None): Streamlit's theme would
    repaint it in the app's (possibly dark) colours."""
    import plotly.graph_objects as go

    out = go.Figure(fig)
    axis = {"color": PRINT_INK, "linecolor": PRINT_INK, "showline": True, "gridcolor": PRINT_GRID,
            "zerolinecolor": PRINT_GRID}
    out.update_layout(template="plotly_white", width=PRINT_WIDTH, autosize=False, paper_bgcolor=PRINT_PAPER,
                      plot_bgcolor=PRINT_PAPER, font={"family": style.FONT_FAMILY, "color": PRINT_INK},
                      title={"font": {"color": PRINT_INK}}, legend={"font": {"color": PRINT_INK}}, hovermode=False)
    out.update_xaxes(**axis)
    out.update_yaxes(**axis)
    lines = wrap_title(out.layout.title.text or "")
    if len(lines) > 1:  # Plotly's <br> line break; the top margin grows by one title line each
        top = out.layout.margin.t if out.layout.margin.t is not None else _HOUSE_LAYOUT["margin"]["t"]
        out.update_layout(title={"text": "<br>".join(lines)}, margin={"t": top + 22 * (len(lines) - 1)})
    return out
