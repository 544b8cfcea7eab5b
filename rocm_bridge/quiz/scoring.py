"""Checking an answer and scoring a paper. Answers are plain JSON-able values so they can be stored.

given, by type: single/code -> option index (int); multiple -> list of indices; true_false -> bool;
numeric -> number; open -> self-assessment "got" | "partial" | "missed".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from rocm_bridge.quiz.model import Question

SELF_ASSESSMENT: tuple[str, ...] = ("got", "partial", "missed")


def normalize_given(question: Question, given: Any) -> Any:
    """The answer in canonical form, or None when nothing (or nothing usable) was given."""
    if given is None:
        return None
    qtype = question.type
    try:
        if qtype in ("single", "code"):
            if isinstance(given, bool):
                return None
            index = int(given)
            return index if 0 <= index < len(question.options) else None
        if qtype == "multiple":
            if isinstance(given, (str, bytes)) or not hasattr(given, "__iter__"):
                return None
            picked = sorted({int(i) for i in given})
            return picked if picked and all(0 <= i < len(question.options) for i in picked) else None
        if qtype == "true_false":
            return given if isinstance(given, bool) else None
        if qtype == "numeric":
            if isinstance(given, bool):
                return None
            number = float(given)
            return number if math.isfinite(number) else None
        if qtype == "open":
            return given if given in SELF_ASSESSMENT else None
    except (TypeError, ValueError):
        return None
    return None


def is_correct(question: Question, given: Any) -> bool:
    """Whether the given answer is right (an unanswered question is wrong)."""
    value = normalize_given(question, given)
    if value is None:
        return False
    if question.type in ("single", "code", "true_false"):
        return value == question.answer
    if question.type == "multiple":
        return tuple(value) == tuple(question.answer)
    if question.type == "numeric":
        # a tiny relative slack so that 0.1 + 0.2 style rounding never fails a right answer
        slack = question.tolerance + 1e-9 * max(1.0, abs(question.answer))
        return abs(value - question.answer) <= slack
    if question.type == "open":
        return value == "got"
    return False


@dataclass(frozen=True)
class PaperScore:
    n_questions: int
    n_answered: int
    n_correct: int
    per_chapter: dict[str, tuple[int, int]]  # chapter -> (correct, total)
    wrong_ids: tuple[str, ...]

    @property
    def percent(self) -> float:
        return 100.0 * self.n_correct / self.n_questions if self.n_questions else 0.0


def score_paper(questions: list[Question], answers: dict[str, Any]) -> PaperScore:
    """answers maps a question's id to its given answer (missing = unanswered)."""
    per_chapter: dict[str, list[int]] = {}
    n_answered = n_correct = 0
    wrong: list[str] = []
    for q in questions:
        given = answers.get(q.id)
        answered = normalize_given(q, given) is not None
        ok = answered and is_correct(q, given)
        n_answered += answered
        n_correct += ok
        if not ok:
            wrong.append(q.id)
        bucket = per_chapter.setdefault(q.chapter, [0, 0])
        bucket[0] += ok
        bucket[1] += 1
    return PaperScore(
        len(questions), n_answered, n_correct, {k: (v[0], v[1]) for k, v in per_chapter.items()}, tuple(wrong)
    )


def format_answer(question: Question, given: Any, lang: str) -> str:
    """A human-readable rendering of an answer (for the review list and the CSV export)."""
    value = normalize_given(question, given)
    if value is None:
        return "—"
    if question.type in ("single", "code"):
        return question.option_labels(lang)[value]
    if question.type == "multiple":
        labels = question.option_labels(lang)
        return "; ".join(labels[i] for i in value)
    if question.type == "true_false":
        from rocm_bridge.i18n import t

        return t("quiz.true" if value else "quiz.false", lang)
    if question.type == "numeric":
        return f"{value:g} {question.unit}".strip()
    return str(value)


def correct_answer_text(question: Question, lang: str) -> str:
    if question.type == "open":
        return question.t("model_answer", lang)
    if question.type == "multiple":
        return format_answer(question, list(question.answer), lang)
    return format_answer(question, question.answer, lang)
