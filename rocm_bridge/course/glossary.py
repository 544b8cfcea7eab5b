"""The course glossary (content/glossary.yaml): one term per concept, in both languages.

Pages show it (the `glossary` chapter widget); tests/test_content.py checks that Chinese course text never uses a
spelling the glossary lists under `avoid_zh`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

GLOSSARY_PATH = Path(__file__).resolve().parents[2] / "content" / "glossary.yaml"


@dataclass(frozen=True)
class Term:
    id: str
    en: str
    zh: str
    avoid_zh: tuple[str, ...]
    note: dict[str, str]

    def label(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


def parse(doc: object) -> tuple[Term, ...]:
    """Validated terms; ValueError names the first problem.

    >>> parse({"terms": [{"id": "gcd", "en": "GCD", "zh": "计算裸片", "avoid_zh": ["图形计算芯片"],
    ...                  "note": {"en": "two per MI250", "zh": "每颗 MI250 两个"}}]})[0].zh
    '计算裸片'
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("terms"), list):
        raise ValueError("the glossary maps 'terms' to a list")
    terms, seen = [], set()
    for raw in doc["terms"]:
        if not isinstance(raw, dict):
            raise ValueError("a term is a mapping")
        tid = raw.get("id")
        if not isinstance(tid, str) or not tid or tid in seen:
            raise ValueError(f"bad or duplicate term id {tid!r}")
        seen.add(tid)
        note = raw.get("note") or {}
        for name in ("en", "zh"):
            if not isinstance(raw.get(name), str) or not raw[name].strip():
                raise ValueError(f"{tid}: {name} is missing")
            if not isinstance(note.get(name), str):
                raise ValueError(f"{tid}: note.{name} is missing")
        avoid = raw.get("avoid_zh") or []
        if not isinstance(avoid, list) or not all(isinstance(a, str) and a for a in avoid):
            raise ValueError(f"{tid}: avoid_zh is a list of strings")
        if any(a in raw["zh"] for a in avoid):
            raise ValueError(f"{tid}: the chosen term contains a spelling it avoids")
        terms.append(Term(tid, raw["en"].strip(), raw["zh"].strip(), tuple(avoid), dict(note)))
    return tuple(terms)


@lru_cache(maxsize=1)
def terms() -> tuple[Term, ...]:
    import yaml  # only when the glossary is first read

    return parse(yaml.safe_load(GLOSSARY_PATH.read_text(encoding="utf-8")))
