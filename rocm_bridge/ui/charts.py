"""Every chart goes through show_chart: house layout (rocm_bridge.figures), toolbar config and a source line."""

from __future__ import annotations

from typing import Any

import streamlit as st

from rocm_bridge import style
from rocm_bridge.figures import house_figure, house_layout, reference_line  # re-exported for the pages
from rocm_bridge.ui import source_note

__all__ = ["house_figure", "house_layout", "reference_line", "show_chart"]


def show_chart(fig: Any, source: str | list[str], *, key: str | None = None, **kwargs: Any) -> Any:
    """Render a Plotly figure (already titled, with units) and its source line."""
    result = st.plotly_chart(fig, config=style.PLOTLY_CONFIG, key=key, **kwargs)
    source_note(*([source] if isinstance(source, str) else source))
    return result
