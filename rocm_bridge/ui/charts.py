"""Every chart goes through show_chart: house layout, toolbar config and a source line."""

from __future__ import annotations

from typing import Any

import streamlit as st

from rocm_bridge import style
from rocm_bridge.ui import source_note

_HOUSE_LAYOUT = {
    "font": {"family": style.FONT_FAMILY},
    "height": style.CHART_HEIGHT,
    "margin": {"l": 60, "r": 20, "t": 60, "b": 50},
    "legend": {"orientation": "h", "y": -0.2},
}


def house_layout(fig: Any, *, title: str, x_title: str | None = None, y_title: str | None = None) -> Any:
    """Title, axis titles (with units) and fonts that render Chinese too.

    Plain attribute updates: Plotly's update_layout / update_xaxes parse property paths and cost ~3x more, which
    a chapter page with two charts feels on every rerun (bench/startup.py)."""
    layout = fig.layout
    layout.update(_HOUSE_LAYOUT)
    layout.title.text = title
    for name, text in (("xaxis", x_title), ("yaxis", y_title)):
        if text is not None:
            axes = [k for k in layout if k.startswith(name)] or [name]  # every axis of a subplot grid
            for axis in axes:
                layout[axis].title.text = text
    return fig


def show_chart(fig: Any, source: str | list[str], *, key: str | None = None, **kwargs: Any) -> Any:
    """Render a Plotly figure (already titled, with units) and its source line."""
    result = st.plotly_chart(fig, config=style.PLOTLY_CONFIG, key=key, **kwargs)
    source_note(*([source] if isinstance(source, str) else source))
    return result
