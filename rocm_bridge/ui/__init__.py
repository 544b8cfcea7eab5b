"""Shared Streamlit widgets; the only part of rocm_bridge that imports streamlit.

The names live in rocm_bridge.ui.base and are loaded on first use, so that merely importing the package
(as tools that walk rocm_bridge do) does not import streamlit.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "LANG_KEY",
    "formula_card",
    "lang",
    "page_header",
    "page_link",
    "show_error",
    "source_note",
    "tr",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module("rocm_bridge.ui.base"), name)
    raise AttributeError(f"module 'rocm_bridge.ui' has no attribute {name!r}")
