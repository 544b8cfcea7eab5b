"""Search across the course: chapter sections, the glossary, quiz explanations and the hipify mapping table.

One index per language, built on first use from the files the pages themselves read (content/<lang>/*.md,
content/glossary.yaml, content/quiz/*.yaml, data/hipify_mappings.csv). A CUDA name finds its HIP name and the
chapters that mention it, and a CUDA name also finds the chapter sections that teach its HIP twin (cudaMalloc finds
the sections about hipMalloc), each with the section heading to link to. Matching is case-insensitive on words for English and on substrings for Chinese (which
has no spaces), so "流" finds "流（stream）" and "hipMalloc" finds "hipMallocManaged" only as a weaker match.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

MAX_QUERY = 200  # characters; longer queries are cut (a search box, not a paste target)
# a query term: a run of CJK characters (Chinese has no spaces: "波前" is one term), or a run of anything else
# that is neither space nor CJK ("cudaMalloc", "MIOPEN_USER_DB_PATH", "6.4", "__shfl_sync")
_WORD = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+|[^\s\u3400-\u9fff\uf900-\ufaff，。、；：？！（）“”]+")
_HEADING = re.compile(r"^(#{2,3})\s+(.*)$", re.MULTILINE)
_MD_NOISE = re.compile(r"[`*>$\\|]")  # underscores stay: they are part of API names


@dataclass(frozen=True)
class Hit:
    kind: str  # chapter | glossary | quiz | api
    page: str  # page key to open (chapter, quiz, hipify)
    title: str  # what the hit is called (section heading, term, question id, CUDA name)
    snippet: str  # plain text around the match
    score: float
    section: str = ""  # a chapter hit's section heading ("" for the chapter's opening), for a link to that section
    via: str = ""  # the HIP twin that matched, when the query named its CUDA original


@dataclass(frozen=True)
class _Doc:
    kind: str
    page: str
    title: str
    text: str
    lower: str


def _plain(markdown: str) -> str:
    return re.sub(r"\s+", " ", _MD_NOISE.sub("", markdown)).strip()


def _chapter_docs(lang: str) -> list[_Doc]:
    from rocm_bridge.course import content
    from rocm_bridge.pages import CHAPTERS

    docs = []
    for chapter in CHAPTERS:
        blocks = content.load(chapter, lang) or ()
        text = "\n\n".join(b.text for b in blocks if b.kind in ("markdown", "story", "takeaways", "misconceptions"))
        # one document per section, so a hit says where in the chapter it is
        parts = _HEADING.split(text)
        sections = [("", parts[0])] + [(parts[i + 1], parts[i + 2]) for i in range(1, len(parts) - 2, 3)]
        for heading, body in sections:
            plain = _plain(body)
            if plain:
                docs.append(_Doc("chapter", chapter, _plain(heading), plain, plain.lower()))
    return docs


def _glossary_docs(lang: str) -> list[_Doc]:
    from rocm_bridge.course import glossary

    docs = []
    for term in glossary.terms():
        text = f"{term.en} · {term.zh} — {term.note.get(lang, '')}"
        docs.append(_Doc("glossary", "ch1", term.label(lang), text, text.lower()))
    return docs


def _quiz_docs(lang: str) -> list[_Doc]:
    from rocm_bridge.quiz.bank import bank

    docs = []
    for q in bank().questions:
        text = _plain(f"{q.t('prompt', lang)} {q.t('explanation', lang)}")
        docs.append(_Doc("quiz", "quiz", q.id, text, text.lower()))
    return docs


def _api_docs(chapters: list[_Doc]) -> list[_Doc]:
    from rocm_bridge.data import read_csv

    names: dict[str, dict[str, str]] = {}
    for row in read_csv("hipify_mappings.csv"):
        if row["hip_name"] and row["cuda_name"] not in names:
            names[row["cuda_name"]] = row
    docs = []
    for cuda, row in names.items():
        taught = sorted({d.page for d in chapters if cuda in d.text or row["hip_name"] in d.text})
        text = f"{cuda} → {row['hip_name']} ({row['target_library']}, {row['section']})"
        if taught:
            text += " · " + ", ".join(taught)
        docs.append(_Doc("api", taught[0] if taught else "hipify", cuda, text, text.lower()))
    return docs


@lru_cache(maxsize=2)
def _index(lang: str) -> tuple[_Doc, ...]:
    chapters = _chapter_docs(lang)
    return tuple(chapters + _glossary_docs(lang) + _quiz_docs(lang) + _api_docs(chapters))


@lru_cache(maxsize=1)
def _twins() -> dict[str, str]:
    """CUDA name (lower case) -> its HIP name, from the mapping table hipify uses."""
    from rocm_bridge.data import read_csv

    out: dict[str, str] = {}
    for row in read_csv("hipify_mappings.csv"):
        if row["hip_name"] and row["hip_name"] != row["cuda_name"]:
            out.setdefault(row["cuda_name"].lower(), row["hip_name"])
    return out


def _terms(query: str) -> list[str]:
    return [t.lower() for t in _WORD.findall(query[:MAX_QUERY]) if t.strip()]


def _snippet(doc: _Doc, term: str, width: int = 160) -> str:
    found = re.search(re.escape(term), doc.text, re.IGNORECASE)  # on the text itself: lower() can change lengths
    at = found.start() if found else 0
    start = max(at - width // 3, 0)
    text = doc.text[start:start + width]
    return ("…" if start else "") + text + ("…" if start + width < len(doc.text) else "")


_KIND_WEIGHT = {"api": 3.0, "glossary": 2.5, "chapter": 1.5, "quiz": 1.0}


def search(query: str, lang: str = "en", limit: int = 30) -> list[Hit]:
    """Hits for every term of the query (all must match), best first.

    >>> hit = search("cudaMalloc", "en")[0]
    >>> (hit.kind, hit.title, "hipMalloc" in hit.snippet)
    ('api', 'cudaMalloc', True)
    >>> search("   ", "en")
    []
    """
    terms = _terms(str(query))
    if not terms:
        return []
    twins = _twins()
    # each term matches itself or, for a CUDA name, its HIP twin (a section teaching hipMalloc answers cudaMalloc)
    options = [(t, twins.get(t, "").lower()) for t in terms]
    hits = []
    for doc in _index(lang if lang in ("en", "zh") else "en"):
        via = ""
        for t, twin in options:
            if t in doc.lower:
                continue
            if twin and twin in doc.lower:
                via = via or twins[t]
                continue
            break
        else:
            title = doc.title.lower()
            exact = sum(2.0 for t in terms if t == title) + sum(1.0 for t in terms if t in title)
            whole = sum(1.0 for t, twin in options
                        if re.search(rf"(?<![\w]){re.escape(t)}(?![\w])", doc.lower)
                        or (twin and re.search(rf"(?<![\w]){re.escape(twin)}(?![\w])", doc.lower)))
            score = _KIND_WEIGHT[doc.kind] * (1 + exact + whole) / (1 + len(doc.text) / 2000)
            first = terms[0] if terms[0] in doc.lower else options[0][1]
            hits.append(Hit(doc.kind, doc.page, doc.title, _snippet(doc, first), round(score, 4),
                            doc.title if doc.kind == "chapter" else "", via if doc.kind != "api" else ""))
    hits.sort(key=lambda h: -h.score)
    return hits[:limit]
