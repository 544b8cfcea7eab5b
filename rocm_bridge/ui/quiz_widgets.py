"""Placeholder until the quiz lands."""

from rocm_bridge.ui import coming_soon


def chapter_quiz(chapter_id: str) -> None:
    coming_soon()
