"""Placeholder until the stack explorer lands."""

from rocm_bridge.ui import coming_soon


def render_explorer(key_prefix: str = "st", compact: bool = False) -> None:
    coming_soon()
