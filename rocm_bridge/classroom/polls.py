"""Live polls: the teacher opens one question for the class, students answer it, the teacher watches the
distribution, reveals the answer, closes the poll.

Every student answer is written at once to the poll's table and to the learner's answers (mode "poll"), in
one transaction that first checks the poll is still open: an answer either counts and is acknowledged, or is
refused with "the poll was closed" - never acknowledged and then dropped. Closing records the totals.

Students look for the open poll every second (st.fragment(run_every=...)); `current_poll` is cached per class
for POLL_CACHE_S in each server process, so 1,000 students on one replica cost ~1 query per second: most
timer ticks do no database query at all.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass

from sqlalchemy import Boolean, Float, Integer, Text, exists, func, literal, select, update
from sqlalchemy.exc import IntegrityError

from rocm_bridge.quiz import scoring
from rocm_bridge.quiz.bank import bank as the_bank
from rocm_bridge.quiz.generate import GENERATORS, generate
from rocm_bridge.quiz.model import Question
from rocm_bridge.quiz.schema import answers, learners, poll_answers, polls

POLL_CACHE_S = 1.0  # one query per class per replica per second, however many students poll
_cache: dict[tuple[str, int], tuple[float, object]] = {}
_cache_lock = threading.Lock()


@dataclass(frozen=True)
class Poll:
    id: int
    class_id: int
    question_id: str
    seed: int
    status: str  # open | revealed | closed
    opened_at: float

    def question(self) -> Question | None:
        return poll_question(self.question_id, self.seed)


def poll_question(question_id: str, seed: int) -> Question | None:
    """The question everyone in the poll sees: a bank question, or a generated one with the poll's numbers."""
    if question_id in GENERATORS:
        return generate(question_id, random.Random(seed))
    q = the_bank().get(question_id)
    return q if q is not None and q.graded else None


def _forget(class_id: int) -> None:
    with _cache_lock:
        for k in [k for k in _cache if k[1] == class_id]:
            _cache.pop(k, None)


def open_poll(store, class_id: int, question_id: str, seed: int | None = None) -> Poll:
    """Close any poll of the class that is still open, then open this one."""
    if poll_question(question_id, seed or 0) is None:
        raise ValueError(f"not a graded question: {question_id!r}")
    seed = random.randrange(1 << 30) if seed is None else seed
    now = time.time()
    with store.engine.begin() as conn:
        _close(conn, class_id)
        pid = conn.execute(
            polls.insert().values(class_id=class_id, question_id=question_id, seed=seed, status="open", opened_at=now)
        ).inserted_primary_key[0]
    _forget(class_id)
    return Poll(int(pid), class_id, question_id, seed, "open", now)


def current_poll(store, class_id: int, *, fresh: bool = False) -> Poll | None:
    """The class's poll that is open or revealed (cached POLL_CACHE_S unless fresh)."""
    key = (store.url, class_id)
    now = time.monotonic()
    with _cache_lock:
        hit = _cache.get(key)
    if hit and not fresh and now - hit[0] < POLL_CACHE_S:
        return hit[1]  # type: ignore[return-value]
    with store.engine.connect() as conn:
        r = conn.execute(
            select(polls)
            .where(polls.c.class_id == class_id, polls.c.status.in_(("open", "revealed")))
            .order_by(polls.c.id.desc())
            .limit(1)
        ).first()
    poll = Poll(int(r.id), class_id, r.question_id, int(r.seed), r.status, float(r.opened_at)) if r else None
    with _cache_lock:
        _cache[key] = (now, poll)
    return poll


def answer(store, poll: Poll, learner_id: int, given: object) -> str:
    """'ok' (stored, in the poll and in the learner's answers), 'again' (already answered) or 'closed'."""
    q = poll.question()
    if q is None:
        return "closed"
    value = scoring.normalize_given(q, given)
    correct = scoring.is_correct(q, given)
    now = time.time()
    is_open = exists().where(polls.c.id == poll.id, polls.c.status == "open")
    try:
        with store.engine.begin() as conn:  # the first statement writes: SQLite takes its lock before reading
            inserted = conn.execute(
                poll_answers.insert().from_select(
                    ["poll_id", "learner_id", "given", "correct", "answered_at"],
                    select(
                        literal(poll.id, Integer),
                        literal(learner_id, Integer),
                        literal(json.dumps(value), Text),
                        literal(correct, Boolean),
                        literal(now, Float),
                    ).where(is_open),
                ).returning(poll_answers.c.poll_id)
            ).first()
            if inserted is None:  # nothing written: the poll is not open (any more)
                return "closed"
            conn.execute(
                answers.insert().values(
                    learner_id=learner_id,
                    class_id=select(learners.c.class_id).where(learners.c.id == learner_id).scalar_subquery(),
                    question_id=q.record_id,
                    chapter=q.chapter,
                    set_name=q.set,
                    mode="poll",
                    given=json.dumps(value, ensure_ascii=False),
                    correct=correct,
                    misconception=q.misconception,
                    client_key=f"poll:{poll.id}",
                    answered_at=now,
                )
            )
    except IntegrityError:  # (poll, learner) is the key: a second answer from the same learner
        return "again"
    return "ok"


def my_answer(store, poll_id: int, learner_id: int) -> object | None:
    with store.engine.connect() as conn:
        raw = conn.execute(
            select(poll_answers.c.given).where(poll_answers.c.poll_id == poll_id, poll_answers.c.learner_id == learner_id)
        ).scalar()
    return None if raw is None else json.loads(raw)


def distribution(store, poll_id: int) -> tuple[Counter, int, int]:
    """(given JSON -> count, answers, right answers) so far."""
    with store.engine.connect() as conn:
        rows = conn.execute(
            select(poll_answers.c.given, poll_answers.c.correct, func.count().label("n"))
            .where(poll_answers.c.poll_id == poll_id)
            .group_by(poll_answers.c.given, poll_answers.c.correct)
        ).all()
    counts: Counter = Counter()
    right = 0
    for r in rows:
        counts[r.given] += int(r.n)
        right += int(r.n) if r.correct else 0
    return counts, sum(counts.values()), right


def reveal(store, poll: Poll) -> None:
    """Stop taking answers and show the right one with its explanation."""
    with store.engine.begin() as conn:
        conn.execute(
            update(polls).where(polls.c.id == poll.id, polls.c.status == "open").values(
                status="revealed", revealed_at=time.time()
            )
        )
    _forget(poll.class_id)


def _close(conn, class_id: int, poll_id: int | None = None) -> None:
    where = [polls.c.class_id == class_id, polls.c.status.in_(("open", "revealed"))]
    if poll_id is not None:
        where.append(polls.c.id == poll_id)
    n_answers = (
        select(func.count()).select_from(poll_answers).where(poll_answers.c.poll_id == polls.c.id).scalar_subquery()
    )
    n_correct = (
        select(func.count())
        .select_from(poll_answers)
        .where(poll_answers.c.poll_id == polls.c.id, poll_answers.c.correct.is_(True))
        .scalar_subquery()
    )
    conn.execute(
        update(polls).where(*where).values(status="closed", closed_at=time.time(), n_answers=n_answers,
                                           n_correct=n_correct)
    )  # fmt: skip


def close(store, poll: Poll) -> None:
    """Close the poll and record its totals (the answers are already in every learner's history)."""
    with store.engine.begin() as conn:
        _close(conn, poll.class_id, poll.id)
    _forget(poll.class_id)


def history(store, class_id: int) -> list[dict]:
    with store.engine.connect() as conn:
        return [dict(r) for r in conn.execute(
            select(polls).where(polls.c.class_id == class_id, polls.c.status == "closed").order_by(polls.c.id.desc())
        ).mappings()]  # fmt: skip
