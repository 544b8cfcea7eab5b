"""Class-wide queries: what a teacher (or an admin's CLI) reads about many learners at once.

Every query takes an optional class_id (None: the whole database) and never crosses into another class: per-learner
histories of a class, its exams, answer counts, per-question statistics with the most common wrong picks
(QuestionStats), misconception counts, the class size and the CSV export of every answer (spreadsheet formulas
neutralised with csv_safe). ClassQueries is one of the mixins rocm_bridge.quiz.store.Store is made of; it uses the
Store's engine.
"""

from __future__ import annotations

import csv
import io
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from rocm_bridge.quiz.review import Answer
from rocm_bridge.quiz.schema import answers, exams, learners
from rocm_bridge.text import csv_safe


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


def _in_class(table: Any, class_id: int | None) -> Any:
    return True if class_id is None else table.c.class_id == class_id


class ClassQueries:
    """One class's (or everyone's) histories, exams, statistics and CSV export."""

    engine: Engine

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
