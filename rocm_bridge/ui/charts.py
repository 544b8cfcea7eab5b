"""Every chart goes through show_chart: house layout, toolbar config and a source line."""

from __future__ import annotations

from typing import Any

import streamlit as st

from rocm_bridge import style
from rocm_bridge.ui import source_note


def house_layout(fig: Any, *, title: str, x_title: str | None = None, y_title: str | None = None) -> Any:
    """Title, axis titles (with units) and fonts that render Chinese too."""
    fig.update_layout(
        title={"text": title},
        font={"family": style.FONT_FAMILY},
        height=style.CHART_HEIGHT,
        margin={"l": 60, "r": 20, "t": 60, "b": 50},
        legend={"orientation": "h", "y": -0.2},
    )
    if x_title is not None:
        fig.update_xaxes(title_text=x_title)
    if y_title is not None:
        fig.update_yaxes(title_text=y_title)
    return fig


def show_chart(fig: Any, source: str | list[str], *, key: str | None = None, **kwargs: Any) -> Any:
    """Render a Plotly figure (already titled, with units) and its source line."""
    result = st.plotly_chart(fig, config=style.PLOTLY_CONFIG, key=key, **kwargs)
    source_note(*([source] if isinstance(source, str) else source))
    return result
