"""Spaced repetition (a Leitner schedule) and the order of the "review mistakes" mode.

A right answer moves a question up one box, a wrong one sends it back to box 0. Box n is due again
INTERVALS_S[n] after the last answer. Questions whose latest answer was wrong come first, then those due.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# box 0: now; then 10 minutes, 1 hour, 1 day, 3 days, 1 week, 3 weeks
INTERVALS_S: tuple[float, ...] = (0.0, 600.0, 3600.0, 86400.0, 3 * 86400.0, 7 * 86400.0, 21 * 86400.0)


@dataclass(frozen=True)
class Answer:
    question_id: str
    correct: bool
    answered_at: float  # unix seconds


@dataclass(frozen=True)
class CardState:
    question_id: str
    box: int
    last_correct: bool
    last_at: float
    n_answers: int
    n_wrong: int

    @property
    def due_at(self) -> float:
        return self.last_at + INTERVALS_S[self.box]


def card_states(history: Iterable[Answer]) -> dict[str, CardState]:
    """The Leitner box of every answered question after replaying its answers in time order."""
    states: dict[str, CardState] = {}
    for a in sorted(history, key=lambda a: a.answered_at):
        prev = states.get(a.question_id)
        box = 0 if not a.correct else min((prev.box + 1) if prev else 1, len(INTERVALS_S) - 1)
        states[a.question_id] = CardState(
            a.question_id,
            box,
            a.correct,
            a.answered_at,
            (prev.n_answers if prev else 0) + 1,
            (prev.n_wrong if prev else 0) + (not a.correct),
        )
    return states


def review_queue(history: Iterable[Answer], now: float, *, include_not_due: bool = False) -> list[str]:
    """Question ids to review: latest answer wrong first (oldest mistake first), then due ones (most overdue first).

    With include_not_due, the rest follow in due order, so a learner can keep going.
    """
    states = card_states(history)
    wrong = sorted((s for s in states.values() if not s.last_correct), key=lambda s: s.last_at)
    right = sorted((s for s in states.values() if s.last_correct), key=lambda s: s.due_at)
    due = [s for s in right if s.due_at <= now]
    rest = [s for s in right if s.due_at > now] if include_not_due else []
    return [s.question_id for s in (*wrong, *due, *rest)]
