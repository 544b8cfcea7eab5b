"""The log doctor: known problems in a pasted TensorFlow / ROCm / CUDA log, from data/log_signatures.csv.

Each catalogue entry has a regular expression, the problem, its cause and fix (English and Chinese) and a
source. Named groups of the pattern ({gfx}, {lib}, ...) fill the texts. The text a user pastes is only
searched and quoted back as plain strings; callers must show it as code, never as HTML.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rocm_bridge.errors import FileTooLarge, NotText

CATALOGUE_CSV = "log_signatures.csv"
MAX_LOG_BYTES = 2_000_000  # a pasted or uploaded log larger than this is refused
SEVERITIES: tuple[str, ...] = ("error", "warning", "info")


@dataclass(frozen=True)
class Signature:
    id: str
    platform: str  # rocm | cuda | any
    severity: str
    pattern: re.Pattern
    texts: dict  # {"en": {"problem", "cause", "fix"}, "zh": {...}}
    source: str


@dataclass(frozen=True)
class Finding:
    id: str
    severity: str
    platform: str
    line_no: int  # 1-based line of the first match
    line: str  # that line, as pasted (show escaped)
    count: int  # how many times the signature matched
    params: dict
    source: str

    def text(self, part: str, lang: str) -> str:
        """problem | cause | fix in lang, with the pattern's named groups filled in."""
        sig = signatures_by_id()[self.id]
        texts = sig.texts.get(lang) or sig.texts["en"]
        template = texts[part] or sig.texts["en"][part]
        return template.format_map(_Params(self.params))

    def as_dict(self, lang: str = "en") -> dict:
        return {
            "id": self.id,
            "severity": self.severity,
            "platform": self.platform,
            "line_no": self.line_no,
            "line": self.line,
            "count": self.count,
            "problem": self.text("problem", lang),
            "cause": self.text("cause", lang),
            "fix": self.text("fix", lang),
            "source": self.source,
        }


class _Params(dict):
    def __missing__(self, key: str) -> str:
        return "?"


@lru_cache(maxsize=1)
def signatures() -> tuple[Signature, ...]:
    from rocm_bridge.data import read_csv

    out = []
    for row in read_csv(CATALOGUE_CSV):
        out.append(
            Signature(
                id=row["id"],
                platform=row["platform"],
                severity=row["severity"],
                pattern=re.compile(row["pattern"], re.IGNORECASE),
                texts={
                    "en": {k: row[k] for k in ("problem", "cause", "fix")},
                    "zh": {k: row[f"{k}_zh"] for k in ("problem", "cause", "fix")},
                },
                source=row["source"],
            )
        )
    return tuple(out)


@lru_cache(maxsize=1)
def signatures_by_id() -> dict[str, Signature]:
    return {s.id: s for s in signatures()}


def decode_log(data: bytes, name: str = "log") -> str:
    """Uploaded bytes as text: refuses huge or binary files with a translated error."""
    if len(data) > MAX_LOG_BYTES:
        raise FileTooLarge(name=name, size_mb=len(data) / 1e6, limit_mb=MAX_LOG_BYTES / 1e6)
    if b"\x00" in data[:8192]:
        raise NotText(name=name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotText(name=name) from None


def diagnose(text: str) -> list[Finding]:
    """Known problems in a log, errors first, then in order of appearance."""
    if len(text) > MAX_LOG_BYTES:
        raise FileTooLarge(name="log", size_mb=len(text) / 1e6, limit_mb=MAX_LOG_BYTES / 1e6)
    findings = []
    for sig in signatures():
        matches = list(sig.pattern.finditer(text))
        if not matches:
            continue
        first = matches[0]
        line_no = text.count("\n", 0, first.start()) + 1
        start = text.rfind("\n", 0, first.start()) + 1
        end = text.find("\n", first.end())
        line = text[start : end if end != -1 else len(text)]
        params = {k: v for k, v in first.groupdict().items() if v}
        findings.append(
            Finding(sig.id, sig.severity, sig.platform, line_no, line[:500], len(matches), params, sig.source)
        )
    order = {s: i for i, s in enumerate(SEVERITIES)}
    findings.sort(key=lambda f: (order.get(f.severity, 9), f.line_no))
    return findings
