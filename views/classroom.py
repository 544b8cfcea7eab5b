"""Classroom page: join a class and answer its live poll; a teacher's class (with the teacher key)."""

import streamlit as st

from rocm_bridge.i18n import t
from rocm_bridge.ui import classroom_polls, lang, page_header, tr
from rocm_bridge.ui import classroom_view as cv
from rocm_bridge.ui import quiz_widgets as qw

TABS = ("student", "teacher")

page_header("classroom.title", "classroom.caption")
lg = lang()
qw.url_choice("cr_tab", "student", TABS)
tab = st.segmented_control(
    tr("classroom.title"), TABS, format_func=lambda v: t(f"classroom.tabs.{v}", lg),
    key="cr_tab", required=True, label_visibility="collapsed",
)  # fmt: skip
qw.keep_choices("cr_tab")
if tab == "teacher":
    cv.teacher_panel()
else:
    cv.seed_join_code()
    qw.nickname_box()
    classroom_polls.student_poll()
