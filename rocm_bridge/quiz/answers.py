"""Answers and exams: the Store's writes while a learner works, and the reads of one learner's own record.

record_answer stores a graded answer once even when the browser's outbox sends it again (client_key), and one row per
exam question (an upsert on the exam and its slot, so a second tab replaces the first); an exam goes open -> finished
or abandoned (close_stale_exams closes those nobody came back to, EXAM_GRACE_S past their deadline); history and
exams_of read one learner's answers and exams back. AnswerQueries is one of the mixins
rocm_bridge.quiz.store.Store is made of; it uses the Store's engine and dialect.
"""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from rocm_bridge.errors import InvalidInput
from rocm_bridge.quiz.review import Answer
from rocm_bridge.quiz.schema import QID_MAX, answers, exams, learners

MODES = ("practice", "exam", "review", "chapter", "interview", "poll")
EXAM_GRACE_S = 3600  # an open exam this long past its deadline is closed as abandoned


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


class AnswerQueries:
    """Record answers; start, save, resume, finish and abandon exams; one learner's answers and exams."""

    engine: Engine
    dialect: str

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
