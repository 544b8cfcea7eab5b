"""Handout content (rocm_bridge/handout.py): widgets left out, every graded question on the sheet with its key."""

import pytest

from rocm_bridge import handout, i18n
from rocm_bridge.pages import CHAPTERS
from rocm_bridge.quiz.bank import bank


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_sheet_has_every_graded_question_with_its_key(chapter, lang):
    items = handout.quiz_sheet(chapter, lang)
    graded = bank().select(chapters=[chapter], sets=["bank"], graded_only=True)
    assert [i.qid for i in items] == [q.id for q in graded] and [i.number for i in items] == list(range(1, len(items) + 1))
    for item, q in zip(items, graded, strict=True):
        if q.type in ("single", "code"):
            assert item.answer == handout.LETTERS[q.answer]
        elif q.type == "multiple":
            assert item.answer == ", ".join(handout.LETTERS[i] for i in sorted(q.answer))
        else:
            assert item.answer and not item.options


def test_chapter_handout_leaves_widgets_out_and_keeps_formulas():
    blocks = handout.chapter_blocks("ch3", "en")
    assert not any(b.kind == "widget" for b in blocks)
    assert any(b.kind == "formula" for b in blocks) and any(b.kind == "markdown" for b in blocks)
    with pytest.raises(KeyError):
        handout.chapter_blocks("ch99", "en")
