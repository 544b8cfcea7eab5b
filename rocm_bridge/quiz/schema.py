"""The database schema (SQLAlchemy Core tables) and its migration, run once under a lock.

Why not Alembic: the schema is ten small tables, the app must create and upgrade it itself on first start
(a teacher runs one command, no migration step), and Alembic alone does not stop two replicas that start at
the same moment from both creating it (the race of issue 18 item 6). So: SQLAlchemy's own `create_all` plus a
one-row version table, both inside one transaction that first takes a lock every process agrees on:
`pg_advisory_xact_lock` on PostgreSQL, an `flock` on a lock file next to the SQLite file. Upgrades are
numbered functions in MIGRATIONS, applied in order inside that same locked transaction.
"""

from __future__ import annotations

import fcntl
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    inspect,
    select,
    text,
)
from sqlalchemy.engine import Connection, Engine

SCHEMA_VERSION = 4
NICK_MAX = 24  # characters (NFKC), what the nickname column holds
KEY_MAX = 96  # the nickname key column: casefold can triple a character (ΐ -> 3), so 3 * 24 fits
QID_MAX = 96  # question ids (bank ids are at most 80, generator ids far fewer)
ADVISORY_LOCK_ID = 0x524F434D  # "ROCM": any constant every replica agrees on

metadata = MetaData()

schema_version = Table(
    "rb_schema",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("version", Integer, nullable=False),
    Column("migrated_at", Float, nullable=False),
)

classes = Table(
    "rb_classes",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("join_code", String(12), nullable=False, unique=True),
    Column("name", String(60), nullable=False),
    Column("key_salt", String(32), nullable=False),  # hex
    Column("key_hash", String(128), nullable=False),  # hex scrypt(teacher key, salt)
    Column("created_at", Float, nullable=False),
)

learners = Table(
    "rb_learners",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("class_id", Integer, nullable=False, default=0),  # 0: not in a class
    Column("nickname", String(NICK_MAX), nullable=False),
    Column("nickname_key", String(KEY_MAX), nullable=False),  # NFKC + casefold + confusable skeleton
    Column("nickname_look", String(KEY_MAX), nullable=False),  # NFKC + confusable skeleton (case kept)
    Column("resume_hash", String(64), unique=True),  # sha256 of the resume code; NULL: legacy, unreachable
    Column("created_at", Float, nullable=False),
    UniqueConstraint("class_id", "nickname_key", name="rb_learners_nick_in_class"),
    UniqueConstraint("class_id", "nickname_look", name="rb_learners_look_in_class"),
)

exams = Table(
    "rb_exams",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("learner_id", Integer, ForeignKey("rb_learners.id", ondelete="CASCADE"), nullable=False),
    Column("class_id", Integer, nullable=False, default=0),
    Column("status", String(10), nullable=False, default="open"),  # open | finished | abandoned
    Column("seed", String(64), nullable=False, default=""),  # rebuilds the same paper after a restart
    Column("chapter", String(8), nullable=False, default=""),
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float),
    Column("n_questions", Integer, nullable=False),
    Column("n_correct", Integer),
    Column("duration_s", Integer, nullable=False),
    Column("progress", Text, nullable=False, default="{}"),  # JSON {question id: given} saved while answering
)
Index("rb_exams_learner", exams.c.learner_id, exams.c.status)

answers = Table(
    "rb_answers",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("learner_id", Integer, ForeignKey("rb_learners.id", ondelete="CASCADE"), nullable=False),
    Column("class_id", Integer, nullable=False, default=0),
    Column("question_id", String(QID_MAX), nullable=False),
    Column("chapter", String(8), nullable=False),
    Column("set_name", String(16), nullable=False),
    Column("mode", String(12), nullable=False),
    Column("given", Text, nullable=False),  # JSON
    Column("correct", Boolean, nullable=False),
    Column("misconception", String(QID_MAX), nullable=False, default=""),
    Column("exam_id", Integer),
    Column("client_key", String(40)),  # set by the session: a retried write is stored once
    Column("answered_at", Float, nullable=False),
    Column("exam_slot", Integer),  # exam answers: the question's place in the paper (version 4)
    UniqueConstraint("learner_id", "client_key", name="rb_answers_once"),
)
# One answer per question of an exam, however many tabs submit it (issue 27.12): the latest one wins (upsert).
# NULLs are distinct in a unique index on both databases, so answers outside exams are not affected.
EXAM_SLOT_INDEX = Index("rb_answers_exam_slot", answers.c.exam_id, answers.c.exam_slot, unique=True)
Index("rb_answers_learner", answers.c.learner_id, answers.c.answered_at)
Index("rb_answers_class", answers.c.class_id, answers.c.question_id)

reads = Table(
    "rb_reads",
    metadata,
    Column("learner_id", Integer, ForeignKey("rb_learners.id", ondelete="CASCADE"), nullable=False),
    Column("chapter", String(8), nullable=False),
    Column("read_at", Float, nullable=False),
    PrimaryKeyConstraint("learner_id", "chapter"),
)

polls = Table(
    "rb_polls",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("class_id", Integer, ForeignKey("rb_classes.id", ondelete="CASCADE"), nullable=False),
    Column("question_id", String(QID_MAX), nullable=False),
    Column("seed", Integer, nullable=False, default=0),  # generated questions: the numbers everyone sees
    Column("status", String(10), nullable=False),  # open | revealed | closed
    Column("opened_at", Float, nullable=False),
    Column("revealed_at", Float),
    Column("closed_at", Float),
    Column("n_answers", Integer),  # recorded when closed
    Column("n_correct", Integer),
)
Index("rb_polls_class", polls.c.class_id, polls.c.status)

poll_answers = Table(
    "rb_poll_answers",
    metadata,
    Column("poll_id", Integer, ForeignKey("rb_polls.id", ondelete="CASCADE"), nullable=False),
    Column("learner_id", Integer, ForeignKey("rb_learners.id", ondelete="CASCADE"), nullable=False),
    Column("given", Text, nullable=False),
    Column("correct", Boolean, nullable=False),
    Column("answered_at", Float, nullable=False),
    PrimaryKeyConstraint("poll_id", "learner_id"),
)

teacher_sessions = Table(
    "rb_teacher_sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # sha256 of the token in the teacher's cookie
    Column("class_id", Integer, ForeignKey("rb_classes.id", ondelete="CASCADE"), nullable=False),
    Column("expires_at", Float, nullable=False),
)

attempts = Table(
    "rb_attempts",
    metadata,
    Column("bucket", String(120), nullable=False),
    Column("window", Integer, nullable=False),
    Column("n", Integer, nullable=False),
    PrimaryKeyConstraint("bucket", "window"),
)


def _from_v1(conn: Connection) -> None:
    """Copy the pre-classroom tables (qz_*) if present. Their learners had no resume code, so they get none:
    nobody can take over their history by typing the nickname, and the answers still count in the totals."""
    names = set(inspect(conn).get_table_names())
    if "qz_learners" not in names:
        return
    conn.execute(
        text(
            "INSERT INTO rb_learners (id, class_id, nickname, nickname_key, nickname_look, resume_hash, created_at) "
            "SELECT id, 0, nickname, 'legacy:' || CAST(id AS VARCHAR(20)), 'legacy:' || CAST(id AS VARCHAR(20)), "
            "NULL, created_at FROM qz_learners"
        )
    )
    if "qz_exams" in names:
        conn.execute(
            text(
                "INSERT INTO rb_exams (id, learner_id, class_id, status, seed, chapter, started_at, finished_at, "
                "n_questions, n_correct, duration_s, progress) SELECT id, learner_id, 0, CASE WHEN finished_at "
                "IS NULL THEN 'abandoned' ELSE 'finished' END, '', '', started_at, finished_at, n_questions, "
                "n_correct, duration_s, '{}' FROM qz_exams"
            )
        )
    if "qz_answers" in names:
        conn.execute(
            text(
                "INSERT INTO rb_answers (id, learner_id, class_id, question_id, chapter, set_name, mode, given, "
                "correct, misconception, exam_id, client_key, answered_at) SELECT id, learner_id, 0, question_id, "
                "chapter, set_name, mode, given, correct, misconception, exam_id, NULL, answered_at FROM qz_answers"
            )
        )
    if conn.dialect.name == "postgresql":  # the copied ids were explicit: move the sequences past them
        for table in ("rb_learners", "rb_exams", "rb_answers"):
            conn.execute(
                text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false) "
                     f"FROM {table}")
            )  # fmt: skip


def _exam_slots(conn: Connection) -> None:
    """Version 4: rb_answers.exam_slot and the unique index on (exam_id, exam_slot). Older exam answers keep a
    NULL slot (they may hold the duplicates of issue 27.12, which stay as history); create_all made both on a
    new database, so each step checks first."""
    if "exam_slot" not in {c["name"] for c in inspect(conn).get_columns("rb_answers")}:
        conn.execute(text("ALTER TABLE rb_answers ADD COLUMN exam_slot INTEGER"))
    EXAM_SLOT_INDEX.create(conn, checkfirst=True)


# version -> step that brings a database from version-1 to version (run in order, under the lock); version 3
# only adds rb_teacher_sessions, which create_all makes
MIGRATIONS: dict[int, Any] = {2: _from_v1, 4: _exam_slots}


@contextmanager
def _file_lock(engine: Engine):
    database = engine.url.database
    if not database or database == ":memory:":
        yield
        return
    with open(Path(database).with_suffix(".schema-lock"), "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def current_version(conn: Connection) -> int:
    if not inspect(conn).has_table("rb_schema"):
        return 0
    return int(conn.execute(select(schema_version.c.version).where(schema_version.c.id == 1)).scalar() or 0)


def ensure_schema(engine: Engine) -> int:
    """Create or upgrade the schema exactly once, however many processes start at the same moment."""
    postgres = engine.dialect.name == "postgresql"
    lock = _file_lock(engine) if engine.dialect.name == "sqlite" else _no_lock()
    with lock, engine.begin() as conn:
        if postgres:  # replicas starting together wait here for each other: longer than a click's timeouts
            conn.execute(text("SET LOCAL lock_timeout = '120s'"))
            conn.execute(text("SET LOCAL statement_timeout = '300s'"))
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": ADVISORY_LOCK_ID})
        version = current_version(conn)
        if version >= SCHEMA_VERSION:
            return version
        metadata.create_all(conn, checkfirst=True)
        for step in range(version + 1, SCHEMA_VERSION + 1):  # version 0: new, or the qz_* tables of v1
            if step in MIGRATIONS:
                MIGRATIONS[step](conn)
        if version == 0:
            conn.execute(schema_version.insert().values(id=1, version=SCHEMA_VERSION, migrated_at=time.time()))
        else:
            conn.execute(
                schema_version.update().where(schema_version.c.id == 1).values(
                    version=SCHEMA_VERSION, migrated_at=time.time()
                )
            )
        return SCHEMA_VERSION


@contextmanager
def _no_lock():
    yield
