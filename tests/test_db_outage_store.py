"""The store under faults (issue 27): timeouts instead of hangs behind a lock (item 11), exam answers idempotent per
question and the schema migration that makes them so (item 12). SQLite and the private PostgreSQL (tests/pg.py)."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, func, inspect, select, text
from sqlalchemy.exc import OperationalError

from rocm_bridge.quiz import schema
from rocm_bridge.quiz.schema import answers
from rocm_bridge.quiz.store import Store


def _answer(db: Store, lid: int, exam_id: int, slot: int, given: int, key: str) -> int:
    return db.record_answer(lid, question_id=f"q{slot}", chapter="ch1", set_name="bank", mode="exam", given=given,
                            correct=given == 1, exam_id=exam_id, exam_slot=slot, client_key=key)  # fmt: skip


def _rows(db: Store, exam_id: int) -> list[tuple[int, str]]:
    with db.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(
            select(answers.c.exam_slot, answers.c.given).where(answers.c.exam_id == exam_id).order_by(answers.c.exam_slot)
        )]  # fmt: skip


def test_two_tabs_submitting_one_exam_store_one_answer_per_question(db_url):
    """Two tabs of one learner in one exam (4 questions): tab A submits 4 answers, tab B 2 of them again with other
    values. Before: 6 rows for 4 questions. Now one per question, the latest submission's value."""
    db = Store(db_url)
    lid = db.learner_id("Two Tabs")
    exam = db.start_exam(lid, 4, 240, seed="s")
    first = [_answer(db, lid, exam, slot, 0, f"a{slot}") for slot in range(4)]
    again = [_answer(db, lid, exam, slot, 1, f"b{slot}") for slot in range(2)]
    assert again == first[:2]  # the same rows, updated
    assert _rows(db, exam) == [(0, "1"), (1, "1"), (2, "0"), (3, "0")]
    assert _answer(db, lid, exam, 3, 0, "a3") == first[3]  # a retry of A's write: still one row
    assert db.count_answers() == 4
    db.engine.dispose()


def test_version_3_database_is_upgraded_to_exam_slots(db_url):
    """A database of schema version 3 (no exam_slot) gets the column and the unique index under the migration
    lock, keeps its answers, and then takes exam answers idempotently."""
    db = Store(db_url)
    lid = db.learner_id("Old Timer")
    db.record_answer(lid, question_id="q", chapter="ch1", set_name="bank", mode="practice", given=1, correct=True)
    with db.engine.begin() as conn:  # back to what version 3 had
        conn.execute(text("DROP INDEX rb_answers_exam_slot"))
        conn.execute(text("ALTER TABLE rb_answers DROP COLUMN exam_slot"))
        conn.execute(text("UPDATE rb_schema SET version = 3"))
    db.engine.dispose()
    engine = create_engine(db_url)
    try:
        assert schema.ensure_schema(engine) == schema.SCHEMA_VERSION == 4
        assert "exam_slot" in {c["name"] for c in inspect(engine).get_columns("rb_answers")}
        assert "rb_answers_exam_slot" in {i["name"] for i in inspect(engine).get_indexes("rb_answers")}
        assert schema.ensure_schema(engine) == 4  # once
    finally:
        engine.dispose()
    db = Store(db_url)
    exam = db.start_exam(lid, 2, 120, seed="s")
    _answer(db, lid, exam, 0, 0, "x")
    _answer(db, lid, exam, 0, 1, "y")
    assert _rows(db, exam) == [(0, "1")] and db.count_answers() == 2
    db.engine.dispose()


def test_a_write_behind_a_table_lock_fails_fast_on_postgres(pg_url):
    """Item 11: a lock on the answers table made a click hang (21 s in the review). Every pooled connection has
    lock_timeout set by the server at connect, so the write gives up with an error the outbox keeps."""
    import psycopg

    db = Store(pg_url)
    lid = db.learner_id("Locked Out")
    with db.engine.connect() as conn:
        settings = dict(conn.execute(text("SELECT name, setting FROM pg_settings WHERE name IN "
                                          "('lock_timeout', 'statement_timeout')")).all())  # fmt: skip
    assert 0 < int(settings["lock_timeout"]) <= 5000 and 0 < int(settings["statement_timeout"]) <= 30000
    with psycopg.connect(pg_url.replace("postgresql+psycopg://", "postgresql://")) as holder:
        holder.execute("LOCK TABLE rb_answers IN EXCLUSIVE MODE")
        with pytest.raises(OperationalError, match="lock timeout"):
            db.record_answer(lid, question_id="q", chapter="ch1", set_name="bank", mode="practice", given=1,
                             correct=True, client_key="k1")  # fmt: skip
        assert db.history(lid) == []  # reads still pass: EXCLUSIVE lets SELECT through
        holder.rollback()
    db.record_answer(lid, question_id="q", chapter="ch1", set_name="bank", mode="practice", given=1, correct=True,
                     client_key="k1")  # fmt: skip
    with db.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(answers)).scalar_one() == 1
    db.engine.dispose()


def test_classroom_check_says_whether_the_database_answers(db_url, monkeypatch, capsys):
    """`python -m rocm_bridge classroom check`: the readiness check for an admin's shell (and a probe's exec)."""
    import argparse

    from rocm_bridge.classroom import cli

    monkeypatch.setenv("ROCM_BRIDGE_DB_URL", db_url)
    Store(db_url).engine.dispose()
    assert cli.run(argparse.Namespace(action="check")) == 0 and capsys.readouterr().out.strip() == "ready"
    wrong = "postgresql+psycopg://rocm_bridge:wrong@127.0.0.1:1/none"
    monkeypatch.setenv("ROCM_BRIDGE_DB_URL", wrong)
    assert cli.run(argparse.Namespace(action="check")) == 1
    assert capsys.readouterr().out.strip() == "database: OperationalError"
