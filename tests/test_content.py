"""The course text: every chapter in both languages, well-formed directives, each formula where it belongs."""

import pytest

from rocm_bridge import content
from rocm_bridge.formulas import FORMULAS
from rocm_bridge.i18n import LANGS
from rocm_bridge.pages import CHAPTERS

DOCS = ("home", *CHAPTERS)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("doc", DOCS)
def test_document_exists_and_parses(doc, lang):
    blocks = content.load(doc, lang)
    assert blocks is not None, f"content/{lang}/{doc}.md is missing"
    words = sum(len(b.text.split()) if lang == "en" else len(b.text) // 2 for b in blocks)
    assert words > (80 if doc == "home" else 500), f"{doc} ({lang}) is too short to be a chapter"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_has_the_course_structure(chapter, lang):
    kinds = [b.kind for b in content.load(chapter, lang)]
    for needed in ("story", "takeaways", "misconceptions"):
        assert needed in kinds, f"{chapter} ({lang}) lacks a {needed} block"
    text = "\n".join(b.text for b in content.load(chapter, lang))
    assert "### " in text and ("http" in text), f"{chapter} ({lang}) needs a sources section with links"


@pytest.mark.parametrize("formula", FORMULAS.values(), ids=lambda f: f.id)
def test_each_formula_is_taught_in_its_chapter_in_both_languages(formula):
    for lang in LANGS:
        cards = [b.text for b in content.load(formula.chapter, lang) if b.kind == "formula"]
        assert formula.id in cards, f"{formula.chapter} ({lang}) does not show the {formula.id} formula"


def test_languages_have_the_same_directives():
    for doc in DOCS:
        en = [(b.kind, b.text) for b in content.load(doc, "en") if b.kind in ("formula", "widget", "lab")]
        zh = [(b.kind, b.text) for b in content.load(doc, "zh") if b.kind in ("formula", "widget", "lab")]
        assert sorted(en) == sorted(zh), f"{doc}: en and zh embed different formulas / widgets / labs"


@pytest.mark.parametrize(
    "bad",
    ["::: nonsense", "::: formula nope", "::: lab nowhere", "::: story\nunclosed", ":::", "::: story\n::: lab home\n:::"],
)
def test_malformed_directives_are_refused(bad):
    with pytest.raises(content.ContentError):
        content.parse(bad)


def test_parse_splits_blocks():
    blocks = content.parse("intro\n::: story\nonce\n:::\n::: formula speedup\n::: lab hipify\nend")
    assert [(b.kind, b.text) for b in blocks] == [
        ("markdown", "intro"),
        ("story", "once"),
        ("formula", "speedup"),
        ("lab", "hipify"),
        ("markdown", "end"),
    ]
