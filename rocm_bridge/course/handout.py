"""Printable handouts: a chapter with each widget as one static chart or table, and a quiz sheet with an answer key
(headless; rocm_bridge.ui.handout_view lays it out for print)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from rocm_bridge.course import content, widgets
from rocm_bridge.course.widgets import PrintChart, PrintPicture, PrintTable
from rocm_bridge.pages import CHAPTERS
from rocm_bridge.visual import figures

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
    """The chapter's blocks in this language (English where it is not written), with_cards."""
    if chapter not in CHAPTERS:
        raise KeyError(chapter)
    return with_cards(content.load(chapter, lang) or content.load(chapter, "en") or ())


def with_cards(blocks: tuple[content.Block, ...]) -> tuple[content.Block, ...]:
    """A widget keeps its place (print it with widget_print) after its formula card, which is added where the
    chapter has not shown that card yet.

    >>> [(b.kind, b.text) for b in with_cards(content.parse("::: widget occupancy\\n::: widget occupancy"))]
    [('formula', 'occupancy'), ('widget', 'occupancy'), ('widget', 'occupancy')]
    """
    out: list[content.Block] = []
    shown: set[str] = set()
    for block in blocks:
        card = block.text if block.kind == "formula" else None
        if block.kind == "widget":
            card = widgets.WIDGETS[block.text].formula
            if card and card not in shown:
                out.append(content.Block("formula", card))
        out.append(block)
        if card:
            shown.add(card)
    return tuple(out)


def split_heading(markdown: str) -> tuple[str, str]:
    """Markdown without its last line when that line is a heading, and the heading (for print: a heading stays
    with the card or chart it introduces).

    >>> split_heading("Text.\\n\\n## The formula")
    ('Text.', '## The formula')
    >>> split_heading("## Title\\n\\nText.")
    ('## Title\\n\\nText.', '')
    """
    head, _, last = markdown.rstrip().rpartition("\n")
    if last.lstrip().startswith("#"):
        return head.rstrip(), last.strip()
    return markdown, ""


@lru_cache(maxsize=64)
def widget_print(name: str, lang: str) -> PrintChart | PrintTable | PrintPicture:
    """What the handout shows for a widget: its chart at the default inputs in print colours, or its table.
    Built once per widget and language (the figure is only read afterwards)."""
    item = widgets.print_item(name, lang)
    if isinstance(item, PrintChart):
        item = replace(item, figure=figures.for_print(item.figure))
    return item


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
