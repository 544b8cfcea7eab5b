"""Progress page: my chapters read, per-chapter mastery, exams and my data (from the store for a learner with a
nickname). The teacher view moved to the classroom page, behind the class's teacher key."""

import streamlit as st

from rocm_bridge.ui import page_header, page_link, tr
from rocm_bridge.ui import quiz_widgets as qw

page_header("progress.title", "progress.caption")
if st.session_state.pop("qz_deleted", False):
    st.success(tr("classroom.deleted_mine"), icon=":material/delete:")
qw.nickname_box()
qw.my_progress()
st.divider()
st.caption(tr("classroom.teacher_moved"))
page_link("classroom")
