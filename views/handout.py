"""Printable handouts: a chapter without widgets, and a quiz sheet with an answer key."""

from rocm_bridge.pages import by_file
from rocm_bridge.ui import page_header
from rocm_bridge.ui.handout_view import render

page_header(by_file("views/handout.py").title_key, "handout.caption")
render()
