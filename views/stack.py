"""Stack explorer: the hero (an op down both stacks), the explorer by layer group, the terminology table and the API
counts."""

from rocm_bridge.pages import by_file
from rocm_bridge.ui import page_header
from rocm_bridge.ui import pictures as picture_ui
from rocm_bridge.ui.stack_widgets import render_api_counts, render_explorer, render_terminology

page_header(by_file("views/stack.py").title_key)
picture_ui.render("hero")
render_explorer("st")
render_terminology()
render_api_counts()
