"""Persistence of learners, answers and exams with SQLAlchemy (Core, parameterised statements only).

Default: SQLite in a data directory ($ROCM_BRIDGE_DATA_DIR, else ~/.local/share/rocm_bridge), WAL mode, so
many sessions can write at once. A shared classroom server sets ROCM_BRIDGE_DB_URL to any SQLAlchemy URL
(e.g. postgresql+psycopg://user@host/db). Only a nickname identifies a learner: no passwords, no personal data.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import threading
import time
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass
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
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from rocm_bridge.errors import InvalidInput, RocmBridgeError
from rocm_bridge.quiz.review import Answer
from rocm_bridge.text import csv_safe

DB_FILE = "quiz.sqlite3"
NICK_MIN, NICK_MAX = 2, 24
_NICK_RE = re.compile(r"^[^\W_][\w .\-]*$")

metadata = MetaData()

learners = Table(
    "qz_learners",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("nickname", String(NICK_MAX), nullable=False),
    Column("nickname_key", String(NICK_MAX * 2), nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
)

exams = Table(
    "qz_exams",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("learner_id", Integer, ForeignKey("qz_learners.id"), nullable=False),
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float),
    Column("n_questions", Integer, nullable=False),
    Column("n_correct", Integer),
    Column("duration_s", Integer, nullable=False),
)

answers = Table(
    "qz_answers",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("learner_id", Integer, ForeignKey("qz_learners.id"), nullable=False),
    Column("question_id", String(96), nullable=False),
    Column("chapter", String(8), nullable=False),
    Column("set_name", String(16), nullable=False),
    Column("mode", String(12), nullable=False),
    Column("given", Text, nullable=False),  # JSON
    Column("correct", Boolean, nullable=False),
    Column("misconception", String(96), nullable=False, default=""),
    Column("exam_id", Integer, ForeignKey("qz_exams.id")),
    Column("answered_at", Float, nullable=False),
)
Index("qz_answers_learner", answers.c.learner_id, answers.c.answered_at)
Index("qz_answers_question", answers.c.question_id)

MODES = ("practice", "exam", "review", "chapter", "interview")


class NicknameError(InvalidInput):
    key = "quiz.errors.nickname_chars"


class StoreUnavailable(RocmBridgeError, RuntimeError):
    key = "quiz.errors.database"


def validate_nickname(raw: str) -> str:
    """The nickname as stored (NFKC, trimmed, inner spaces collapsed) or NicknameError with the reason."""
    nick = " ".join(unicodedata.normalize("NFKC", str(raw or "")).split())
    if not NICK_MIN <= len(nick) <= NICK_MAX:
        raise NicknameError("quiz.errors.nickname_length", min=NICK_MIN, max=NICK_MAX)
    if not _NICK_RE.match(nick):
        raise NicknameError("quiz.errors.nickname_chars")
    if "@" in nick or re.search(r"\d{7,}", nick.replace(" ", "").replace("-", "")):
        raise NicknameError("quiz.errors.nickname_personal")
    return nick


def default_url() -> str:
    url = os.environ.get("ROCM_BRIDGE_DB_URL", "").strip()
    if url:
        return url
    directory = Path(os.environ.get("ROCM_BRIDGE_DATA_DIR") or Path.home() / ".local" / "share" / "rocm_bridge")
    return f"sqlite:///{directory.expanduser() / DB_FILE}"


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


@dataclass(frozen=True)
class QuestionStats:
    question_id: str
    chapter: str
    set_name: str
    misconception: str
    n_answers: int
    n_learners: int
    n_wrong: int
    common_wrong: tuple[tuple[str, int], ...]  # (given JSON, count), most frequent first

    @property
    def wrong_rate(self) -> float:
        return self.n_wrong / self.n_answers if self.n_answers else 0.0


class Store:
    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        try:
            if self.url.startswith("sqlite:///"):
                path = Path(self.url.removeprefix("sqlite:///"))
                path.parent.mkdir(parents=True, exist_ok=True)
                self.engine: Engine = create_engine(self.url, connect_args={"timeout": 30})
                event.listen(self.engine, "connect", _sqlite_pragmas)
            else:
                self.engine = create_engine(self.url, pool_pre_ping=True)
            metadata.create_all(self.engine)
        except (SQLAlchemyError, OSError) as exc:
            raise StoreUnavailable(detail=type(exc).__name__) from exc

    # --- learners ---------------------------------------------------------------------------------------

    def learner_id(self, nickname: str) -> int:
        """The id of this nickname, created on first use (a nickname is a name tag, not an account)."""
        nick = validate_nickname(nickname)
        key = nick.casefold()
        with self.engine.begin() as conn:
            found = conn.execute(select(learners.c.id).where(learners.c.nickname_key == key)).scalar()
            if found is not None:
                return int(found)
        try:
            with self.engine.begin() as conn:
                return int(
                    conn.execute(
                        learners.insert().values(nickname=nick, nickname_key=key, created_at=time.time())
                    ).inserted_primary_key[0]
                )
        except IntegrityError:  # another session created it between our select and insert
            with self.engine.begin() as conn:
                return int(conn.execute(select(learners.c.id).where(learners.c.nickname_key == key)).scalar_one())

    def nickname(self, learner_id: int) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(select(learners.c.nickname).where(learners.c.id == learner_id)).scalar()

    # --- answers and exams ------------------------------------------------------------------------------

    def record_answer(
        self,
        learner_id: int,
        *,
        question_id: str,
        chapter: str,
        set_name: str,
        mode: str,
        given: Any,
        correct: bool,
        misconception: str = "",
        exam_id: int | None = None,
        answered_at: float | None = None,
    ) -> int:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        with self.engine.begin() as conn:
            return int(
                conn.execute(
                    answers.insert().values(
                        learner_id=learner_id,
                        question_id=question_id,
                        chapter=chapter,
                        set_name=set_name,
                        mode=mode,
                        given=json.dumps(given, ensure_ascii=False),
                        correct=bool(correct),
                        misconception=misconception or "",
                        exam_id=exam_id,
                        answered_at=time.time() if answered_at is None else answered_at,
                    )
                ).inserted_primary_key[0]
            )

    def start_exam(self, learner_id: int, n_questions: int, duration_s: int) -> int:
        with self.engine.begin() as conn:
            return int(
                conn.execute(
                    exams.insert().values(
                        learner_id=learner_id, started_at=time.time(), n_questions=n_questions, duration_s=duration_s
                    )
                ).inserted_primary_key[0]
            )

    def finish_exam(self, exam_id: int, n_correct: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                exams.update()
                .where(exams.c.id == exam_id, exams.c.finished_at.is_(None))
                .values(finished_at=time.time(), n_correct=n_correct)
            )

    def exams_of(self, learner_id: int) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(exams).where(exams.c.learner_id == learner_id).order_by(exams.c.started_at.desc())
            ).mappings()
            return [dict(r) for r in rows]

    def history(self, learner_id: int) -> list[Answer]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(answers.c.question_id, answers.c.correct, answers.c.answered_at)
                .where(answers.c.learner_id == learner_id)
                .order_by(answers.c.answered_at)
            )
            return [Answer(r.question_id, bool(r.correct), float(r.answered_at)) for r in rows]

    def count_answers(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(answers)).scalar_one())

    # --- aggregation ------------------------------------------------------------------------------------

    def question_stats(self) -> list[QuestionStats]:
        """Per question, over every learner: answers, learners, wrong answers and the most common wrong picks."""
        per_q: dict[str, dict[str, Any]] = {}
        wrong_given: dict[str, Counter] = defaultdict(Counter)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    answers.c.question_id,
                    func.max(answers.c.chapter).label("chapter"),
                    func.max(answers.c.set_name).label("set_name"),
                    func.max(answers.c.misconception).label("misconception"),
                    func.count().label("n"),
                    func.count(answers.c.learner_id.distinct()).label("n_learners"),
                ).group_by(answers.c.question_id)
            )
            for r in rows:
                per_q[r.question_id] = {
                    "chapter": r.chapter,
                    "set": r.set_name,
                    "misconception": r.misconception or "",
                    "n": int(r.n),
                    "learners": int(r.n_learners),
                }
            wrong = conn.execute(
                select(answers.c.question_id, answers.c.given, func.count().label("n"))
                .where(answers.c.correct.is_(False))
                .group_by(answers.c.question_id, answers.c.given)
            )
            for r in wrong:
                wrong_given[r.question_id][r.given] += int(r.n)
        out = [
            QuestionStats(
                qid,
                e["chapter"],
                e["set"],
                e["misconception"],
                e["n"],
                e["learners"],
                sum(wrong_given[qid].values()),
                tuple(wrong_given[qid].most_common(3)),
            )
            for qid, e in per_q.items()
        ]
        return sorted(out, key=lambda s: (-s.wrong_rate, -s.n_answers, s.question_id))

    def misconception_counts(self) -> list[tuple[str, int, int]]:
        """(misconception id, wrong answers revealing it, learners who gave them), most common first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    answers.c.misconception,
                    func.count().label("n"),
                    func.count(answers.c.learner_id.distinct()).label("n_learners"),
                )
                .where(answers.c.correct.is_(False), answers.c.misconception != "")
                .group_by(answers.c.misconception)
                .order_by(func.count().desc(), answers.c.misconception)
            )
            return [(r.misconception, int(r.n), int(r.n_learners)) for r in rows]

    def class_size(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count(answers.c.learner_id.distinct()))).scalar_one())

    # --- export -----------------------------------------------------------------------------------------

    def export_answers_csv(self) -> str:
        """Every answer with its learner's nickname, as CSV text (spreadsheet formulas neutralised)."""
        buf = io.StringIO()
        writer = csv.writer(buf)
        writer.writerow(
            [
                "nickname",
                "question_id",
                "chapter",
                "set",
                "mode",
                "given",
                "correct",
                "misconception",
                "exam_id",
                "answered_at_utc",
            ]
        )
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(answers, learners.c.nickname)
                .join(learners, learners.c.id == answers.c.learner_id)
                .order_by(answers.c.answered_at, answers.c.id)
            ).mappings()
            for r in rows:
                writer.writerow(
                    [
                        csv_safe(r["nickname"]),
                        r["question_id"],
                        r["chapter"],
                        r["set_name"],
                        r["mode"],
                        csv_safe(r["given"]),
                        int(bool(r["correct"])),
                        r["misconception"],
                        r["exam_id"] if r["exam_id"] is not None else "",
                        time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(r["answered_at"])),
                    ]
                )
        return buf.getvalue()


_STORES: dict[str, Store] = {}
_LOCK = threading.Lock()


def get_store(url: str | None = None) -> Store:
    """One Store (engine and pool) per URL for the whole process."""
    url = url or default_url()
    with _LOCK:
        if url not in _STORES:
            _STORES[url] = Store(url)
        return _STORES[url]
