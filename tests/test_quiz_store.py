"""Persistence: learners and resume codes, answers, exams, aggregation, CSV export, concurrent writers, the schema
created once under a lock, the v1 migration.

Tests that take `store` or `db_url` run twice: on SQLite (WAL) and on a private PostgreSQL cluster (tests/pg.py).
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import threading
import time

import pytest

from rocm_bridge.errors import InvalidInput
from rocm_bridge.quiz import schema
from rocm_bridge.quiz import store as store_mod
from rocm_bridge.quiz.store import (
    NicknameError,
    NicknameTaken,
    Store,
    csv_safe,
    default_url,
    get_store,
    nickname_key,
    nickname_look,
    validate_nickname,
)


@pytest.fixture
def store(db_url):
    s = Store(db_url)
    yield s
    s.engine.dispose()


def _answer(s, lid, qid="ch1.wavefront-size", correct=True, given=64, **kw):
    return s.record_answer(
        lid,
        question_id=qid,
        chapter=qid.split(".")[0] if qid.startswith("ch") else "ch1",
        set_name="bank",
        mode="practice",
        given=given,
        correct=correct,
        **kw,
    )


def test_default_url_uses_data_dir_and_env(monkeypatch, tmp_path):
    monkeypatch.delenv("ROCM_BRIDGE_DB_URL", raising=False)
    monkeypatch.setenv("ROCM_BRIDGE_DATA_DIR", str(tmp_path / "d"))
    assert default_url() == f"sqlite:///{tmp_path / 'd' / 'quiz.sqlite3'}"
    monkeypatch.setenv("ROCM_BRIDGE_DB_URL", "postgresql+psycopg://teacher@db/class")
    assert default_url() == "postgresql+psycopg://teacher@db/class"


def test_sqlite_file_is_in_wal_mode(tmp_path):
    path = tmp_path / "sub" / "q.sqlite3"
    s = Store(f"sqlite:///{path}")
    _answer(s, s.learner_id("ana"))
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


@pytest.mark.parametrize(
    "raw, expected",
    [("  小明  ", "小明"), ("Ana  Lee", "Ana Lee"), ("gpu_fan-2", "gpu_fan-2"), ("ＡＢＣ", "ABC")],
)
def test_nickname_normalised(raw, expected):
    assert validate_nickname(raw) == expected


@pytest.mark.parametrize(
    "raw, key",
    [
        ("a", "quiz.errors.nickname_length"),
        ("x" * 25, "quiz.errors.nickname_length"),
        ("<script>", "quiz.errors.nickname_chars"),
        ("=cmd()", "quiz.errors.nickname_chars"),
        ("_hidden", "quiz.errors.nickname_chars"),
        ("ana.lee@example", "quiz.errors.nickname_chars"),
        ("call 13812345678", "quiz.errors.nickname_personal"),
        ("Alice\u3164", "quiz.errors.nickname_invisible"),  # a Hangul filler: displays as "Alice"
        ("Ali\u200bce", "quiz.errors.nickname_invisible"),
        ("Alice\uffa0", "quiz.errors.nickname_invisible"),  # NFKC maps it to U+1160, also a filler
        ("Bob\u2800", "quiz.errors.nickname_invisible"),  # Braille blank
    ],
)
def test_nickname_rejected(raw, key):
    with pytest.raises(NicknameError) as err:
        validate_nickname(raw)
    assert err.value.key == key
    assert err.value.message("zh") != err.value.message("en")


def test_longest_valid_nicknames_fit_the_columns(store):
    """24 x 'ΐ' passes validation and case-folds to 72 characters: the key column must hold it (issue 18.7)."""
    nick = "ΐ" * 24
    assert validate_nickname(nick) == nick and len(nick.casefold()) == 72
    me, _ = store.join(nick)
    assert store.nickname(me.id) == nick
    for raw in ("ﬃ" * 8, "ß" * 24, "ǰ" * 24):  # ligatures and letters that expand under NFKC / casefold
        nick = validate_nickname(raw)
        assert len(nickname_key(nick)) <= schema.KEY_MAX
        store.join(nick)


def test_question_id_longer_than_its_column_is_refused_clearly(store):
    me, _ = store.join("ana")
    with pytest.raises(InvalidInput):
        _answer(store, me.id, qid="ch1." + "x" * schema.QID_MAX)
    assert store.count_answers() == 0


def test_typing_a_nickname_never_gives_someone_elses_history(store):
    ana, code = store.join("Ana")
    _answer(store, ana.id)
    for same in ("ana", " ANA ", "Аna", "АNА"):  # case, spaces, Cyrillic А: the same name in a list
        with pytest.raises(NicknameTaken):
            store.join(same)
    assert store.resume(code) == ana
    assert store.resume(code.lower().replace("-", " ")) == ana  # typed back loosely
    assert store.resume("ABCD-EFGH-JKMN-PQRS") is None and store.resume("<script>") is None
    bo, code_bo = store.join("Bo")
    assert code_bo != code and store.resume(code_bo) == bo
    assert [a.question_id for a in store.history(bo.id)] == []


def test_homoglyph_nicknames_share_a_key():
    assert nickname_key("Alice") == nickname_key("Аlice") == nickname_key("ALICE") == nickname_key("ＡＬＩＣＥ")
    assert nickname_look("Alice") == nickname_look("AIice") == nickname_look("Аlice")  # capital I, Cyrillic А
    assert nickname_key("Alice") != nickname_key("Alina") and nickname_look("Alice") != nickname_look("Alina")
    assert nickname_key("小明") != nickname_key("小红")
    # a row stored before invisible characters were refused still collides with its visible twin
    assert nickname_key("Alice\u3164") == nickname_key("Alice") and nickname_look("A\u200blice") == nickname_look("Alice")


def test_look_alike_nicknames_are_refused_in_a_class(store):
    store.join("Alice")
    for look_alike in ("AIice", "Аlice", "ALICE", "alice"):
        with pytest.raises(NicknameTaken):
            store.join(look_alike)
    store.join("Alina")


def test_the_same_nickname_in_two_classes(store):
    from rocm_bridge.classroom import classes

    a, _ = classes.create_class(store, "A")
    b, _ = classes.create_class(store, "B")
    one, _ = store.join("Ana", a.id)
    two, _ = store.join("Ana", b.id)
    assert one.id != two.id and (one.class_id, two.class_id) == (a.id, b.id)
    with pytest.raises(NicknameTaken):
        store.join("ana", a.id)


def test_resume_codes_are_stored_only_as_hashes(store):
    me, code = store.join("Ana")
    with store.engine.connect() as conn:
        row = conn.execute(schema.learners.select().where(schema.learners.c.id == me.id)).mappings().one()
    clean = code.replace("-", "")
    assert all(clean not in str(v) and code not in str(v) for v in row.values())


def test_answers_written_twice_with_one_client_key_are_stored_once(store):
    me, _ = store.join("ana")
    first = _answer(store, me.id, client_key="k1")
    assert _answer(store, me.id, client_key="k1") == first  # a retry after an outage
    _answer(store, me.id, client_key="k2")
    assert store.count_answers() == 2


def test_history_and_exams(store):
    me, _ = store.join("ana")
    exam = store.start_exam(me.id, n_questions=2, duration_s=180, seed="solo:1", chapter="ch3")
    _answer(store, me.id, correct=False, given=32, exam_id=exam, answered_at=100.0)
    _answer(store, me.id, correct=True, exam_id=exam, answered_at=200.0)
    assert store.finish_exam(exam, n_correct=1)
    assert not store.finish_exam(exam, n_correct=2)  # a second finish (double click) does not overwrite
    hist = store.history(me.id)
    assert [(a.correct, a.answered_at) for a in hist] == [(False, 100.0), (True, 200.0)]
    (row,) = store.exams_of(me.id)
    assert row["n_correct"] == 1 and row["status"] == "finished" and row["finished_at"] is not None


def test_an_open_exam_keeps_its_progress_and_paper(store):
    me, _ = store.join("ana")
    exam = store.start_exam(me.id, n_questions=5, duration_s=450, seed="solo:abc", chapter="ch2")
    store.save_exam_progress(exam, {"ch2.q1": 1, "ch2.q2": [0, 2]})
    store.save_exam_progress(exam, {"ch2.q1": 2, "ch2.q2": [0, 2], "gen.x": 1.5})
    found = store.open_exam(me.id)
    assert (found["id"], found["seed"], found["chapter"]) == (exam, "solo:abc", "ch2")
    assert found["progress"] == {"ch2.q1": 2, "ch2.q2": [0, 2], "gen.x": 1.5}
    store.abandon_exam(exam)
    assert store.open_exam(me.id) is None
    assert store.exams_of(me.id)[0]["status"] == "abandoned"


def test_stale_open_exams_are_closed_as_abandoned(store):
    me, _ = store.join("ana")
    old = store.start_exam(me.id, n_questions=5, duration_s=450)
    new = store.start_exam(me.id, n_questions=5, duration_s=450)
    later = time.time() + 450 + store_mod.EXAM_GRACE_S + 10
    with store.engine.begin() as conn:  # the new one was started just before the check
        conn.execute(schema.exams.update().where(schema.exams.c.id == new).values(started_at=later - 100))
    assert store.close_stale_exams(now=later) == 1
    status = {e["id"]: e["status"] for e in store.exams_of(me.id)}
    assert status == {old: "abandoned", new: "open"}


def test_chapters_read(store):
    me, _ = store.join("ana")
    store.mark_read(me.id, "ch1")
    store.mark_read(me.id, "ch1")
    store.mark_read(me.id, "ch3")
    assert store.chapters_read(me.id) == {"ch1", "ch3"}


def test_a_learner_exports_and_deletes_their_own_data(store):
    me, code = store.join("小明")
    other, _ = store.join("Bo")
    _answer(store, me.id, given=[1, "两"], correct=False)
    _answer(store, other.id)
    store.mark_read(me.id, "ch2")
    exam = store.start_exam(me.id, 5, 450)
    store.finish_exam(exam, 3)
    doc = store.export_learner(me.id)
    assert doc["nickname"] == "小明" and doc["chapters_read"] == ["ch2"]
    assert [a["given"] for a in doc["answers"]] == [[1, "两"]] and doc["exams"][0]["n_correct"] == 3
    json.dumps(doc)  # a downloadable document
    store.delete_learner(me.id)
    assert store.resume(code) is None and store.learner(me.id) is None
    assert store.count_answers() == 1 and store.history(other.id)
    assert store.join("小明")[0].id != me.id  # the name is free again


def test_question_stats_and_misconceptions(store):
    a, b, c = (store.learner_id(n) for n in ("ana", "bo", "cy"))
    for lid in (a, b):
        _answer(store, lid, correct=False, given=32, misconception="mc.warp-is-32")
    _answer(store, c, correct=True)
    _answer(store, c, qid="ch2.version-compare", correct=False, given=True, misconception="mc.version-text-compare")
    stats = {s.question_id: s for s in store.question_stats()}
    w = stats["ch1.wavefront-size"]
    assert (w.n_answers, w.n_learners, w.n_wrong) == (3, 3, 2)
    assert w.common_wrong[0] == (json.dumps(32), 2)
    assert w.wrong_rate == pytest.approx(2 / 3)
    assert store.misconception_counts() == [("mc.warp-is-32", 2, 2), ("mc.version-text-compare", 1, 1)]
    assert store.class_size() == 3


def test_stats_are_scoped_to_one_class(store):
    from rocm_bridge.classroom import classes

    a, _ = classes.create_class(store, "A")
    b, _ = classes.create_class(store, "B")
    in_a = store.learner_id("ana", a.id)
    in_b = store.learner_id("bo", b.id)
    _answer(store, in_a, correct=False, given=32, misconception="mc.warp-is-32")
    _answer(store, in_b, qid="ch2.version-compare", correct=True)
    assert [s.question_id for s in store.question_stats(a.id)] == ["ch1.wavefront-size"]
    assert store.misconception_counts(b.id) == []
    assert (store.class_size(a.id), store.count_answers(b.id), store.count_answers()) == (1, 1, 2)
    rows = list(csv.reader(io.StringIO(store.export_answers_csv(b.id))))
    assert [r[0] for r in rows[1:]] == ["bo"]
    assert set(store.class_histories(a.id)) == {in_a}


def test_csv_export_neutralises_formulas(store):
    lid = store.learner_id("小明")
    _answer(store, lid, given=-5, correct=False, answered_at=1.0)  # "-5" would be read as a formula
    _answer(store, lid, given="=HYPERLINK()", correct=False, answered_at=2.0)  # stored as JSON: starts with a quote
    rows = list(csv.reader(io.StringIO(store.export_answers_csv())))
    assert rows[0][0] == "nickname" and rows[1][0] == "小明"
    assert rows[1][5] == "'-5"
    assert rows[2][5] == '"=HYPERLINK()"'
    assert rows[1][6] == "0" and rows[1][9].endswith("Z")
    assert csv_safe("+1") == "'+1" and csv_safe("ok") == "ok"


def test_many_threads_writing_lose_nothing(db_url):
    s = Store(db_url)
    n_threads, per_thread = 12, 40
    errors: list[BaseException] = []
    start = threading.Barrier(n_threads)
    taken = []

    def learner(i):
        try:
            start.wait()
            try:
                lid = s.learner_id(f"student{i % 6}")  # pairs of threads race for one nickname
            except NicknameTaken:
                taken.append(i)
                lid = s.learner_id(f"student{i % 6}b")
            for k in range(per_thread):
                _answer(s, lid, qid=f"ch{1 + k % 8}.q{k}", correct=bool(k % 2), given=k, client_key=f"{i}-{k}")
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=learner, args=(i,)) for i in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(taken) == 6, "exactly one of each pair got the nickname"
    assert s.count_answers() == n_threads * per_thread
    with s.engine.connect() as conn:
        assert len(conn.execute(schema.learners.select()).fetchall()) == n_threads
    s.engine.dispose()


@pytest.mark.parametrize("n", [20])
def test_twenty_stores_starting_at_once_create_the_schema_once(db_url, n):
    """Replicas starting together on a fresh database (issue 18.6): every Store() comes up, one schema."""
    barrier = threading.Barrier(n)
    errors: list[BaseException] = []
    stores: list[Store] = []

    def start():
        try:
            barrier.wait()
            stores.append(Store(db_url))
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]
    assert len(stores) == n
    with stores[0].engine.connect() as conn:
        rows = conn.execute(schema.schema_version.select()).fetchall()
        assert [(r.id, r.version) for r in rows] == [(1, schema.SCHEMA_VERSION)]
    me, code = stores[3].join("ana")
    assert stores[17].resume(code) == me
    for s in stores:
        s.engine.dispose()


def test_v1_tables_are_migrated_and_their_learners_cannot_be_taken_over(tmp_path):
    path = tmp_path / "old.sqlite3"
    con = sqlite3.connect(path)
    con.executescript(
        """
        CREATE TABLE qz_learners (id INTEGER PRIMARY KEY, nickname VARCHAR(24) NOT NULL,
            nickname_key VARCHAR(48) NOT NULL UNIQUE, created_at FLOAT NOT NULL);
        CREATE TABLE qz_exams (id INTEGER PRIMARY KEY, learner_id INTEGER NOT NULL, started_at FLOAT NOT NULL,
            finished_at FLOAT, n_questions INTEGER NOT NULL, n_correct INTEGER, duration_s INTEGER NOT NULL);
        CREATE TABLE qz_answers (id INTEGER PRIMARY KEY, learner_id INTEGER NOT NULL, question_id VARCHAR(96),
            chapter VARCHAR(8), set_name VARCHAR(16), mode VARCHAR(12), given TEXT, correct BOOLEAN,
            misconception VARCHAR(96), exam_id INTEGER, answered_at FLOAT);
        INSERT INTO qz_learners VALUES (1, 'Ana', 'ana', 1.0);
        INSERT INTO qz_exams VALUES (1, 1, 5.0, 9.0, 5, 4, 450), (2, 1, 20.0, NULL, 5, NULL, 450);
        INSERT INTO qz_answers VALUES (1, 1, 'ch1.wavefront-size', 'ch1', 'bank', 'exam', '64', 1, '', 1, 6.0);
        """
    )
    con.commit()
    con.close()
    s = Store(f"sqlite:///{path}")
    assert s.count_answers() == 1 and s.question_stats()[0].question_id == "ch1.wavefront-size"
    assert {e["id"]: e["status"] for e in s.exams_of(1)} == {1: "finished", 2: "abandoned"}
    me, _ = s.join("Ana")  # the old name tag is free: nobody gets the old history by typing it
    assert me.id != 1 and s.history(me.id) == []
    assert Store(f"sqlite:///{path}").count_answers() == 1  # migrated once


def test_get_store_is_cached_per_url(db_url):
    url = db_url
    assert get_store(url) is get_store(url)
    store_mod._STORES.pop(url).engine.dispose()


def test_unreachable_database_is_a_clear_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(store_mod.StoreUnavailable) as err:
        Store(f"sqlite:///{blocker / 'q.sqlite3'}")  # parent is a file
    assert "OSError" in err.value.message("en") or "Error" in err.value.message("en")


def test_teacher_rows_name_questions_and_wrong_answers(store):
    from rocm_bridge.quiz.bank import load_bank
    from rocm_bridge.quiz.report import misconception_rows, question_rows, rows_to_csv

    bank = load_bank()
    q = bank.get("ch1.cudnn-counterpart")  # options: rocBLAS, MIOpen, RCCL, rocFFT; answer MIOpen
    ids = {}
    for name, given in (("ana", 0), ("bo", 0), ("cy", 1)):
        ids[name] = lid = store.learner_id(name)
        store.record_answer(lid, question_id=q.id, chapter="ch1", set_name="bank", mode="practice",
                            given=given, correct=given == q.answer, misconception=q.misconception)  # fmt: skip
    lid = ids["ana"]
    store.record_answer(lid, question_id="gen.speedup", chapter="ch6", set_name="generated", mode="exam",
                        given=2.5, correct=False)  # fmt: skip
    store.record_answer(lid, question_id="ch2.version-compare", chapter="ch2", set_name="bank", mode="exam",
                        given=True, correct=False, misconception="mc.version-text-compare")  # fmt: skip
    rows = {r["question_id"]: r for r in question_rows(bank, store.question_stats(), "zh")}
    assert rows["ch1.cudnn-counterpart"]["most_common_wrong"] == "rocBLAS (×2)"
    assert rows["ch1.cudnn-counterpart"]["wrong_rate_percent"] == pytest.approx(66.7)
    assert "TensorFlow" in rows["ch1.cudnn-counterpart"]["question"]
    assert rows["gen.speedup"]["most_common_wrong"] == "2.5 × (×1)"  # numeric: value and unit
    assert rows["ch2.version-compare"]["most_common_wrong"] == "正确 (×1)"
    mis = misconception_rows(bank, store.misconception_counts(), "en")
    assert mis[0]["misconception_id"] == "mc.version-text-compare" and "Myth or fact" in mis[0]["misconception"]
    text = rows_to_csv(list(rows.values()))
    assert text.splitlines()[0].startswith("question_id,question,chapter")
