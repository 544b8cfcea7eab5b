"""Per-chapter mastery from a learner's answer history."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rocm_bridge.quiz.bank import Bank
from rocm_bridge.quiz.generate import GENERATORS
from rocm_bridge.quiz.model import CHAPTERS
from rocm_bridge.quiz.review import Answer, card_states


@dataclass(frozen=True)
class ChapterMastery:
    chapter: str
    pool: int  # gradable questions in the chapter (bank, misconceptions, generator kinds)
    answered: int  # distinct questions answered at least once
    mastered: int  # distinct questions whose latest answer is right
    n_answers: int
    n_correct: int

    @property
    def mastery(self) -> float:
        """Share of the chapter's questions whose latest answer is right (0..1)."""
        return self.mastered / self.pool if self.pool else 0.0

    @property
    def accuracy(self) -> float:
        return self.n_correct / self.n_answers if self.n_answers else 0.0


def chapter_pools(bank: Bank) -> dict[str, set[str]]:
    pools: dict[str, set[str]] = {ch: set() for ch in CHAPTERS}
    for q in bank.questions:
        if q.graded:
            pools[q.chapter].add(q.id)
    for g in GENERATORS.values():
        pools[g.chapter].add(g.id)
    return pools


def mastery_by_chapter(bank: Bank, history: Iterable[Answer]) -> list[ChapterMastery]:
    history = list(history)
    pools = chapter_pools(bank)
    states = card_states(history)
    out = []
    for ch in CHAPTERS:
        pool = pools[ch]
        mine = [a for a in history if a.question_id in pool]
        out.append(
            ChapterMastery(
                ch,
                len(pool),
                sum(1 for qid in pool if qid in states),
                sum(1 for qid in pool if qid in states and states[qid].last_correct),
                len(mine),
                sum(a.correct for a in mine),
            )
        )
    return out
