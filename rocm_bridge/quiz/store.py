"""Persistence of learners, answers, exams and chapters read, with SQLAlchemy Core (parameterised statements only).

Default: SQLite in a data directory ($ROCM_BRIDGE_DATA_DIR, else ~/.local/share/rocm_bridge), WAL mode, so
many sessions can write at once. A shared classroom server sets ROCM_BRIDGE_DB_URL to PostgreSQL
(postgresql+psycopg://user@host/db). The schema lives in rocm_bridge.quiz.schema and is created under a lock.

A learner is a nickname plus a private resume code (shown once): the nickname is a name tag inside a class
(unique by its look-alike-proof key), the resume code is what gives back a history. No personal data.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import os
import re
import threading
import time
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, delete, event, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from rocm_bridge.classroom import codes
from rocm_bridge.errors import InvalidInput, RocmBridgeError
from rocm_bridge.quiz.review import Answer
from rocm_bridge.quiz.schema import KEY_MAX, NICK_MAX, QID_MAX, answers, ensure_schema, exams, learners, reads
from rocm_bridge.text import csv_safe

DB_FILE = "quiz.sqlite3"
NICK_MIN = 2
_NICK_RE = re.compile(r"^[^\W_][\w .\-]*$")

MODES = ("practice", "exam", "review", "chapter", "interview", "poll")
EXAM_GRACE_S = 3600  # an open exam this long past its deadline is closed as abandoned
# A click must not hang behind a table lock or a slow query (issue 27.11: 21 s with no message): PostgreSQL gives
# up waiting for a lock after LOCK_TIMEOUT_MS and on any statement after STATEMENT_TIMEOUT_MS, SQLite after
# BUSY_TIMEOUT_MS; a pool with every connection busy makes a caller wait at most POOL_TIMEOUT_S. The write then
# stays in the outbox and the page shows the outage notice. The schema migration sets its own, longer limits.
LOCK_TIMEOUT_MS = 2000
STATEMENT_TIMEOUT_MS = 5000
BUSY_TIMEOUT_MS = 3000
POOL_TIMEOUT_S = 5
POOL_SIZE, POOL_OVERFLOW = 10, 20  # per replica: replicas x 30 must stay under max_connections (docs/deploy.md)


class NicknameError(InvalidInput):
    key = "quiz.errors.nickname_chars"


class NicknameTaken(InvalidInput):
    key = "classroom.errors.nickname_taken"


class StoreUnavailable(RocmBridgeError, RuntimeError):
    key = "quiz.errors.database"


def validate_nickname(raw: str) -> str:
    """The nickname as stored (NFKC, trimmed, inner spaces collapsed) or NicknameError with the reason.

    The length is checked on what the columns hold: the nickname (NICK_MAX characters) and its key."""
    nick = " ".join(unicodedata.normalize("NFKC", str(raw or "")).split())
    if not NICK_MIN <= len(nick) <= NICK_MAX or max(len(nickname_key(nick)), len(nickname_look(nick))) > KEY_MAX:
        raise NicknameError("quiz.errors.nickname_length", min=NICK_MIN, max=NICK_MAX)
    if any(codes.invisible(c) for c in nick):  # a Hangul filler after "Alice" would look like "Alice"
        raise NicknameError("quiz.errors.nickname_invisible")
    if not _NICK_RE.match(nick):
        raise NicknameError("quiz.errors.nickname_chars")
    if "@" in nick or re.search(r"\d{7,}", nick.replace(" ", "").replace("-", "")):
        raise NicknameError("quiz.errors.nickname_personal")
    return nick


def nickname_key(nick: str) -> str:
    """The uniqueness key: 'Ana', 'ANA' and 'Аna' (Cyrillic А) are one name in a class."""
    return codes.skeleton(nick)


def nickname_look(nick: str) -> str:
    """The second uniqueness key, case kept: 'AIice' (capital I) and 'Alice' are one name in a class."""
    return codes.skeleton(nick, fold=False)


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
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


log = logging.getLogger("rocm_bridge.db")
_logged: dict[str, float] = {}
_log_lock = threading.Lock()
LOG_EVERY_S = 10


def log_db_error(exc: BaseException, where: str) -> None:
    """Database errors go to the server log (stderr): one line per kind of error and place every LOG_EVERY_S,
    so 100 students retrying during an outage do not flood it. The message is the driver's (libpq never echoes
    the password)."""
    kind = f"{where}:{type(exc).__name__}"
    now = time.monotonic()
    with _log_lock:
        if now - _logged.get(kind, -LOG_EVERY_S) < LOG_EVERY_S:
            return
        _logged[kind] = now
    detail = " ".join(str(getattr(exc, "orig", None) or exc).split())[:300]
    log.warning("database error in %s: %s: %s", where, type(exc).__name__, detail)


def pg_connect_args() -> dict[str, Any]:
    """psycopg connection arguments: connect within 5 s; lock and statement timeouts set for the session by the
    server at connect (libpq `options`), so every statement of every pooled connection has them."""
    return {"connect_timeout": 5, "application_name": "rocm_bridge",
            "options": f"-c lock_timeout={LOCK_TIMEOUT_MS} -c statement_timeout={STATEMENT_TIMEOUT_MS}"}  # fmt: skip


@dataclass(frozen=True)
class Learner:
    id: int
    nickname: str
    class_id: int  # 0: not in a class


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


def _upsert(dialect: str, values: dict[str, Any]) -> Any:
    """INSERT ... ON CONFLICT (exam_id, exam_slot) DO UPDATE: the latest answer to an exam's question wins."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    stmt = insert(answers).values(**values)
    keep = ("given", "correct", "misconception", "answered_at", "client_key", "question_id")
    return stmt.on_conflict_do_update(
        index_elements=[answers.c.exam_id, answers.c.exam_slot], set_={k: stmt.excluded[k] for k in keep}
    ).returning(answers.c.id)


def _in_class(table: Any, class_id: int | None) -> Any:
    return True if class_id is None else table.c.class_id == class_id


class Store:
    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        try:
            if self.url.startswith("sqlite:///"):
                path = Path(self.url.removeprefix("sqlite:///"))
                path.parent.mkdir(parents=True, exist_ok=True)
                self.engine: Engine = create_engine(self.url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
                event.listen(self.engine, "connect", _sqlite_pragmas)
            else:
                # a database host that drops packets must not hang every page for minutes: 5 s, then the outbox
                extra = {"connect_args": pg_connect_args()} if self.url.startswith("postgresql") else {}
                self.engine = create_engine(self.url, pool_pre_ping=True, pool_size=POOL_SIZE, max_overflow=POOL_OVERFLOW,
                                            pool_timeout=POOL_TIMEOUT_S, **extra)  # fmt: skip
            ensure_schema(self.engine)
            self.close_stale_exams()  # exams nobody came back to (a restart, a closed laptop): not open forever
        except (SQLAlchemyError, OSError) as exc:
            raise StoreUnavailable(detail=type(exc).__name__) from exc

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    # --- learners ---------------------------------------------------------------------------------------

    def join(self, nickname: str, class_id: int = 0) -> tuple[Learner, str]:
        """A new learner and their resume code (returned once, stored only as a hash).

        NicknameTaken when the name (or a look-alike of it) is already used in this class: typing someone
        else's nickname never gives their history."""
        nick = validate_nickname(nickname)
        code = codes.new_resume_code()
        try:
            with self.engine.begin() as conn:
                lid = conn.execute(
                    learners.insert().values(
                        class_id=class_id,
                        nickname=nick,
                        nickname_key=nickname_key(nick),
                        nickname_look=nickname_look(nick),
                        resume_hash=codes.resume_hash(codes.clean_code(code, codes.RESUME_LEN) or code),
                        created_at=time.time(),
                    )
                ).inserted_primary_key[0]
        except IntegrityError:
            raise NicknameTaken(nick=nick) from None
        return Learner(int(lid), nick, class_id), code

    def learner_id(self, nickname: str, class_id: int = 0) -> int:
        """The id of a NEW learner with this nickname (scripts and benches; the resume code is dropped).
        NicknameTaken if the name is in use: a nickname never leads to someone else's history."""
        return self.join(nickname, class_id)[0].id

    def resume(self, code: str) -> Learner | None:
        """The learner this resume code belongs to, or None (wrong, deleted, or not a code at all)."""
        clean = codes.clean_code(code, codes.RESUME_LEN)
        if clean is None:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(learners.c.id, learners.c.nickname, learners.c.class_id).where(
                    learners.c.resume_hash == codes.resume_hash(clean)
                )
            ).first()
        return Learner(int(row.id), row.nickname, int(row.class_id)) if row else None

    def learner(self, learner_id: int) -> Learner | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(learners.c.id, learners.c.nickname, learners.c.class_id).where(learners.c.id == learner_id)
            ).first()
        return Learner(int(row.id), row.nickname, int(row.class_id)) if row else None

    def nickname(self, learner_id: int) -> str | None:
        found = self.learner(learner_id)
        return found.nickname if found else None

    def delete_learner(self, learner_id: int) -> None:
        """Everything stored about a learner: answers, exams, chapters read, poll answers, the name."""
        from rocm_bridge.quiz.schema import poll_answers

        with self.engine.begin() as conn:
            for table in (answers, exams, reads, poll_answers):
                conn.execute(delete(table).where(table.c.learner_id == learner_id))
            conn.execute(delete(learners).where(learners.c.id == learner_id))

    def export_learner(self, learner_id: int) -> dict[str, Any]:
        """A learner's own data as one JSON-able document (what 'download my data' gives)."""
        me = self.learner(learner_id)
        if me is None:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(answers).where(answers.c.learner_id == learner_id).order_by(answers.c.answered_at)
            ).mappings()
            my_answers = [
                {k: (json.loads(v) if k == "given" else v) for k, v in r.items() if k not in ("id", "learner_id")}
                for r in rows
            ]
        return {
            "nickname": me.nickname,
            "class_id": me.class_id,
            "chapters_read": sorted(self.chapters_read(learner_id)),
            "answers": my_answers,
            "exams": [{k: v for k, v in e.items() if k != "learner_id"} for e in self.exams_of(learner_id)],
        }

    # --- chapters read ----------------------------------------------------------------------------------

    def mark_read(self, learner_id: int, chapter: str) -> None:
        try:
            with self.engine.begin() as conn:
                conn.execute(reads.insert().values(learner_id=learner_id, chapter=chapter, read_at=time.time()))
        except IntegrityError:  # already read: the first time counts
            pass

    def chapters_read(self, learner_id: int) -> set[str]:
        with self.engine.connect() as conn:
            return set(conn.execute(select(reads.c.chapter).where(reads.c.learner_id == learner_id)).scalars())

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
        client_key: str | None = None,
        exam_slot: int | None = None,
    ) -> int:
        """Store one graded answer. With a client_key, writing the same answer again (a retry after an
        outage) stores it once and returns the first row's id. An exam answer with its slot (the question's place
        in the paper) is one row per (exam, slot): a second tab's submission replaces it (upsert)."""
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        if len(question_id) > QID_MAX or len(misconception or "") > QID_MAX:
            raise InvalidInput("errors.invalid_input")
        values = dict(
            learner_id=learner_id,
            class_id=select(learners.c.class_id).where(learners.c.id == learner_id).scalar_subquery(),
            question_id=question_id,
            chapter=chapter,
            set_name=set_name,
            mode=mode,
            given=json.dumps(given, ensure_ascii=False),
            correct=bool(correct),
            misconception=misconception or "",
            exam_id=exam_id,
            client_key=client_key,
            answered_at=time.time() if answered_at is None else answered_at,
        )
        if exam_id is not None and exam_slot is not None:
            values["exam_slot"] = int(exam_slot)
            stmt = _upsert(self.dialect, values)
        else:
            stmt = answers.insert().values(**values).returning(answers.c.id)
        try:
            with self.engine.begin() as conn:
                return int(conn.execute(stmt).scalar_one())
        except IntegrityError:
            if client_key is None:
                raise
            with self.engine.connect() as conn:
                found = conn.execute(
                    select(answers.c.id).where(answers.c.learner_id == learner_id, answers.c.client_key == client_key)
                ).scalar()
            if found is None:
                raise
            return int(found)

    def start_exam(
        self, learner_id: int, n_questions: int, duration_s: int, *, seed: str = "", chapter: str = ""
    ) -> int:
        with self.engine.begin() as conn:
            return int(
                conn.execute(
                    exams.insert().values(
                        learner_id=learner_id,
                        class_id=select(learners.c.class_id).where(learners.c.id == learner_id).scalar_subquery(),
                        status="open",
                        seed=seed,
                        chapter=chapter,
                        started_at=time.time(),
                        n_questions=n_questions,
                        duration_s=duration_s,
                        progress="{}",
                    )
                ).inserted_primary_key[0]
            )

    def save_exam_progress(self, exam_id: int, progress: dict[str, Any]) -> None:
        """The answers given so far, so a reload or a server restart resumes the exam."""
        with self.engine.begin() as conn:
            conn.execute(
                update(exams)
                .where(exams.c.id == exam_id, exams.c.status == "open")
                .values(progress=json.dumps(progress, ensure_ascii=False))
            )

    def open_exam(self, learner_id: int) -> dict[str, Any] | None:
        """The learner's unfinished exam (latest), with its saved answers decoded, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(exams)
                .where(exams.c.learner_id == learner_id, exams.c.status == "open")
                .order_by(exams.c.started_at.desc())
                .limit(1)
            ).mappings().first()
        if row is None:
            return None
        out = dict(row)
        out["progress"] = json.loads(out["progress"] or "{}")
        return out

    def finish_exam(self, exam_id: int, n_correct: int) -> bool:
        """Close an open exam with its score; False if it was already closed (a double click, another tab)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                update(exams)
                .where(exams.c.id == exam_id, exams.c.status == "open")
                .values(status="finished", finished_at=time.time(), n_correct=n_correct)
            )
            return done.rowcount == 1

    def abandon_exam(self, exam_id: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(exams)
                .where(exams.c.id == exam_id, exams.c.status == "open")
                .values(status="abandoned", finished_at=time.time())
            )

    def close_stale_exams(self, now: float | None = None) -> int:
        """Open exams whose time ran out more than EXAM_GRACE_S ago: closed as abandoned (nobody came back)."""
        now = time.time() if now is None else now
        with self.engine.begin() as conn:
            done = conn.execute(
                update(exams)
                .where(exams.c.status == "open", exams.c.started_at + exams.c.duration_s + EXAM_GRACE_S < now)
                .values(status="abandoned", finished_at=now)
            )
            return int(done.rowcount)

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

    def class_histories(self, class_id: int) -> dict[int, tuple[str, list[Answer]]]:
        """learner id -> (nickname, graded answers in time order), for every learner of a class."""
        out: dict[int, tuple[str, list[Answer]]] = {}
        with self.engine.connect() as conn:
            for r in conn.execute(select(learners.c.id, learners.c.nickname).where(learners.c.class_id == class_id)):
                out[int(r.id)] = (r.nickname, [])
            rows = conn.execute(
                select(answers.c.learner_id, answers.c.question_id, answers.c.correct, answers.c.answered_at)
                .where(answers.c.class_id == class_id)
                .order_by(answers.c.answered_at)
            )
            for r in rows:
                if r.learner_id in out:
                    out[r.learner_id][1].append(Answer(r.question_id, bool(r.correct), float(r.answered_at)))
        return out

    def class_exams(self, class_id: int) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(exams, learners.c.nickname)
                .join(learners, learners.c.id == exams.c.learner_id)
                .where(exams.c.class_id == class_id)
                .order_by(exams.c.started_at)
            ).mappings()
            return [dict(r) for r in rows]

    def count_answers(self, class_id: int | None = None) -> int:
        with self.engine.connect() as conn:
            return int(
                conn.execute(select(func.count()).select_from(answers).where(_in_class(answers, class_id))).scalar_one()
            )

    # --- aggregation ------------------------------------------------------------------------------------

    def question_stats(self, class_id: int | None = None) -> list[QuestionStats]:
        """Per question, over every learner (of one class): answers, learners, wrong answers and the most common wrong picks."""
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
                )
                .where(_in_class(answers, class_id))
                .group_by(answers.c.question_id)
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
                .where(answers.c.correct.is_(False), _in_class(answers, class_id))
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

    def misconception_counts(self, class_id: int | None = None) -> list[tuple[str, int, int]]:
        """(misconception id, wrong answers revealing it, learners who gave them), most common first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    answers.c.misconception,
                    func.count().label("n"),
                    func.count(answers.c.learner_id.distinct()).label("n_learners"),
                )
                .where(answers.c.correct.is_(False), answers.c.misconception != "", _in_class(answers, class_id))
                .group_by(answers.c.misconception)
                .order_by(func.count().desc(), answers.c.misconception)
            )
            return [(r.misconception, int(r.n), int(r.n_learners)) for r in rows]

    def class_size(self, class_id: int | None = None) -> int:
        """Learners who answered at least once (in one class)."""
        with self.engine.connect() as conn:
            return int(
                conn.execute(
                    select(func.count(answers.c.learner_id.distinct())).where(_in_class(answers, class_id))
                ).scalar_one()
            )

    # --- export -----------------------------------------------------------------------------------------

    def export_answers_csv(self, class_id: int | None = None) -> str:
        """Every answer (of one class) with its learner's nickname, as CSV text (spreadsheet formulas neutralised)."""
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
                .where(_in_class(answers, class_id))
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
