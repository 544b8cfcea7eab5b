"""What the hipify page shows, computed without Streamlit: examples, uploads, per-file results, the diff rows
and the four steps of the migration flow (scan -> map -> rewrite -> report)."""

from __future__ import annotations

import re
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


# ---- the diff: a histogram-style line diff with a work bound ----
# difflib.SequenceMatcher(autojunk=False) is cubic on repetitive code (issue 27: 2,000 lines took 50 s of server
# CPU). This is git's histogram diff in outline: trim the common ends, anchor on the common line that occurs least
# often (never one that occurs more than DIFF_MAX_CHAIN times), recurse on both sides; a range with no anchor is one
# replace block. Every step is counted; past the bound the open ranges become replace blocks and the page says the
# files are too different to diff line by line.

DIFF_MAX_CHAIN = 64
DIFF_WINDOW = 8  # how far a range with no anchor looks ahead to re-synchronise
DIFF_WORK_PER_LINE = 48  # the work bound: operations per input line ...
DIFF_WORK_FLOOR = 20_000  # ... plus a floor for short files
DIFF_MAX_ROWS = 1500  # rows the page draws; the rest are counted, not drawn
INLINE_MAX_CHARS = 2000  # a changed line longer than this is highlighted whole


@dataclass
class Work:
    """Operations spent on a diff against a bound (the unit test counts these, not seconds)."""

    limit: int
    ops: int = 0

    @property
    def spent(self) -> bool:
        return self.ops > self.limit


def work_for(n_a: int, n_b: int) -> Work:
    return Work(DIFF_WORK_FLOOR + DIFF_WORK_PER_LINE * (n_a + n_b))


def _anchor(a: list, b: list, alo: int, ahi: int, blo: int, bhi: int, work: Work) -> tuple[int, int, int] | None:
    """(i, j, n): a run a[i:i+n] == b[j:j+n] grown around the common item of fewest occurrences in a (ties: the
    longest run); None when nothing is common, every common item is too frequent, or the bound is spent."""
    where: dict[object, list[int]] = {}
    for i in range(alo, ahi):
        where.setdefault(a[i], []).append(i)
    work.ops += ahi - alo
    best: tuple[tuple[int, int], int, int, int] | None = None
    j = blo
    while j < bhi:
        work.ops += 1
        pos = where.get(b[j])
        if pos is None or len(pos) > DIFF_MAX_CHAIN:
            j += 1
            continue
        step = 1
        for i in pos:
            s, t = i, j
            while s > alo and t > blo and a[s - 1] == b[t - 1]:
                s, t = s - 1, t - 1
            e, f = i + 1, j + 1
            while e < ahi and f < bhi and a[e] == b[f]:
                e, f = e + 1, f + 1
            work.ops += 1 + e - s
            key = (len(pos), s - e)
            if best is None or key < best[0]:
                best = (key, s, t, e - s)
            step = max(step, f - j)
        if work.spent:
            return None
        j += step
    return None if best is None else best[1:]


def _block(ilo: int, ihi: int, jlo: int, jhi: int) -> tuple[str, int, int, int, int] | None:
    if ilo < ihi and jlo < jhi:
        return ("replace", ilo, ihi, jlo, jhi)
    if ilo < ihi:
        return ("delete", ilo, ihi, jlo, jhi)
    if jlo < jhi:
        return ("insert", ilo, ihi, jlo, jhi)
    return None


def _window(a: list, b: list, ilo: int, ihi: int, jlo: int, jhi: int, work: Work) -> list:
    """A range with no anchor (nothing common, or only lines that repeat everywhere, like `}`): walk both sides,
    and at a difference take the nearest re-synchronisation a[i+k] == b[j+l] with k, l < DIFF_WINDOW (fewest lines
    skipped first); with none in reach, pair one line with one line. Linear, DIFF_WINDOW**2 checks at most a step."""
    out: list[tuple[str, int, int, int, int]] = []
    i, j = ilo, jlo
    while i < ihi and j < jhi:
        if work.spent:
            break
        if a[i] == b[j]:
            e = i
            while e < ihi and j + e - i < jhi and a[e] == b[j + e - i]:
                e += 1
            work.ops += 1 + e - i
            out.append(("equal", i, e, j, j + e - i))
            j += e - i
            i = e
            continue
        hit = None
        for d in range(1, 2 * DIFF_WINDOW - 1):
            for k in range(max(0, d - DIFF_WINDOW + 1), min(d, DIFF_WINDOW - 1) + 1):
                work.ops += 1
                if i + k < ihi and j + d - k < jhi and a[i + k] == b[j + d - k]:
                    hit = (k, d - k)
                    break
            if hit:
                break
        k, m = hit or (1, 1)
        out.append(_block(i, i + k, j, j + m))  # type: ignore[arg-type]
        i, j = i + k, j + m
    rest = _block(i, ihi, j, jhi)
    if rest:
        out.append(rest)
    return out


def opcodes(a: list, b: list, work: Work | None = None) -> tuple[list[tuple[str, int, int, int, int]], Work]:
    """difflib-style opcodes (equal / replace / delete / insert) of two sequences of hashable items, in order, and
    the work it took; never more than about work.limit operations."""
    work = work or work_for(len(a), len(b))
    out: list[tuple[str, int, int, int, int]] = []
    stack = [(0, len(a), 0, len(b))]
    while stack:
        alo, ahi, blo, bhi = stack.pop()
        pre = 0
        while alo + pre < ahi and blo + pre < bhi and a[alo + pre] == b[blo + pre]:
            pre += 1
        suf = 0
        while ahi - suf > alo + pre and bhi - suf > blo + pre and a[ahi - suf - 1] == b[bhi - suf - 1]:
            suf += 1
        work.ops += 1 + pre + suf
        ilo, ihi, jlo, jhi = alo + pre, ahi - suf, blo + pre, bhi - suf
        if pre:
            out.append(("equal", alo, ilo, blo, jlo))
        if suf:
            out.append(("equal", ihi, ahi, jhi, bhi))
        found = None
        if ilo < ihi and jlo < jhi and not work.spent:
            found = _anchor(a, b, ilo, ihi, jlo, jhi, work)
        if found is None:
            if ilo < ihi and jlo < jhi and not work.spent:
                out.extend(_window(a, b, ilo, ihi, jlo, jhi, work))
            else:
                block = _block(ilo, ihi, jlo, jhi)
                if block:
                    out.append(block)
            continue
        s, t, n = found
        out.append(("equal", s, s + n, t, t + n))
        stack.append((s + n, ihi, t + n, jhi))
        stack.append((ilo, s, jlo, t))
    out.sort(key=lambda op: (op[1], op[3], op[2], op[4]))
    merged: list[tuple[str, int, int, int, int]] = []
    for op in out:  # neighbouring changes are one block, so its rows can be paired by likeness (_pairs)
        if merged and op[0] != "equal" and merged[-1][0] != "equal":
            _tag, i1, _i2, j1, _j2 = merged.pop()
            op = _block(i1, op[2], j1, op[4])  # type: ignore[assignment]
        merged.append(op)
    return merged, work


_TOKEN = re.compile(r"\w+|\s+|.", re.DOTALL)


def inline_spans(old: str, new: str) -> tuple[list[tuple[str, bool]], list[tuple[str, bool]]]:
    """Both lines as (text, changed) pieces: the tokens (words, spaces, single marks) the same diff finds changed."""
    if len(old) > INLINE_MAX_CHARS or len(new) > INLINE_MAX_CHARS:
        return [(old, bool(old))], [(new, bool(new))]
    ta, tb = _TOKEN.findall(old), _TOKEN.findall(new)
    ops, _ = opcodes(ta, tb)
    left: list[tuple[str, bool]] = []
    right: list[tuple[str, bool]] = []
    for tag, i1, i2, j1, j2 in ops:
        changed = tag != "equal"
        if i1 < i2:
            left.append(("".join(ta[i1:i2]), changed))
        if j1 < j2:
            right.append(("".join(tb[j1:j2]), changed))
    return left, right


@dataclass(frozen=True)
class Diff:
    """The changed lines side by side, as the page draws them."""

    rows: tuple[dict[str, object], ...]  # {'cuda_line', 'cuda', 'hip_line', 'hip'}; None where a side has no line
    changed: int  # changed rows in all (rows holds at most DIFF_MAX_ROWS of them)
    complete: bool  # False: past the work bound, the rest is paired by position ("too different to diff")
    ops: int  # the work it took


def _likeness(x: str, y: str) -> int:
    """Characters two lines share at their end (hipify renames the front of a name: cudaMalloc( -> hipMalloc()."""
    n = 0
    for cx, cy in zip(reversed(x[-80:]), reversed(y[-80:]), strict=False):
        if cx != cy:
            break
        n += 1
    return n


def _pairs(a: list[str], b: list[str], i1: int, i2: int, j1: int, j2: int):
    """The rows of one changed block: line k of the shorter side beside line k + offset of the longer, the offset
    (at most DIFF_WINDOW) that pairs the most alike lines, so an inserted #include does not pair with the line below."""
    p, q = i2 - i1, j2 - j1
    offset, flip = 0, q < p
    short, long_ = min(p, q), max(p, q)
    if short and long_ - short <= DIFF_WINDOW and short <= DIFF_MAX_ROWS:
        def score(o: int) -> int:
            return sum(_likeness(a[i1 + k + (o if flip else 0)], b[j1 + k + (0 if flip else o)]) for k in range(short))
        offset = max(range(long_ - short + 1), key=lambda o: (score(o), -o))
    for k in range(long_):
        s = k - offset  # index on the shorter side
        if flip:
            yield i1 + k, (j1 + s if 0 <= s < short else None)
        else:
            yield (i1 + s if 0 <= s < short else None), j1 + k


@lru_cache(maxsize=8)
def diff(source: str, output: str) -> Diff:
    """The changed lines of a translation (cached: a rerun of the page does not diff again)."""
    a, b = source.splitlines(), output.splitlines()
    ops, work = opcodes(a, b)
    rows: list[dict[str, object]] = []
    changed = 0
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            continue
        for left, right in _pairs(a, b, i1, i2, j1, j2):
            if left is not None and right is not None and a[left] == b[right]:
                continue  # a block paired by position can hold equal lines
            changed += 1
            if len(rows) < DIFF_MAX_ROWS:
                rows.append({
                    "cuda_line": None if left is None else left + 1, "cuda": "" if left is None else a[left],
                    "hip_line": None if right is None else right + 1, "hip": "" if right is None else b[right],
                })
    return Diff(tuple(rows), changed, not work.spent, work.ops)


def diff_rows(source: str, output: str) -> list[dict[str, object]]:
    """Changed lines side by side: {'cuda_line', 'cuda', 'hip_line', 'hip'} (None where a side has no line)."""
    return list(diff(source, output).rows)


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


# ---- what is left for you: the report, the lint and the compile lab tell one story ----

WAVEFRONT_RULES = frozenset({"lane_mask_32", "ballot_32bit", "warp_size_32"})  # chapter 9's wavefront picture


def compiler_rocm() -> str:
    """The ROCm release of the installed hipcc ("5.2"), "" without one: what the compile lab builds against."""
    import re as _re

    from rocm_bridge.compile import toolchain

    found = _re.search(r"HIP (\d+)\.(\d+)", toolchain.version())
    return f"{found.group(1)}.{found.group(2)}" if found else ""


@dataclass(frozen=True)
class LeftForYou:
    """Everything that stops this file from building and running right on ROCm, counted once for the report, the
    flow and the metric: CUDA names hipify could not convert, lint errors, and HIP APIs newer than the ROCm release
    checked against (the one typed in, else the compile lab's compiler)."""

    unconverted: int
    lint_errors: int
    too_new: tuple[tuple[str, str], ...]  # (HIP name, ROCm release that added it)
    against: str  # the ROCm release checked ("" when none is known)
    against_compiler: bool  # the release is the installed compiler's (nobody typed one)

    @property
    def total(self) -> int:
        return self.unconverted + self.lint_errors + len(self.too_new)


def left_for_you(fr: FileResult, target: str = "") -> LeftForYou:
    """Lint errors the target or wavefront rewrites settled (settled_findings) are not left."""
    from rocm_bridge.hipify.minrocm import minimum_rocm, short

    s = summarize(fr.result)
    against = target or compiler_rocm()
    minimum = minimum_rocm(fr.result, against) if against else None
    too_new = tuple((r.hip_name, short(r.added)) for r in minimum.too_new) if minimum else ()
    settled = settled_findings(fr)
    errors = sum(1 for k, f in enumerate(fr.findings) if f.severity == "error" and k not in settled)
    return LeftForYou(s.unsupported + s.experimental, errors, too_new, against, not target and bool(against))


# ---- pasted code in the link: compressed, bounded ----
# The link carries the code as ?hp_src=z<base64url(zlib)>. A link is logged by every proxy it passes and must fit
# nginx's default 8 KB request line, so only code whose compressed form fits LINK_MAX_CHARS goes in; longer code
# gets a notice instead (download it and share the file).

LINK_PREFIX = "z"
LINK_MAX_CHARS = 4000


def encode_link_code(text: str) -> str | None:
    """The link form of the code, or None when it does not fit."""
    import base64
    import zlib

    packed = base64.urlsafe_b64encode(zlib.compress(text.encode("utf-8", "surrogatepass"), 9)).decode().rstrip("=")
    value = LINK_PREFIX + packed
    return value if len(value) <= LINK_MAX_CHARS else None


def decode_link_code(value: str) -> str | None:
    """The code of a link, or None for a value that is not one (too long, bad base64, bad zlib, not UTF-8, or more
    than MAX_EDITOR_CHARS once inflated: the inflation is bounded, a zip bomb stops there)."""
    import base64
    import binascii
    import zlib

    if not value.startswith(LINK_PREFIX) or len(value) > LINK_MAX_CHARS:
        return None
    body = value[len(LINK_PREFIX):]
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        inflater = zlib.decompressobj()
        raw = inflater.decompress(packed, MAX_EDITOR_CHARS + 1)
        if len(raw) > MAX_EDITOR_CHARS or not inflater.eof:
            return None
        return raw.decode("utf-8")
    except (binascii.Error, ValueError, zlib.error, UnicodeDecodeError):
        return None


_KERNEL = re.compile(r"__global__\s+(?:[\w:<>]+\s+)*?(\w+)\s*\(")


def pasted_name(text: str) -> str:
    """A download name for code that is not an example or an upload: its first kernel's name, else 'pasted'."""
    found = _KERNEL.search(text[:200_000])
    return f"{found.group(1)[:60]}.hip" if found else "pasted.hip"


# ---- the target ROCm and the wavefront rewrite: the picker's releases and what each applied ----

@lru_cache(maxsize=1)
def target_releases() -> tuple[str, ...]:
    """The ROCm releases the page can translate for, newest first: every release the mapping table dates a HIP API
    to (from minrocm.FLOOR: HIPIFY's older numbers are HIP's own) and every release a target rule names as the one
    that makes it unnecessary (data/hipify_target_rules.csv). A release between two of them translates and checks
    like the older one: nothing the tables know changed in it."""
    import csv

    from rocm_bridge.hipify import target as tg
    from rocm_bridge.hipify.index import DATA_DIR
    from rocm_bridge.hipify.minrocm import FLOOR, _key, short

    found = {r.until for r in tg.rules().values() if r.until}
    with open(Path(DATA_DIR) / "hipify_mappings.csv", newline="", encoding="utf-8") as fh:
        found.update(row["hip_added"] for row in csv.DictReader(fh) if row["hip_added"])
    releases = {short(v) for v in found if _key(v) >= _key(FLOOR)}
    return tuple(sorted(releases, key=_key, reverse=True))


def target_release(value: str) -> str | None:
    """A link's release as one of target_releases(): "5.2.0" -> "5.2", "" -> the newest, a release the tables do
    not list -> the newest listed one before it (it translates the same: "6.4" -> "6.3"); None for text that is not
    a release, or one older than every listed release."""
    from rocm_bridge.hipify.minrocm import _key, valid_version

    value = str(value).strip()
    releases = target_releases()
    if not value:
        return releases[0]
    if not valid_version(value):
        return None
    return next((r for r in releases if _key(r) <= _key(value)), None)


def rule_source(name: str) -> str:
    """The source of a target rule, a row that says "as __shfl_sync ..." read through to the row it names."""
    from rocm_bridge.hipify import target as tg

    rules = tg.rules()
    source = rules[name].source
    head, _, rest = source.partition(";")
    if head.startswith("as ") and head[3:].strip() in rules and head[3:].strip() != name:
        return rule_source(head[3:].strip()) + (f"; {rest.strip()}" if rest.strip() else "")
    return source


@dataclass(frozen=True)
class Applied:
    """One rewrite applied for the target ROCm or the wavefront, for the report's and the flow's line-by-line list."""

    line: int
    col: int
    kind: str  # "target" (data/hipify_target_rules.csv) | "wavefront" (rocm_bridge.hipify.wavefront)
    before: str  # the CUDA text
    after: str  # what was written ("" = left for a person)
    note: str  # catalog key of why
    until: str  # the ROCm release that makes it unnecessary ("" = none: no release has it, or not a ROCm matter)
    source: str  # the rule's source ("" for a wavefront rewrite: the catalog says it)


def applied_rewrites(result: Result) -> list[Applied]:
    """Every target and wavefront rewrite the engine applied to this file, in line order (from
    Result.target_rewrites and Result.wave_rewrites)."""
    from rocm_bridge.hipify import target as tg

    out = [Applied(r.line, r.col, "target", r.cuda_name, r.written, r.note, r.until, rule_source(r.cuda_name))
           for r in result.target_rewrites]
    if tg.HALF_SHUFFLES in result.helpers:  # not a row of the table: 5.6's __half / __half2 shuffle overloads
        first = next((r for r in result.target_rewrites if r.note == "hipify.target.sync_shuffle"), None)
        if first is not None:
            out.append(Applied(first.line, first.col, "target", "__half / __half2", tg.HALF_SHUFFLES,
                               "hipify.target.shfl_half", tg.HALF_SHUFFLES_UNTIL, tg.HALF_SHUFFLES_SOURCE))
    out += [Applied(w.line, w.col, "wavefront", w.before, w.after, f"hipify.wave.{w.rule}", "", "")
            for w in result.wave_rewrites]
    out.sort(key=lambda a: (a.line, a.col))
    return out


@dataclass(frozen=True)
class CompileFit:
    """How the compile lab's compiler (ROCm 5.2's headers, for hipcc 5.2 and clang 22 alike) stands to the target:
    `relation` is "none" (no compiler here), "same", "older" (the target is older than the compiler) or "newer";
    `beyond` the HIP APIs of the file that the target has and the compiler's headers lack (errors here only)."""

    target: str
    compiler: str
    relation: str
    beyond: tuple[tuple[str, str], ...]  # (HIP name, ROCm release that added it)


def compile_fit(fr: FileResult, target: str, compiler: str | None = None) -> CompileFit:
    from rocm_bridge.hipify.minrocm import _key, minimum_rocm, short

    compiler = compiler_rocm() if compiler is None else compiler
    if not compiler:
        return CompileFit(target, "", "none", ())
    if _key(target) == _key(compiler):
        return CompileFit(target, compiler, "same", ())
    if _key(target) < _key(compiler):
        return CompileFit(target, compiler, "older", ())
    beyond = tuple((r.hip_name, short(r.added)) for r in minimum_rocm(fr.result, compiler).too_new
                   if _key(r.added) <= _key(target))
    return CompileFit(target, compiler, "newer", beyond)


# which rewrites settle which lint rule on their line: the lint reads the CUDA source, so a finding stays in the
# list, marked with the rewrite that made it right (a 0xffffffff mask dropped with the _sync call, or made ~0ull;
# a 16 / 32 / % 32 made warpSize arithmetic). A #define of the mask or of WARP_SIZE is never rewritten: it stays.
SETTLES = {"warp_size_32": frozenset({"hipify.wave.reduction", "hipify.wave.butterfly", "hipify.wave.lane"}),
           "lane_mask_32": frozenset({"hipify.wave.mask", "hipify.target.sync_shuffle", "hipify.target.sync_vote"})}


def settled_findings(fr: FileResult) -> dict[int, Applied]:
    """Index of a lint finding -> the target or wavefront rewrite on its line that made it right."""
    if not fr.result.target_rewrites and not fr.result.wave_rewrites:
        return {}
    by_line: dict[int, list[Applied]] = {}
    for a in applied_rewrites(fr.result):
        if a.after:
            by_line.setdefault(a.line, []).append(a)
    out = {}
    for k, f in enumerate(fr.findings):
        fixes = SETTLES.get(f.rule, frozenset())
        hit = next((a for a in by_line.get(f.line, ()) if a.note in fixes), None)
        if hit is not None:
            out[k] = hit
    return out
