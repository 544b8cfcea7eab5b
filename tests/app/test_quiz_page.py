"""AppTest: the quiz page end to end (practice feedback, exam score, review, nickname, teacher view, chapter quiz)."""

from __future__ import annotations

import pytest

from rocm_bridge import i18n
from rocm_bridge.quiz import store as store_mod
from rocm_bridge.quiz.bank import load_bank
from tests.app.quiz_helpers import answer

QUIZ = "views/quiz.py"
PROGRESS = "views/progress.py"


def _right(q):
    return list(q.answer) if q.type == "multiple" else q.answer


def _wrong(q):
    if q.type == "true_false":
        return not q.answer
    if q.type == "numeric":
        return q.answer + 10 * q.tolerance + 1000
    if q.type == "multiple":
        return [i for i in range(len(q.options)) if i not in q.answer][:1]
    return (q.answer + 1) % len(q.options)




def _practice_question(at):
    ((ctx, deck),) = [(k, v) for k, v in at.session_state["qz_decks"].items() if k.startswith("practice_")]
    i = at.session_state[f"qz_deck_{ctx}"]["i"] if f"qz_deck_{ctx}" in at.session_state else 0
    return ctx, deck[i]


def _texts(elements):
    return [e.value for e in elements]


def test_practice_gives_feedback_and_moves_on(app_test, data_dir):
    at = app_test(QUIZ)
    assert not at.exception
    ctx, q = _practice_question(at)
    answer(at, q, f"qz_w_{ctx}_{q.id}", _right(q))
    at.run()
    at.button(key=f"qz_check_{ctx}").click().run()
    assert not at.exception
    assert i18n.t("quiz.correct", "en") in _texts(at.success)
    assert any(i18n.t("quiz.explanation", "en") in m for m in _texts(at.markdown))
    assert any(e.proto.label.startswith("Learn more") for e in at.get("page_link"))

    at.button(key=f"qz_next_{ctx}").click().run()
    ctx, q2 = _practice_question(at)
    assert q2.id != q.id
    answer(at, q2, f"qz_w_{ctx}_{q2.id}", _wrong(q2))
    at.run()
    at.button(key=f"qz_check_{ctx}").click().run()
    assert any(e.startswith("Not quite") for e in _texts(at.error))
    assert [a.correct for a in at.session_state["qz_history"]] == [True, False]


def test_check_without_an_answer_warns(app_test, data_dir):
    at = app_test(QUIZ)
    ctx, _ = _practice_question(at)
    at.button(key=f"qz_check_{ctx}").click().run()
    assert i18n.t("quiz.unanswered", "en") in _texts(at.warning)
    assert "qz_history" not in at.session_state


def test_answers_survive_language_switch_and_leaving_the_page(app_test, data_dir):
    at = app_test(QUIZ, qz_set="misconceptions", qz_gen="false")
    ctx, q = _practice_question(at)
    key = f"qz_w_{ctx}_{q.id}"
    answer(at, q, key, _wrong(q))
    at.run()
    at.segmented_control(key="lang").set_value("zh").run()
    assert not at.exception
    assert at.radio(key=key).value == _wrong(q)
    at.switch_page("views/home.py").run()
    at.switch_page(QUIZ).run()
    assert at.radio(key=key).value == _wrong(q), "the answer was lost when the learner left the page"


def test_exam_scores_and_reviews(app_test, data_dir):
    at = app_test(QUIZ, qz_mode="exam", qz_n="5")
    at.button(key="qz_exam_start").click().run()
    assert not at.exception
    exam = at.session_state["qz_exam"]
    assert len(exam.questions) == 5
    for i, q in enumerate(exam.questions):
        answer(at, q, f"qz_w_exam_{q.id}", _right(q) if i < 3 else _wrong(q))
    at.run()
    assert any("Answered 5 of 5" in c for c in _texts(at.caption))
    at.button(key="qz_exam_submit").click().run()
    assert not at.exception
    assert _texts(at.subheader)[-1] == i18n.t("quiz.exam.score", "en", correct=3, n=5, percent=60.0)
    assert len([e for e in _texts(at.error) if e.startswith("Not quite")]) == 2
    at.button(key="qz_exam_clear").click().run()
    assert "qz_exam" not in at.session_state and at.button(key="qz_exam_start")


def test_bad_query_values_fall_back(app_test, data_dir):
    at = app_test(QUIZ, qz_mode="hack", qz_ch="ch99", qz_n="1000")
    assert not at.exception
    assert at.segmented_control(key="qz_mode").value == "practice"
    assert at.selectbox(key="qz_ch").value == "all"
    assert len(at.toast) == 3  # one notice per bad value


def test_deep_link_opens_the_same_view(app_test, data_dir):
    at = app_test(QUIZ, lang="zh", qz_mode="exam", qz_ch="ch3", qz_n="5")
    assert at.segmented_control(key="qz_mode").value == "exam"
    assert at.selectbox(key="qz_ch").value == "ch3"
    assert at.segmented_control(key="qz_n").value == 5
    at.segmented_control(key="qz_mode").set_value("review").run()
    assert at.query_params["qz_mode"] in ("review", ["review"])  # language-independent values in the link


def test_nickname_saves_answers_and_review_brings_mistakes_back(app_test, data_dir):
    at = app_test(QUIZ, qz_set="misconceptions", qz_gen="false")
    at.text_input(key="qz_nick").input("<b>x</b>")
    at.button[0].click().run()  # the form's submit button
    assert i18n.t("quiz.errors.nickname_chars", "en") in _texts(at.error)
    at.text_input(key="qz_nick").input("Ana_1")
    at.button[0].click().run()
    assert at.session_state["qz_learner"].nickname == "Ana_1"
    assert any("Ana\\_1" in m for m in _texts(at.markdown)), "nickname must be shown escaped"

    ctx, q = _practice_question(at)
    answer(at, q, f"qz_w_{ctx}_{q.id}", _wrong(q))
    at.run()
    at.button(key=f"qz_check_{ctx}").click().run()
    db = store_mod.get_store()
    (row,) = db.question_stats()
    assert (row.question_id, row.n_wrong, row.misconception) == (q.id, 1, q.id)

    at.segmented_control(key="qz_mode").set_value("review").run()
    assert not at.exception
    (deck,) = [v for k, v in at.session_state["qz_decks"].items() if k.startswith("review_")]
    assert [x.id for x in deck] == [q.id]


def test_interview_mode_reveals_model_answer(app_test, data_dir):
    at = app_test(QUIZ, qz_mode="interview", qz_ch="ch5")
    notes = [t for t in at.text_area if t.key.endswith("_notes")]
    notes[0].input("<script>alert(1)</script> my answer").run()
    at.button(key="qz_reveal_interview_ch5").click().run()
    assert not at.exception
    assert any(i18n.t("quiz.interview.model", "en") in m for m in _texts(at.markdown))
    assert not any("<script>" in m for m in _texts(at.markdown))
    rate = [r for r in at.radio if r.key.startswith("qz_rate_")][0]
    rate.set_value("got").run()
    at.button(key="qz_save_interview_ch5").click().run()
    assert at.session_state["qz_history"][-1].correct


def test_progress_page_shows_no_one_elses_answers(app_test, data_dir):
    db = store_mod.get_store()
    for name in ("ana", "bo"):
        me, _ = db.join(name)
        db.record_answer(me.id, question_id="mc.warp-is-32", chapter="ch1", set_name="misconceptions",
                         mode="practice", given=True, correct=False, misconception="mc.warp-is-32")  # fmt: skip
    at = app_test(PROGRESS, lang="zh", qz_tab="teacher")  # the old teacher tab link shows nothing of theirs
    assert not at.exception
    assert not at.dataframe and not at.get("download_button")
    assert i18n.t("progress.no_answers", "zh") in _texts(at.info)


def test_mastery_chart_after_answers(app_test, data_dir):
    at = app_test(QUIZ, qz_set="misconceptions", qz_ch="ch2", qz_gen="false")
    ctx, q = _practice_question(at)
    answer(at, q, f"qz_w_{ctx}_{q.id}", _right(q))
    at.run()
    at.button(key=f"qz_check_{ctx}").click().run()
    at.switch_page(PROGRESS).run()
    assert not at.exception
    (chart,) = at.get("plotly_chart")
    spec = chart.proto.spec
    assert i18n.t("progress.chart_title", "en") in spec and "%" in spec
    assert at.dataframe[0].value[i18n.t("progress.col_answered", "en")].iloc[1] == 1  # ch2: one answered


def _answer_chapter_quiz(at, lang, right=True):
    bank = load_bank()
    widgets = [w for w in (*at.radio, *at.text_input, *at.multiselect) if (w.key or "").startswith("qz_w_ch_")]
    answered = 0
    for w in widgets:
        q = bank.get(w.key.split("_", 5)[-1])
        if q is not None:  # generated items are left unanswered here
            answer(at, q, w.key, _right(q) if right else _wrong(q))
            answered += 1
    submit = [b for b in at.button if b.label == i18n.t("quiz.chapter_quiz.check", lang)]
    submit[0].click().run()
    return widgets, answered


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_chapter_quiz_widget(app_test, data_dir, lang):
    # ch8 has no other widgets: in zh, AppTest trips over widgets whose format_func reads the session language
    at = app_test("views/ch8_env_check.py", lang=lang)
    assert not at.exception
    widgets, answered = _answer_chapter_quiz(at, lang)
    assert not at.exception
    assert 2 <= len(widgets) <= 3
    assert len(at.session_state["qz_history"]) == answered
    correct = i18n.t("quiz.correct", lang)
    assert [m.value for m in at.success].count(correct) == answered  # one "correct" per answered bank question
    result = i18n.t("quiz.chapter_quiz.result", lang, correct=answered, n=len(widgets))
    assert result in [m.value for m in at.markdown]
    at.button(key="qz_again_ch_ch8_0").click().run()
    assert not at.exception and correct not in [m.value for m in at.success], "a new round starts unanswered"


def test_chapter_quiz_on_the_chapter_page(app_test, data_dir):
    at = app_test("views/ch6_toolchain.py")
    assert not at.exception
    widgets, answered = _answer_chapter_quiz(at, "en", right=False)
    assert not at.exception
    assert [a.correct for a in at.session_state["qz_history"]] == [False] * answered


def test_exam_time_up_grades_what_was_answered(app_test, data_dir):
    at = app_test(QUIZ, qz_mode="exam", qz_n="5")
    at.button(key="qz_exam_start").click().run()
    exam = at.session_state["qz_exam"]
    q = exam.questions[0]
    answer(at, q, f"qz_w_exam_{q.id}", _right(q))
    at.run()
    exam.started_at -= exam.duration_s + 1  # the clock ran out
    at.run()
    assert not at.exception
    assert i18n.t("quiz.exam.time_up", "en") in _texts(at.warning)
    assert _texts(at.subheader)[-1] == i18n.t("quiz.exam.score", "en", correct=1, n=5, percent=20.0)


def test_unreachable_database_is_a_message_not_a_traceback(app_test, data_dir, monkeypatch):
    monkeypatch.setenv("ROCM_BRIDGE_DB_URL", "nosuchdialect://teacher@classroom/quiz")
    at = app_test(QUIZ)
    at.text_input(key="qz_nick").input("Ana")
    at.button[0].click().run()
    assert not at.exception
    assert any(e.startswith("The progress database is not reachable") for e in _texts(at.error))
    assert "qz_learner" not in at.session_state
    ctx, q = _practice_question(at)  # practising still works, answers stay in the tab
    answer(at, q, f"qz_w_{ctx}_{q.id}", _right(q))
    at.run()
    at.button(key=f"qz_check_{ctx}").click().run()
    assert not at.exception and len(at.session_state["qz_history"]) == 1


def test_named_learner_sees_finished_exams_only_with_the_resume_code(app_test, data_dir):
    db = store_mod.get_store()
    me, code = db.join("Ana")
    exam_id = db.start_exam(me.id, n_questions=5, duration_s=450)
    db.record_answer(me.id, question_id="ch1.wavefront-size", chapter="ch1", set_name="bank", mode="exam",
                     given=64, correct=True, exam_id=exam_id)  # fmt: skip
    db.finish_exam(exam_id, n_correct=4)
    at = app_test(PROGRESS)
    at.text_input(key="qz_nick").input("ana")  # typing the nickname is not enough
    at.button[0].click().run()
    assert not at.exception
    assert "qz_learner" not in at.session_state
    assert any("already taken" in e for e in _texts(at.error))

    at = app_test(PROGRESS, me=code)  # the personal link
    assert not at.exception
    assert at.session_state["qz_learner"].id == me.id
    assert "me" not in at.query_params, "the code is taken out of the address bar"
    assert "4/5" in at.dataframe[-1].value.iloc[:, 1].tolist()
    assert at.dataframe[0].value[i18n.t("progress.col_answered", "en")].iloc[0] == 1  # ch1: one answered


def _code_question_script(qid: str) -> None:
    from rocm_bridge.quiz.bank import bank
    from rocm_bridge.ui import quiz_widgets

    quiz_widgets.question_input(bank().get(qid), "qz_w_test")


def test_code_options_are_shown_as_code_blocks_and_picked_by_letter():
    from streamlit.testing.v1 import AppTest

    from rocm_bridge.quiz.bank import bank

    q = next(q for q in bank().questions if q.type == "code" and all(o["en"] == o["zh"] for o in q.options))
    at = AppTest.from_function(_code_question_script, args=(q.id,), default_timeout=30).run()
    assert not at.exception
    blocks = [c.value for c in at.code]
    assert all(label in blocks for label in q.option_labels("en"))  # every option readable as a block
    assert list(at.radio[0].options) == list("ABCDEFGH"[: len(q.options)])
