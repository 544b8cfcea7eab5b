"""Progress page: my per-chapter mastery and exams; a teacher view of the whole database (?qz_tab=teacher)."""

import streamlit as st

from rocm_bridge.i18n import t
from rocm_bridge.ui import lang, page_header, tr
from rocm_bridge.ui import quiz_widgets as qw

TABS = ("mine", "teacher")

page_header("progress.title", "progress.caption")
lg = lang()
qw.url_choice("qz_tab", "mine", TABS)
qw.nickname_box()
tab = st.segmented_control(
    tr("progress.title"), TABS, format_func=lambda v: t(f"progress.{v}", lg),
    key="qz_tab", required=True, label_visibility="collapsed",
)  # fmt: skip
qw.keep_choices("qz_tab")
if tab == "teacher":
    qw.teacher_view()
else:
    qw.my_progress()
