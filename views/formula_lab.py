"""Formula lab: the course's five formulas as live widgets; the chosen formula and every input are in the URL."""

import streamlit as st

from rocm_bridge.pages import by_file
from rocm_bridge.ui import page_header, tr
from rocm_bridge.ui.formula_widgets import FORMULA_IDS, render
from rocm_bridge.ui.state import push_url, share_link, url_state

KEY = "fl_formula"

page_header(by_file("views/formula_lab.py").title_key, "formula_lab.caption")
url_state(KEY, FORMULA_IDS[0], valid=FORMULA_IDS)
formula_id = st.segmented_control(
    tr("formula_lab.pick"), FORMULA_IDS, format_func=lambda f: tr(f"formulas.{f}.title"), key=KEY, required=True
)
push_url(KEY)
render(formula_id, key_prefix="fl")
share_link()
