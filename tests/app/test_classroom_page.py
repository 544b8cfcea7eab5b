"""AppTest: the classroom flow in the real app (teacher key, joining, live poll, class-seeded quizzes, resume after a
reload or a restart, chapters read from the store). The flows that touch the database run on SQLite and PostgreSQL.
"""

from __future__ import annotations

import pytest

from rocm_bridge import i18n
from rocm_bridge.classroom import classes, papers, polls
from rocm_bridge.pages import CHAPTERS
from rocm_bridge.quiz import store as store_mod
from rocm_bridge.quiz.bank import load_bank
from tests.app.quiz_helpers import answer, right_answer

CLASSROOM = "views/classroom.py"
QUIZ = "views/quiz.py"
PROGRESS = "views/progress.py"


@pytest.fixture
def app_db(db_url, monkeypatch):
    """The app's database for one test: SQLite or PostgreSQL (ROCM_BRIDGE_DB_URL), a fresh Store cache."""
    monkeypatch.setenv("ROCM_BRIDGE_DB_URL", db_url)
    store_mod._STORES.clear()
    yield db_url
    for s in store_mod._STORES.values():
        s.engine.dispose()
    store_mod._STORES.clear()


def _texts(elements):
    return [e.value for e in elements]


def _button(at, key_of_label, lang="en"):
    label = i18n.t(key_of_label, lang)
    (button,) = [b for b in at.button if b.label == label]
    return button




def _html(at) -> str:
    return "".join(e.proto.body for e in at.get("html"))


def _everything_shown(at) -> str:
    return "\n".join(str(e.value) for kind in (at.markdown, at.caption, at.code, at.error, at.info, at.success)
                     for e in kind)  # fmt: skip


def test_teacher_creates_a_class_and_needs_the_key(app_test, app_db):
    db = store_mod.get_store()
    other, _ = classes.create_class(db, "Other class")
    stranger = db.learner_id("stranger", other.id)
    db.record_answer(stranger, question_id="ch1.wavefront-size", chapter="ch1", set_name="bank", mode="practice",
                     given=64, correct=True)  # fmt: skip

    at = app_test(CLASSROOM, cr_tab="teacher")
    assert not at.exception
    at.text_input(key="cr_new_name").input("GPU <b>101</b>")
    _button(at, "classroom.teacher.create_go").click().run()
    info, key = at.session_state["cr_new_class"]
    assert key in _texts(at.code)  # shown once
    assert f'data-testid="rb-join-code">{info.join_code}<' in _html(at)  # the join card, large
    assert any("GPU \\<b\\>101\\</b\\>" in m for m in _texts(at.success)), "the class name is shown escaped"
    at.button(key="cr_key_kept").click().run()
    assert key not in _texts(at.code), "the key is not shown again"
    assert i18n.t("classroom.teacher.empty", "en", code=info.join_code) in _texts(at.info)

    student = app_test(QUIZ, qz_set="misconceptions", qz_ch="ch2", qz_gen="false")
    student.text_input(key="qz_nick").input("Ana")
    student.text_input(key="qz_join_code").input(info.join_code.lower())
    student.button[0].click().run()
    assert not student.exception
    me = student.session_state["qz_learner"]
    assert me.class_id == info.id
    ((ctx, deck),) = [(k, v) for k, v in student.session_state["qz_decks"].items() if k.startswith("practice_")]
    answer(student, deck[0], f"qz_w_{ctx}_{deck[0].id}", right_answer(deck[0]))
    student.run()
    student.button(key=f"qz_check_{ctx}").click().run()
    assert i18n.t("classroom.saved", "en") in _texts(student.caption)

    at.run()
    assert not at.exception
    students = at.dataframe[0].value
    assert students[i18n.t("classroom.col.nickname", "en")].tolist() == ["Ana"], "this class only"
    assert "stranger" not in _everything_shown(at)
    assert len(at.get("download_button")) == 3
    (chart,) = at.get("plotly_chart")
    assert "GPU &lt;b&gt;101" in chart.proto.spec and "%" in chart.proto.spec  # Plotly renders <b>, <a href>

    visitor = app_test(CLASSROOM, cr_tab="teacher")  # a visitor with the code but not the key
    visitor.text_input(key="cr_open_code").input(info.join_code)
    visitor.text_input(key="cr_open_key").input(key[:-1] + ("A" if key[-1] != "A" else "B"))
    _button(visitor, "classroom.teacher.open_go").click().run()
    assert not visitor.exception
    assert i18n.t("classroom.errors.wrong_key", "en") in _texts(visitor.error)
    assert "cr_teacher" not in visitor.session_state and not visitor.dataframe
    assert "Ana" not in _everything_shown(visitor)
    visitor.text_input(key="cr_open_key").input(key)
    _button(visitor, "classroom.teacher.open_go").click().run()
    assert visitor.session_state["cr_teacher"].id == info.id and visitor.dataframe


def test_remember_with_the_database_down_keeps_the_key_on_screen(app_test, app_db, monkeypatch):
    at = app_test(CLASSROOM, cr_tab="teacher")
    at.text_input(key="cr_new_name").input("Remember me")
    _button(at, "classroom.teacher.create_go").click().run()
    info, key = at.session_state["cr_new_class"]

    def down(*_args, **_kwargs):
        raise ConnectionError("database went away")

    working = classes.open_teacher_session
    monkeypatch.setattr(classes, "open_teacher_session", down)
    at.checkbox(key="cr_remember_new").check().run()
    at.button(key="cr_key_kept").click().run()
    assert not at.exception
    assert store_mod.StoreUnavailable(detail="ConnectionError").message("en") in _texts(at.error)
    assert "cr_teacher" not in at.session_state, "the class does not open as if it were remembered"
    assert key in _texts(at.code), "the key, shown once, is still on screen"
    monkeypatch.setattr(classes, "open_teacher_session", working)  # the database is back
    at.button(key="cr_key_kept").click().run()
    assert at.session_state["cr_teacher"].id == info.id and key not in _texts(at.code)


def test_live_poll_from_teacher_to_students_and_back(app_test, app_db):
    db = store_mod.get_store()
    info, key = classes.create_class(db, "Poll class")
    teacher = app_test(CLASSROOM, cr_tab="teacher")
    teacher.session_state["cr_teacher"] = classes.teacher_login(db, info.join_code, key, "t")
    teacher.run()
    teacher.segmented_control(key="cr_view").set_value("poll").run()
    teacher.selectbox(key="cr_poll_ch").set_value("ch1").run()
    teacher.selectbox(key="cr_poll_q").set_value("ch1.cudnn-counterpart").run()
    teacher.button(key="cr_poll_open").click().run()
    assert not teacher.exception
    poll = polls.current_poll(db, info.id, fresh=True)
    assert poll is not None and poll.question_id == "ch1.cudnn-counterpart"

    q = load_bank().get("ch1.cudnn-counterpart")
    students = []
    for nick, given in (("Ana", q.answer), ("Bo", (q.answer + 1) % len(q.options))):
        s = app_test(CLASSROOM)
        s.text_input(key="qz_nick").input(nick)
        s.text_input(key="qz_join_code").input(info.join_code)
        s.button[0].click().run()
        assert not s.exception
        assert any(q.t("prompt", "en") in m for m in _texts(s.markdown)), "the open poll appears"
        s.radio(key=f"cr_poll_w_{poll.id}").set_value(given).run()
        s.button(key=f"cr_poll_send_{poll.id}").click().run()
        assert not s.exception
        assert i18n.t("classroom.poll.received", "en") in _texts(s.success)
        students.append(s)

    teacher.run()
    (chart,) = [c for c in teacher.get("plotly_chart") if "Live poll" in c.proto.spec]
    assert "2 students" in chart.proto.spec and "MIOpen" in chart.proto.spec
    import json

    yaxis = json.loads(chart.proto.spec)["layout"]["yaxis"]
    assert yaxis["dtick"] == 1 and yaxis["tickformat"] == "d" and yaxis["rangemode"] == "tozero"  # whole students
    teacher.button(key=f"cr_reveal_{poll.id}").click().run()
    assert any(i18n.t("classroom.poll.right_n", "en", right=1, n=2) in m for m in _texts(teacher.markdown))
    students[0].run()
    assert i18n.t("quiz.correct", "en") in _texts(students[0].success)
    students[1].run()
    assert any(e.startswith("Not quite") for e in _texts(students[1].error))
    teacher.button(key=f"cr_close_{poll.id}").click().run()
    assert not teacher.exception
    assert polls.current_poll(db, info.id, fresh=True) is None
    assert polls.history(db, info.id)[0]["n_answers"] == 2
    students[0].run()
    assert i18n.t("classroom.poll.none", "en") in _texts(students[0].caption)


def test_a_class_gets_the_same_chapter_quiz_as_the_teachers_preview(app_test, data_dir):
    db = store_mod.get_store()
    info, _ = classes.create_class(db, "Same")
    expected = [q.id for q in papers.chapter_quiz(info.id, "ch8")]
    seen = []
    for nick in ("Ana", "Bo"):
        at = app_test(CLASSROOM)
        at.text_input(key="qz_nick").input(nick)
        at.text_input(key="qz_join_code").input(info.join_code)
        at.button[0].click().run()
        at.switch_page("views/ch8_env_check.py").run()
        assert not at.exception
        keys = [w.key for w in (*at.radio, *at.text_input, *at.multiselect) if (w.key or "").startswith("qz_w_ch_")]
        seen.append([k.split("_", 5)[-1] for k in keys])
        radios = [r for r in at.radio if (r.key or "").startswith("qz_w_ch_")]
        seen.append([tuple(r.options) for r in radios])
    assert seen[0] == seen[2] == expected[: len(seen[0])] and seen[1] == seen[3], "same questions, same order"


def test_reload_and_restart_resume_the_exam(app_test, app_db):
    db = store_mod.get_store()
    me, code = db.join("Ana")
    at = app_test(QUIZ, me=code, qz_mode="exam", qz_n="5")
    at.button(key="qz_exam_start").click().run()
    exam = at.session_state["qz_exam"]
    for q in exam.questions[:2]:
        answer(at, q, f"qz_w_exam_{q.id}", right_answer(q))
        at.run()
    assert not at.exception
    assert len(db.open_exam(me.id)["progress"]) == 2

    for s in store_mod._STORES.values():  # a server restart: no session, no engine, only the database
        s.engine.dispose()
    store_mod._STORES.clear()
    again = app_test(QUIZ, me=code, qz_mode="exam")
    assert not again.exception
    resumed = again.session_state["qz_exam"]
    assert [q.id for q in resumed.questions] == [q.id for q in exam.questions]
    assert resumed.exam_id == exam.exam_id
    q0 = resumed.questions[0]
    widget = again.text_input(key=f"qz_w_exam_{q0.id}") if q0.type == "numeric" else (
        again.multiselect(key=f"qz_w_exam_{q0.id}") if q0.type == "multiple" else again.radio(key=f"qz_w_exam_{q0.id}"))
    assert widget.value in (right_answer(q0), str(right_answer(q0))), "the answer given before the reload is back"
    assert any("Answered 2 of 5" in c for c in _texts(again.caption))

    again.button(key="qz_exam_submit").click().run()  # three left unanswered: asks first
    assert i18n.t("classroom.exam_confirm", "en", left=3) in _texts(again.warning)
    assert db.open_exam(me.id) is not None, "not submitted yet"
    again.button(key="qz_exam_submit_anyway").click().run()
    assert not again.exception
    assert _texts(again.subheader)[-1] == i18n.t("quiz.exam.score", "en", correct=2, n=5, percent=40.0)
    (row,) = db.exams_of(me.id)
    assert (row["status"], row["n_correct"]) == ("finished", 2)


def test_abandoning_an_exam_closes_it(app_test, data_dir):
    db = store_mod.get_store()
    me, code = db.join("Ana")
    at = app_test(QUIZ, me=code, qz_mode="exam", qz_n="5")
    at.button(key="qz_exam_start").click().run()
    at.button(key="qz_exam_clear").click().run()
    assert not at.exception
    assert db.open_exam(me.id) is None and db.exams_of(me.id)[0]["status"] == "abandoned"


def test_chapters_read_follow_the_learner(app_test, data_dir):
    db = store_mod.get_store()
    me, code = db.join("Ana")
    at = app_test("views/ch1_rocm_basics.py", me=code)
    assert not at.exception
    at.switch_page("views/ch2_environment.py").run()
    assert db.chapters_read(me.id) == {"ch1", "ch2"}
    fresh = app_test("views/ch3_operators.py", me=code)  # another device, or after a reload
    assert not fresh.exception
    (bar,) = fresh.get("progress")
    assert i18n.t("classroom.chapters_progress", "en", read=3, total=len(CHAPTERS)) in str(bar.proto)
    progress = app_test(PROGRESS, me=code)
    assert any(i18n.t("classroom.chapters_read", "en", read=3, total=len(CHAPTERS)) in m for m in _texts(progress.markdown))


def test_a_learner_downloads_and_deletes_their_data(app_test, data_dir):
    import json

    db = store_mod.get_store()
    me, code = db.join("Ana")
    db.record_answer(me.id, question_id="ch1.wavefront-size", chapter="ch1", set_name="bank", mode="practice",
                     given=64, correct=True)  # fmt: skip
    at = app_test(PROGRESS, me=code)
    (download,) = [d for d in at.get("download_button") if d.proto.label.startswith("Download my data")]
    assert download.proto.label
    doc = db.export_learner(me.id)
    assert json.loads(json.dumps(doc))["answers"][0]["question_id"] == "ch1.wavefront-size"
    at.button(key="qz_delete_mine").click().run()
    assert not at.exception
    assert i18n.t("classroom.deleted_mine", "en") in _texts(at.success)
    assert db.resume(code) is None and db.count_answers() == 0
    assert "qz_learner" not in at.session_state


def test_a_deleted_class_stops_its_learners_tab_cleanly(app_test, data_dir):
    db = store_mod.get_store()
    info, _ = classes.create_class(db, "Gone")
    at = app_test(QUIZ, qz_set="misconceptions", qz_ch="ch2", qz_gen="false")
    at.text_input(key="qz_nick").input("Ana")
    at.text_input(key="qz_join_code").input(info.join_code)
    at.button[0].click().run()
    classes.delete_class(db, info.id)  # the teacher deletes the class meanwhile
    ((ctx, deck),) = [(k, v) for k, v in at.session_state["qz_decks"].items() if k.startswith("practice_")]
    answer(at, deck[0], f"qz_w_{ctx}_{deck[0].id}", right_answer(deck[0]))
    at.run()
    at.button(key=f"qz_check_{ctx}").click().run()
    at.run()
    assert not at.exception
    assert "qz_learner" not in at.session_state and not at.session_state["qz_outbox"]
    assert db.count_answers() == 0
    assert not any("NOT saved" in w for w in _texts(at.warning)), "not a database outage"


def test_chapter_quiz_says_whether_it_was_saved(app_test, data_dir):
    db = store_mod.get_store()
    me, code = db.join("Ana")
    at = app_test("views/ch8_env_check.py", me=code)
    bank = load_bank()
    for w in [w for w in at.radio if (w.key or "").startswith("qz_w_ch_")]:
        q = bank.get(w.key.split("_", 5)[-1])
        if q is not None:
            answer(at, q, w.key, right_answer(q))
    [b for b in at.button if b.label == i18n.t("quiz.chapter_quiz.check", "en")][0].click().run()
    assert not at.exception
    assert i18n.t("classroom.saved", "en") in _texts(at.caption)
    assert db.count_answers() >= 1


def test_a_poll_closed_as_a_student_sends_says_so(app_test, data_dir):
    db = store_mod.get_store()
    info, _ = classes.create_class(db, "Closing")
    poll = polls.open_poll(db, info.id, "ch1.cudnn-counterpart")
    s = app_test(CLASSROOM)
    s.text_input(key="qz_nick").input("Ana")
    s.text_input(key="qz_join_code").input(info.join_code)
    s.button[0].click().run()
    s.radio(key=f"cr_poll_w_{poll.id}").set_value(1).run()
    polls.close(db, poll)  # the teacher closes it before the student's click arrives
    s.button(key=f"cr_poll_send_{poll.id}").click().run()
    assert not s.exception
    assert i18n.t("classroom.poll.closed_before", "en") in _texts(s.warning)
    assert i18n.t("classroom.poll.received", "en") not in _texts(s.success)
    assert polls.distribution(db, poll.id)[1] == 0 and db.count_answers() == 0


def test_the_projector_join_card_create_first_and_singular_counts(app_test, app_db):
    """Issue 23: a big join code, the join address and a QR code made on the server; Create comes first and the
    teacher's required class code is not marked optional; a class of one says '1 learner'."""
    import re

    at = app_test(CLASSROOM, cr_tab="teacher")
    forms = [b.label for b in at.button]
    assert forms.index(i18n.t("classroom.teacher.create_go", "en")) < forms.index(i18n.t("classroom.teacher.open_go", "en"))
    labels = [t.label for t in at.text_input]
    assert i18n.t("classroom.teacher.code", "en") in labels and not any("optional" in x for x in labels)
    at.text_input(key="cr_new_name").input("Room 4")
    _button(at, "classroom.teacher.create_go").click().run()
    info, key = at.session_state["cr_new_class"]
    at.button(key="cr_key_kept").click().run()
    body = _html(at)
    assert f'data-testid="rb-join-code">{info.join_code}<' in body and "font-size: 88px" in body
    assert re.search(rf"/classroom\?join={info.join_code}&amp;lang=en<", body), "the join address"
    import io

    import segno

    from rocm_bridge.ui import classroom_view as cv

    address = re.search(r'<div class="addr">(.*?)</div>', body).group(1).replace("&amp;", "&")
    (image,) = at.get("image")
    assert i18n.t("classroom.join.qr", "en") in str(image.proto)
    png = cv.qr_png(address)  # the address's QR code, made on the server: a PNG of the symbol segno encodes
    assert png.startswith(b"\x89PNG")
    expected, qr = io.BytesIO(), segno.make(address, error="m")
    qr.save(expected, kind="png", scale=260 // qr.symbol_size(scale=1, border=4)[0], border=4)
    assert png == expected.getvalue(), "the QR code holds the join address"
    student = app_test(CLASSROOM, join=info.join_code.lower())
    assert student.text_input(key="qz_join_code").value == info.join_code, "the address fills the class code in"
    student.text_input(key="qz_nick").input("Solo")
    student.button[0].click().run()
    assert student.session_state["qz_learner"].class_id == info.id
    at.run()
    assert "1 learner in this class, 0 answers." in _texts(at.markdown)
