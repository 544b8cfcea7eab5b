"""The log doctor: known problems in a pasted TensorFlow / ROCm / CUDA log, from data/log_signatures.csv.

Each catalogue entry has a regular expression, the problem, its cause and fix (English and Chinese) and a
source. Named groups of the pattern ({gfx}, {lib}, ...) fill the texts. The text a user pastes is only
searched and quoted back as plain strings; callers must show it as code, never as HTML.

A paste is untrusted and up to 2 MB, so the work is bounded (docs/security.md, threat "regex freeze"):
- patterns run on RE2 (google-re2), whose automata match in time linear in the text: no pattern in the
  catalogue, present or future, can backtrack. A pattern RE2 cannot compile is a test failure;
- the log is matched line by line: each line is searched in its first MAX_LINE_CHARS characters only (the
  lines are joined again, so a message wrapped over two lines, NumPy's, still matches);
- each signature counts at most MAX_MATCHES matches;
- diagnosis runs on one worker thread for the whole server (RE2 releases the GIL while it matches), and a
  caller waits at most DIAGNOSE_TIMEOUT_S before a translated "busy" error.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rocm_bridge.errors import Busy, FileTooLarge, NotText
from rocm_bridge.limits import DOCTOR_LOG_MB, MB

CATALOGUE_CSV = "log_signatures.csv"
MAX_LOG_BYTES = DOCTOR_LOG_MB * MB  # a pasted or uploaded log larger than this is refused (2,000,000)
MAX_LINE_CHARS = 4_000  # a longer line is searched in its first 4,000 characters (real log lines are shorter)
MAX_MATCHES = 1_000  # per signature: the count shown stops here
DIAGNOSE_TIMEOUT_S = 10.0  # how long a caller waits for the shared worker
SEVERITIES: tuple[str, ...] = ("error", "warning", "info")


@dataclass(frozen=True)
class Signature:
    id: str
    platform: str  # rocm | cuda | any
    severity: str
    pattern: Any  # a compiled re2 pattern (google-re2: the re module's interface, linear-time matching)
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


def compile_pattern(pattern: str):
    """A catalogue pattern, case-insensitive, compiled by RE2 (raises re2.error on syntax RE2 lacks:
    backreferences and lookaround, the features that make matching super-linear)."""
    import re2

    options = re2.Options()
    options.case_sensitive = False
    options.max_mem = 64 << 20  # DFA cache; past it RE2 falls back to its (still linear) NFA
    return re2.compile(pattern, options)


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
                pattern=compile_pattern(row["pattern"]),
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


def bounded_lines(text: str) -> str:
    """The text as searched: every line cut to MAX_LINE_CHARS (C-level string work only)."""
    lines = text.split("\n")
    if max(map(len, lines), default=0) <= MAX_LINE_CHARS:
        return text
    return "\n".join([line[:MAX_LINE_CHARS] for line in lines])


def _diagnose(text: str) -> list[Finding]:
    searched = bounded_lines(text)
    findings = []
    for sig in signatures():
        first = None
        count = 0
        for m in sig.pattern.finditer(searched):
            first = first or m
            count += 1
            if count >= MAX_MATCHES:
                break
        if first is None:
            continue
        line_no = searched.count("\n", 0, first.start()) + 1
        start = searched.rfind("\n", 0, first.start()) + 1
        end = searched.find("\n", first.end())
        line = searched[start : end if end != -1 else len(searched)]
        params = {k: v for k, v in first.groupdict().items() if v}
        findings.append(Finding(sig.id, sig.severity, sig.platform, line_no, line[:500], count, params, sig.source))
    order = {s: i for i, s in enumerate(SEVERITIES)}
    findings.sort(key=lambda f: (order.get(f.severity, 9), f.line_no))
    return findings


_worker: ThreadPoolExecutor | None = None
_worker_lock = threading.Lock()


def _pool() -> ThreadPoolExecutor:
    global _worker
    with _worker_lock:
        if _worker is None:
            _worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="log-doctor")
        return _worker


def diagnose(text: str, timeout: float = DIAGNOSE_TIMEOUT_S) -> list[Finding]:
    """Known problems in a log, errors first, then in order of appearance (bounded work, see the module doc)."""
    if len(text) > MAX_LOG_BYTES:
        raise FileTooLarge(name="log", size_mb=len(text) / 1e6, limit_mb=MAX_LOG_BYTES / 1e6)
    signatures()  # compile in the caller's thread: a catalogue error surfaces here, not as a timeout
    future = _pool().submit(_diagnose, text)
    try:
        return future.result(timeout=timeout)
    except FutureTimeout:
        future.cancel()
        raise Busy("security.log_busy", seconds=timeout) from None
