"""Search across chapters, glossary, quiz explanations and the CUDA -> HIP mapping table."""

from rocm_bridge.pages import by_file
from rocm_bridge.ui import page_header
from rocm_bridge.ui.search_view import render

page_header(by_file("views/search.py").title_key, "search.caption")
render()
