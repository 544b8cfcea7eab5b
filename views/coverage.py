from rocm_bridge.pages import by_file
from rocm_bridge.ui import coming_soon, page_header

page_header(by_file("views/coverage.py").title_key)
coming_soon()
