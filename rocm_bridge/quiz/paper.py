"""Choosing questions: a practice deck, an exam paper, the review deck and a chapter's end-of-page quiz."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from rocm_bridge.quiz.bank import Bank
from rocm_bridge.quiz.generate import generate, generators_for
from rocm_bridge.quiz.model import CHAPTERS, Question
from rocm_bridge.quiz.scoring import PaperScore, score_paper

EXAM_SIZES: tuple[int, ...] = (5, 10, 20, 30)
SECONDS_PER_QUESTION = 90


def practice_deck(
    bank: Bank, *, sets: Sequence[str], chapters: Sequence[str] | None, rng: random.Random, generated: bool
) -> list[Question]:
    """A shuffled deck from the chosen sets and chapters, with fresh generated items when asked."""
    chapters = list(chapters) if chapters else list(CHAPTERS)
    deck = bank.select(sets=sets, chapters=chapters)
    if generated:
        deck += [g.make(rng) for g in generators_for(chapters) for _ in range(2)]
    rng.shuffle(deck)
    return deck


def build_exam(
    bank: Bank, n: int, *, chapters: Sequence[str] | None, rng: random.Random, generated_share: float = 0.2
) -> list[Question]:
    """n graded questions spread over the chapters, about generated_share of them generated."""
    chapters = list(chapters) if chapters else list(CHAPTERS)
    pool = bank.select(sets=("bank", "misconceptions"), chapters=chapters, graded_only=True)
    gens = generators_for(chapters)
    n_gen = min(round(n * generated_share), n) if gens else 0
    n_bank = min(n - n_gen, len(pool))
    # round-robin over chapters so a short exam still covers them
    by_ch: dict[str, list[Question]] = {}
    for q in rng.sample(pool, len(pool)):
        by_ch.setdefault(q.chapter, []).append(q)
    picked: list[Question] = []
    order = [ch for ch in chapters if ch in by_ch]
    rng.shuffle(order)
    while len(picked) < n_bank:
        for ch in order:
            if by_ch[ch] and len(picked) < n_bank:
                picked.append(by_ch[ch].pop())
    picked += [rng.choice(gens).make(rng) for _ in range(n - len(picked))] if gens else []
    rng.shuffle(picked)
    return picked


def chapter_quiz(bank: Bank, chapter: str, *, seed: int, size: int = 3) -> list[Question]:
    """A short quiz for the end of a chapter page: bank questions plus one generated item if the chapter has one."""
    rng = random.Random(f"{chapter}:{seed}")
    pool = bank.select(sets=("bank", "misconceptions"), chapters=[chapter], graded_only=True)
    gens = generators_for([chapter])
    n_bank = size - 1 if gens else size
    out = rng.sample(pool, min(n_bank, len(pool)))
    if gens:
        out.append(generate(rng.choice(gens).id, rng))
    return out


@dataclass
class ExamState:
    """An exam in progress: kept in the session so a rerun never loses an answer."""

    questions: list[Question]
    started_at: float
    duration_s: int
    exam_id: int | None = None
    answers: dict[str, object] = field(default_factory=dict)
    finished_at: float | None = None

    def remaining_s(self, now: float) -> float:
        return max(0.0, self.started_at + self.duration_s - now)

    def expired(self, now: float) -> bool:
        return self.remaining_s(now) <= 0

    def score(self) -> PaperScore:
        return score_paper(self.questions, self.answers)
