"""Persistence: nicknames, answers, aggregation, CSV export and concurrent writers.

Tests that take `store` or `db_url` run twice: on SQLite (WAL) and on a private PostgreSQL cluster (tests/pg.py).
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import threading

import pytest

from rocm_bridge.quiz import store as store_mod
from rocm_bridge.quiz.store import NicknameError, Store, csv_safe, default_url, get_store, validate_nickname


@pytest.fixture
def store(db_url):
    return Store(db_url)


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
    ],
)
def test_nickname_rejected(raw, key):
    with pytest.raises(NicknameError) as err:
        validate_nickname(raw)
    assert err.value.key == key
    assert err.value.message("zh") != err.value.message("en")


def test_learner_ids_are_case_insensitive_and_stable(store):
    a = store.learner_id("Ana")
    assert store.learner_id("ana") == a and store.learner_id(" ANA ") == a
    assert store.learner_id("Bo") != a
    assert store.nickname(a) == "Ana"


def test_history_and_exams(store):
    lid = store.learner_id("ana")
    exam = store.start_exam(lid, n_questions=2, duration_s=180)
    _answer(store, lid, correct=False, given=32, exam_id=exam, answered_at=100.0)
    _answer(store, lid, correct=True, exam_id=exam, answered_at=200.0)
    store.finish_exam(exam, n_correct=1)
    store.finish_exam(exam, n_correct=2)  # a second finish (double click) does not overwrite
    hist = store.history(lid)
    assert [(a.correct, a.answered_at) for a in hist] == [(False, 100.0), (True, 200.0)]
    (row,) = store.exams_of(lid)
    assert row["n_correct"] == 1 and row["finished_at"] is not None


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


def test_csv_export_neutralises_formulas(store):
    lid = store.learner_id("小明")
    _answer(store, lid, given=-5, correct=False)  # "-5" would be read as a formula by a spreadsheet
    _answer(store, lid, given="=HYPERLINK()", correct=False)  # stored as JSON: starts with a quote
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

    def learner(i):
        try:
            start.wait()
            lid = s.learner_id(f"student{i % 6}")  # pairs of threads share a nickname
            shared = s.learner_id("whole class")
            for k in range(per_thread):
                _answer(s, lid, qid=f"ch{1 + k % 8}.q{k}", correct=bool(k % 2), given=k)
            _answer(s, shared, correct=True)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=learner, args=(i,)) for i in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert s.count_answers() == n_threads * (per_thread + 1)
    with s.engine.connect() as conn:
        n_learners = conn.exec_driver_sql("SELECT COUNT(*) FROM qz_learners").scalar()
    assert n_learners == 7
    assert len(s.history(s.learner_id("student0"))) == 2 * per_thread


def test_get_store_is_cached_per_url(db_url):
    url = db_url
    assert get_store(url) is get_store(url)
    store_mod._STORES.pop(url)


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
    for name, given in (("ana", 0), ("bo", 0), ("cy", 1)):
        lid = store.learner_id(name)
        store.record_answer(lid, question_id=q.id, chapter="ch1", set_name="bank", mode="practice",
                            given=given, correct=given == q.answer, misconception=q.misconception)  # fmt: skip
    lid = store.learner_id("ana")
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
