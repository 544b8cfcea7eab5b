"""What the hipify page shows, computed without Streamlit: examples, uploads, per-file results, the diff rows
and the four steps of the migration flow (scan -> map -> rewrite -> report)."""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath

from rocm_bridge.hipify.errors import UnsupportedFile
from rocm_bridge.hipify.lint import Finding, lint
from rocm_bridge.hipify.report import summarize
from rocm_bridge.hipify.sources import PAGE_MAX_BYTES, UPLOAD_EXTS, decode_legacy, decode_source, encode_as, read_zip
from rocm_bridge.hipify.translator import CONVERTED, Options, Result, translate_cached

EXAMPLES_DIR = Path(__file__).resolve().parent.parent.parent / "content" / "examples" / "cuda"
# page order; each is content/examples/cuda/<key>.cu and has a title in the catalog (hipify.example.<key>)
EXAMPLES = ("vector_add", "tiled_gemm", "cublas_sgemm", "curand_pi", "cufft_1d", "warp_reduce", "streams_events",
            "cudnn_conv")
MAX_EDITOR_CHARS = 2 * 1024 * 1024


@lru_cache(maxsize=len(EXAMPLES))
def example_source(key: str) -> str:
    if key not in EXAMPLES:
        raise KeyError(key)
    return (EXAMPLES_DIR / f"{key}.cu").read_text(encoding="utf-8")


@dataclass(frozen=True)
class SourceFile:
    path: str
    text: str
    bad_utf8_at: int | None = None
    encoding: str = "utf-8"  # what the bytes were read as (rocm_bridge.hipify.sources.decode_legacy)


def _source(path: str, blob: bytes, max_bytes: int) -> SourceFile:
    """A file that is not UTF-8 is read in its legacy encoding (GBK, Latin-1 ...): the panes must show real
    characters (Streamlit cannot send the command line's surrogate-escaped bytes) and the download is written
    back in that encoding, so it equals the command line's output."""
    decoded = decode_source(blob, path, max_bytes=max_bytes)
    if decoded.bad_utf8_at is None:
        return SourceFile(path, decoded.text)
    text, encoding = decode_legacy(blob)
    return SourceFile(path, text, decoded.bad_utf8_at, encoding)


def load_upload(name: str, data: bytes, max_bytes: int = PAGE_MAX_BYTES) -> list[SourceFile]:
    """An uploaded file or .zip project as source files (errors are rocm_bridge.errors subclasses)."""
    lower = name.lower()
    if lower.endswith(".zip"):
        members = read_zip(data, max_bytes=max_bytes)
        if not members:
            raise UnsupportedFile("hipify.err.no_sources")
        return [_source(path, blob, max_bytes) for path, blob in members]
    if not lower.endswith(UPLOAD_EXTS):
        raise UnsupportedFile("hipify.err.bad_type", name=PurePosixPath(name).name[:80])
    return [_source(PurePosixPath(name).name, data, max_bytes)]


@lru_cache(maxsize=16)
def lint_cached(text: str) -> tuple[Finding, ...]:
    return tuple(lint(text))


@dataclass
class FileResult:
    path: str
    result: Result
    findings: tuple[Finding, ...]
    bad_utf8_at: int | None = None
    encoding: str = "utf-8"

    def output_bytes(self) -> bytes:
        """The translation in the encoding the file was read in."""
        return encode_as(self.result.output, self.encoding)


def translate_files(files: list[SourceFile], opts: Options) -> list[FileResult]:
    return [FileResult(f.path, translate_cached(f.text, opts), lint_cached(f.text), f.bad_utf8_at, f.encoding)
            for f in files]


def diff_rows(source: str, output: str, context: int = 0) -> list[dict[str, object]]:
    """Changed lines side by side: {'cuda_line', 'cuda', 'hip_line', 'hip'} (None where a side has no line)."""
    a = source.splitlines()
    b = output.splitlines()
    rows: list[dict[str, object]] = []
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(context):
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                for k in range(i2 - i1):
                    rows.append({"cuda_line": i1 + k + 1, "cuda": a[i1 + k], "hip_line": j1 + k + 1, "hip": b[j1 + k]})
                continue
            for k in range(max(i2 - i1, j2 - j1)):
                left = i1 + k if i1 + k < i2 else None
                right = j1 + k if j1 + k < j2 else None
                rows.append({
                    "cuda_line": None if left is None else left + 1, "cuda": "" if left is None else a[left],
                    "hip_line": None if right is None else right + 1, "hip": "" if right is None else b[right],
                })
    return rows


@dataclass
class Flow:
    """The migration flow on the current code, one record per step."""

    scan: dict[str, int] = field(default_factory=dict)
    mapping: list[dict[str, object]] = field(default_factory=list)
    rewrite: dict[str, int] = field(default_factory=dict)
    report: dict[str, object] = field(default_factory=dict)


def migration_flow(result: Result, findings: tuple[Finding, ...] | list[Finding]) -> Flow:
    lexed = result.lexed
    kinds = Counter(lexed.op_kinds) if lexed else Counter()
    flow = Flow()
    flow.scan = {
        "lines": summarize(result).lines_total,
        "comments": kinds["lc"] + kinds["bc"],
        "literals": kinds["str"] + kinds["chr"] + kinds["raw"],
        "includes": len(lexed.includes) if lexed else 0,
        "launches": len(result.launches),
        "references": len(result.references),
    }
    refs = result.references
    per_name: dict[tuple[str, str, str, str], int] = Counter()
    for i, n in zip(refs.infos, refs.counts(), strict=True):
        per_name[(i.name, i.hip_name, i.api_group, i.status)] += n
    flow.mapping = [
        {"cuda": name, "hip": hip, "api_group": group, "status": status, "count": n}
        for (name, hip, group, status), n in sorted(per_name.items(), key=lambda kv: (-kv[1], kv[0][0]))
    ]
    s = summarize(result)
    flow.rewrite = {
        "renamed": sum(n for (name, hip, _g, status), n in per_name.items() if status == CONVERTED and hip != name),
        "kept": sum(n for (name, hip, _g, status), n in per_name.items() if status == CONVERTED and hip == name),
        "headers": len(result.headers),
        "launches_rewritten": s.launches_rewritten,
        "lines_changed": s.lines_changed,
    }
    flow.report = {
        "percentage": s.percentage,
        "converted": s.converted,
        "total": s.total,
        "unconverted": s.unsupported + s.experimental,
        "lint_errors": sum(1 for f in findings if f.severity == "error"),
        "lint_warnings": sum(1 for f in findings if f.severity == "warning"),
    }
    return flow
