"""The course text: every chapter in both languages, well-formed directives, each formula where it belongs."""

import pytest

from rocm_bridge.course import content
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


# --- glossary: one term per concept (content/glossary.yaml, docs/course.md "Glossary policy") ---

def _chinese_course_text() -> dict[str, str]:
    """Every piece of Chinese course text: chapter pages, zh fields of the quiz bank, chapter UI strings."""

    from rocm_bridge.quiz.bank import load_bank

    texts = {f"content/zh/{p.name}": p.read_text(encoding="utf-8") for p in (content.CONTENT_DIR / "zh").glob("*.md")}
    for q in load_bank().questions:
        parts = [q.prompt["zh"], q.explanation["zh"], *(o["zh"] for o in q.options)]
        if q.model_answer:
            parts.append(q.model_answer["zh"])
        texts[f"quiz:{q.id}"] = "\n".join(parts)
    from rocm_bridge import i18n

    # every UI string of every page, not only the chapters': the labs' Chinese must use the same terms
    for key, entry in i18n.catalog().items():
        texts[f"locales:{key}"] = entry["zh"]
    return texts


def test_glossary_is_valid_and_shown():
    from rocm_bridge.course import glossary

    terms = glossary.terms()
    assert {"kernel", "dispatch", "indicator", "gcd"} <= {t.id for t in terms}
    for lang in LANGS:  # the chapter that introduces the vocabulary embeds the table
        assert ("widget", "glossary") in [(b.kind, b.text) for b in content.load("ch1", lang)]
    with pytest.raises(ValueError):
        glossary.parse({"terms": [{"id": "x", "en": "a", "zh": "分发", "avoid_zh": ["分发"], "note": {"en": "", "zh": ""}}]})


def test_chinese_text_uses_only_glossary_terms():
    from rocm_bridge.course import glossary

    bad = [
        f"{where}: {avoid!r} (use {term.zh!r})"
        for term in glossary.terms()
        for where, text in _chinese_course_text().items()
        for avoid in term.avoid_zh
        if avoid in text
    ]
    assert not bad, "\n".join(bad)


def test_the_glossary_check_finds_a_stray_term(tmp_path):
    from rocm_bridge.course import glossary

    gcd = next(t for t in glossary.terms() if t.id == "gcd")
    assert any(a in "一颗 MI250 有两个图形计算芯片" for a in gcd.avoid_zh)


# --- release status: no page calls a production ROCm release a preview (data/rocm_releases.csv, as of its dates) ---

def _production_releases() -> list[str]:
    import csv

    path = content.CONTENT_DIR.parent / "data" / "rocm_releases.csv"
    rows = list(csv.DictReader(path.read_text(encoding="utf-8").splitlines()))
    assert all(r["as_of"] and r["source"] for r in rows), "every release row needs an as-of date and a source"
    return [r["release"].removesuffix(".x") for r in rows if r["status"].startswith("production")]


def _calls_preview(text: str, release: str) -> bool:
    import re

    v = re.escape(release.removesuffix(".0")) + r"(?:\.0)?"
    patterns = (
        rf"(?<![\d.]){v}(?![\d])\s*\(?\s*(?:preview|pre-release|预览)",
        rf"(?:preview|预览版?)\s*(?:release\s*)?(?:of\s*)?(?:ROCm\s*)?(?:Core SDK\s*)?{v}(?![\d])",
    )
    return any(re.search(p, text, re.IGNORECASE) for p in patterns)


def test_the_preview_detector_works():
    assert _calls_preview("With the ROCm 10.0 preview pip wheels", "10.0.0")
    assert _calls_preview("ROCm 10.0 预览版中以 dev 构建出现", "10.0.0")
    assert not _calls_preview("ROCm 10.0.0, a production release whose TensorFlow builds are dev builds", "10.0.0")
    assert not _calls_preview("7.13.0 | ROCm Core SDK | preview", "7.2")


def test_no_page_calls_a_production_release_a_preview():
    from rocm_bridge.quiz.bank import load_bank

    releases = _production_releases()
    assert "10.0.0" in releases
    texts = {f"{lang}/{doc}": "\n".join(b.text for b in content.load(doc, lang)) for doc in DOCS for lang in LANGS}
    for q in load_bank().questions:
        for lang in LANGS:
            texts[f"quiz:{q.id}:{lang}"] = " ".join([q.prompt[lang], q.explanation[lang], *(o[lang] for o in q.options)])
    bad = [f"{where} calls {r} a preview" for where, t in texts.items() for r in releases if _calls_preview(t, r)]
    assert not bad, "\n".join(bad)
