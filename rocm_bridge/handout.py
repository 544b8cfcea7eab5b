"""Printable handouts: a chapter without its widgets, and a quiz sheet with an answer key (headless)."""

from __future__ import annotations

from dataclasses import dataclass

from rocm_bridge import content
from rocm_bridge.pages import CHAPTERS

LETTERS = "ABCDEFGH"


@dataclass(frozen=True)
class SheetItem:
    number: int
    qid: str
    prompt: str
    code: str
    options: tuple[str, ...]  # lettered A, B, ... for choice questions; empty for numeric / true-false
    answer: str  # the key: letters, true / false, or the number with its unit
    explanation: str
    source: str


def chapter_blocks(chapter: str, lang: str) -> tuple[content.Block, ...]:
    """The chapter's blocks in this language (English where it is not written), widgets left out."""
    if chapter not in CHAPTERS:
        raise KeyError(chapter)
    blocks = content.load(chapter, lang) or content.load(chapter, "en") or ()
    return tuple(b for b in blocks if b.kind != "widget")


def quiz_sheet(chapter: str, lang: str) -> tuple[SheetItem, ...]:
    """Every graded bank question of a chapter, numbered, with its key (from quiz.scoring.correct_answer_text).

    >>> items = quiz_sheet("ch1", "en")
    >>> items[0].number, bool(items[0].prompt), bool(items[0].answer)
    (1, True, True)
    """
    from rocm_bridge.quiz.bank import bank
    from rocm_bridge.quiz.scoring import correct_answer_text

    items = []
    for n, q in enumerate(bank().select(chapters=[chapter], sets=["bank"], graded_only=True), start=1):
        options = tuple(q.option_labels(lang)) if q.type in ("single", "multiple", "code") else ()
        if options:
            answers = q.answer if isinstance(q.answer, tuple) else (q.answer,)
            key = ", ".join(LETTERS[i] for i in sorted(answers))
        else:
            key = correct_answer_text(q, lang)
        items.append(SheetItem(n, q.id, q.t("prompt", lang), q.code, options, key, q.t("explanation", lang),
                               q.source))
    return tuple(items)
