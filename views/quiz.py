"""Quiz page: practice, exam, review mistakes, interview. Selection lives in the URL (qz_mode, qz_ch, qz_set, qz_gen, qz_n)."""

import streamlit as st

from rocm_bridge.i18n import t
from rocm_bridge.pages import CHAPTERS, page
from rocm_bridge.quiz.paper import EXAM_SIZES, SECONDS_PER_QUESTION
from rocm_bridge.ui import classroom_polls, lang, page_header, tr
from rocm_bridge.ui import quiz_widgets as qw
from rocm_bridge.ui.state import parse_flag, share_link

MODES = ("practice", "exam", "review", "interview")
SETS = ("bank", "misconceptions")

page_header("quiz.title", "quiz.caption")
lg = lang()  # format_func closures keep the language of this run
qw.url_choice("qz_mode", "practice", MODES)
qw.url_choice("qz_ch", "all", ("all", *CHAPTERS))
qw.url_choice("qz_set", "bank", SETS)
qw.url_choice("qz_gen", True, (True, False), parse_flag)
qw.url_choice("qz_n", 10, EXAM_SIZES, int)
qw.nickname_box()
classroom_polls.student_poll()

left, right = st.columns(2)
mode = left.segmented_control(
    tr("quiz.mode"), MODES, format_func=lambda m: t(f"quiz.modes.{m}", lg), key="qz_mode", required=True
)
chapter = right.selectbox(
    tr("quiz.chapter"), ["all", *CHAPTERS], key="qz_ch",
    format_func=lambda c: t("quiz.all_chapters", lg) if c == "all" else t(page(c).title_key, lg),
)  # fmt: skip
ch = None if chapter == "all" else chapter
entered = st.session_state.get("qz_last_mode") != mode
st.session_state["qz_last_mode"] = mode

if mode == "practice":
    left, right = st.columns(2)
    qset = left.segmented_control(
        tr("quiz.set"), SETS, format_func=lambda s: t(f"quiz.sets.{s}", lg), key="qz_set", required=True
    )
    with_gen = right.toggle(tr("quiz.include_generated"), key="qz_gen")
    ctx, deck = qw.practice_deck([qset], ch, with_gen)
    qw.deck_runner(ctx, deck, "practice")
    if st.button(tr("quiz.restart"), key="qz_restart", icon=":material/shuffle:"):
        qw.restart(ctx)
        st.rerun()

elif mode == "exam":
    exam = qw.resume_exam()  # an open exam from the database after a reload or a restart
    if exam is None:
        n = st.segmented_control(tr("quiz.exam.size"), EXAM_SIZES, key="qz_n", required=True)
        st.caption(tr("quiz.exam.rules", n=n, minutes=n * SECONDS_PER_QUESTION // 60))
        if st.button(tr("quiz.exam.start"), type="primary", key="qz_exam_start", icon=":material/timer:"):
            qw.start_exam(n, ch)
            st.rerun()
    else:
        qw.exam_runner(exam)
        label = "quiz.exam.new" if exam.finished_at is not None else "quiz.exam.abandon"
        if st.button(tr(label), key="qz_exam_clear"):
            qw.clear_exam()
            st.rerun()

elif mode == "review":
    if entered:
        qw.restart(f"review_{ch or 'all'}")  # rebuilt from the latest history each time the learner comes back
    ctx, deck = qw.review_deck(ch)
    if deck:
        st.info(tr("quiz.review.intro", n=len(deck)), icon=":material/replay:")
        qw.deck_runner(ctx, deck, "review")
    else:
        st.info(tr("quiz.review.nothing"), icon=":material/replay:")

else:
    qw.interview_runner(ch)

qw.keep_choices(*(k for k in ("qz_mode", "qz_ch", "qz_set", "qz_gen", "qz_n") if k in st.session_state))
st.divider()
share_link()
