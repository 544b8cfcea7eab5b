"""Placeholder until the formula lab lands: the card only."""

from rocm_bridge.ui import coming_soon


def render(formula_id: str, key_prefix: str = "fl", embedded: bool = False) -> None:
    coming_soon()
