"""Every chart goes through show_chart: house layout (rocm_bridge.visual.figures), toolbar config and a source line."""

from __future__ import annotations

from typing import Any

import streamlit as st

from rocm_bridge.ui import source_note
from rocm_bridge.ui.theme import palette
from rocm_bridge.visual import figures, style
from rocm_bridge.visual.figures import house_figure, house_layout  # re-exported for the pages

__all__ = ["house_figure", "house_layout", "reference_line", "show_chart"]


def reference_line(fig: Any, *, color: str | None = None, **kwargs: Any) -> Any:
    """figures.reference_line in the reference-line grey of the visitor's theme unless a colour is given (pass
    one in a figure cached across themes)."""
    return figures.reference_line(fig, color=color or palette().line, **kwargs)


def show_chart(fig: Any, source: str | list[str], *, key: str | None = None, **kwargs: Any) -> Any:
    """Render a Plotly figure (already titled, with units) and its source line."""
    result = st.plotly_chart(fig, config=style.PLOTLY_CONFIG, key=key, **kwargs)
    source_note(*([source] if isinstance(source, str) else source))
    return result
