"""Search across the course (rocm_bridge/course/search.py), its CLI and its page."""

import json
import subprocess
import sys

import pytest

from rocm_bridge import i18n
from rocm_bridge.course.search import MAX_QUERY, search
from rocm_bridge.data import read_csv


def test_a_cuda_name_finds_its_hip_name_and_the_chapters_that_use_it():
    hit = search("cudaMemcpyAsync", "en")[0]
    assert hit.kind == "api" and hit.title == "cudaMemcpyAsync"
    row = next(r for r in read_csv("hipify_mappings.csv") if r["cuda_name"] == "cudaMemcpyAsync" and r["hip_name"])
    assert row["hip_name"] in hit.snippet
    assert hit.page.startswith("ch")  # a chapter teaches it, so the hit opens that chapter


@pytest.mark.parametrize("query, lang, kind", [("波前", "zh", "glossary"), ("wavefront", "en", "glossary"),
                                                ("MIOPEN_USER_DB_PATH", "en", "chapter")])
def test_terms_find_glossary_and_chapter_text_in_each_language(query, lang, kind):
    hits = search(query, lang)
    assert any(h.kind == kind for h in hits), hits[:3]
    assert all(query.lower() in (h.snippet + h.title).lower() or h.kind == "api" for h in hits[:5])


def test_every_word_must_match_and_empty_or_huge_queries_are_harmless():
    both = search("occupancy LDS", "en")
    assert both and all("lds" in h.snippet.lower() or "occupancy" in h.snippet.lower() for h in both)
    assert len(both) <= len(search("occupancy", "en"))
    assert search("", "en") == [] and search("  \n", "zh") == []
    assert search("x" * 100_000, "en") == []  # cut to MAX_QUERY, no match, no error
    assert MAX_QUERY <= 200
    assert search("cudaMalloc", "klingon")  # an unknown language searches English


def test_cli_prints_hits_and_json():
    out = subprocess.run([sys.executable, "-m", "rocm_bridge", "search", "cudaMalloc", "--json", "--limit", "3"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    hits = json.loads(out.stdout)
    assert len(hits) == 3 and hits[0]["title"] == "cudaMalloc"
    none = subprocess.run([sys.executable, "-m", "rocm_bridge", "search", "qqqzzzxxyy"], capture_output=True,
                          text=True, timeout=120)
    assert none.returncode == 1


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_search_page_shows_hits_with_links_and_keeps_the_query_in_the_link(app_test, lang):
    at = app_test("views/search.py", lang=lang, q="cudaMalloc")
    assert not at.exception
    assert at.text_input(key="q").value == "cudaMalloc"
    labels = [p.proto.label for p in at.get("page_link")]
    assert any(label.startswith(i18n.t("search.open", lang, title="")) for label in labels)
    assert at.query_params["q"] in ("cudaMalloc", ["cudaMalloc"])


def test_search_page_escapes_what_the_user_typed(app_test):
    at = app_test("views/search.py", q="![x](http://example.invalid/a.png) qqqzzz")
    assert not at.exception
    message = at.info[0].value
    assert "\\!\\[x\\]" in message and "](http" not in message.replace("\\]\\(", "")


def test_a_cuda_name_finds_the_sections_that_teach_its_hip_twin():
    """Issue 23: searching a CUDA name lists the chapter sections that teach its HIP twin, even where the CUDA
    name itself is not written, each with its heading (the page links to that section) and a snippet."""
    for lang in ("en", "zh"):
        hits = [h for h in search("cudaStreamCreate", lang, limit=60) if h.kind == "chapter"]
        twin_only = [h for h in hits if h.via == "hipStreamCreate"]
        assert twin_only, (lang, [(h.page, h.title) for h in hits])
        for h in twin_only:
            assert "cudastreamcreate" not in h.snippet.lower() and "hipstreamcreate" in h.snippet.lower()
            assert h.section == h.title and h.section  # a heading to link to
    # a HIP name itself is not expanded, and a name with no twin matches only itself
    assert all(h.via == "" for h in search("hipStreamCreate", "en"))
