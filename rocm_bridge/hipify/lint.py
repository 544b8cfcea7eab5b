"""Portability lint: CUDA code that translates cleanly yet breaks or slows down on AMD GPUs.

hipify tools rename APIs; they do not notice that a kernel assumes 32 threads per warp. AMD Instinct GPUs
(CDNA) execute 64-wide wavefronts, so 32-bit lane masks, hard-coded warp sizes and PTX assembly are wrong or
slow there. Each rule has a catalog entry hipify.lint.<rule> with .title, .why and .fix in English and Chinese.

The rules read the masked text (comments and literals blanked), so a 0xffffffff in a comment is not a finding.
"""

from __future__ import annotations

import re

from rocm_bridge.hipify.lexer import Lexed, lex
from rocm_bridge.hipify.records import record

# Patterns start with a literal character, not \b, so the regex engine can skip ordinary text quickly; the
# word boundary before a match is checked in _matches(). Each rule also has a cheap substring pre-check, and a
# pattern is compiled only when its pre-check hits (re caches it): most files never need most of them.
WARP_INTRINSICS = (
    r"__(?:ballot_sync|shfl(?:_up|_down|_xor)?_sync|any_sync|all_sync|uni_sync|match_(?:any|all)_sync"
    r"|activemask|reduce_\w+_sync|syncwarp)\b"
)
FULL_MASK = r"0[xX][fF]{8}(?:[uU][lL]{0,2}|[lL]{1,2}[uU]?)?\b"
MASK_NAME_DEFS = (  # group 1: a name defined as the full 32-bit mask
    r"#[ \t]*define[ \t]+(\w+)[ \t]+\(?[ \t]*0[xX][fF]{8}\w*",
    r"const(?:expr)?\b[^;=\n]{0,120}?\b(\w+)[ \t]*=[ \t]*0[xX][fF]{8}\w*",
)

SEVERITY = {
    "inline_asm": "error",
    "lane_mask_32": "error",
    "ballot_32bit": "error",
    "warp_size_32": "warning",
    "launch_bounds": "warning",
    "cuda_arch": "warning",
    "occupancy": "info",
    "managed_memory": "info",
}
RULES = tuple(SEVERITY)

# Each pattern is a tuple of alternatives that each start with a literal, so every search can skip to its first
# characters (one alternation that starts with a group, (?:cuda|hip)..., scans character by character: the
# managed-memory rule alone took 11 ms on 10,000 lines).
_PATTERNS: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = [
    ("inline_asm", ("asm",), (r"__asm(?:__)?[ \t]*(?:volatile\b|__volatile__\b)?[ \t]*\(",
                              r"asm[ \t]*(?:volatile\b|__volatile__\b)?[ \t]*\(")),
    ("ballot_32bit", ("__popc",), (r"__popc[ \t]*\([ \t]*__ballot",)),
    ("warp_size_32", ("WARP",), (r"#[ \t]*define[ \t]+\w*WARP\w*[ \t]+\(?32\b",)),
    ("warp_size_32", ("__shfl",), (r"__shfl\w*\([^;\n]{0,240}?,[ \t]*32[ \t]*\)",)),
    ("launch_bounds", ("__launch_bounds__",), (r"__launch_bounds__[ \t]*\(",)),
    ("cuda_arch", ("__CUDA_ARCH__", "CUDART_VERSION", "CUDA_VERSION"),
     (r"__CUDA_ARCH__\b", r"CUDART_VERSION\b", r"CUDA_VERSION\b")),
    ("occupancy", ("Occupancy", "CacheConfig", "SharedMemConfig"), (
        r"cudaOccupancy\w+\b", r"cuOccupancy\w+\b", r"hipOccupancy\w+\b", r"hipModuleOccupancy\w+\b",
        r"cudaFuncSetCacheConfig\b", r"cudaFuncSetSharedMemConfig\b", r"cudaDeviceSetCacheConfig\b",
        r"cudaDeviceSetSharedMemConfig\b", r"hipFuncSetCacheConfig\b", r"hipFuncSetSharedMemConfig\b",
        r"hipDeviceSetCacheConfig\b", r"hipDeviceSetSharedMemConfig\b")),
    ("managed_memory", ("anaged", "MemPrefetch", "MemAdvise"), (
        r"cudaMallocManaged\b", r"hipMallocManaged\b", r"__managed__\b", r"cudaMemPrefetchAsync\b",
        r"hipMemPrefetchAsync\b", r"cudaMemAdvise\b", r"hipMemAdvise\b")),
]
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def _matches(pattern: str, text: str):
    """Matches that start at a word boundary (the patterns themselves do not begin with \\b)."""
    for m in re.finditer(pattern, text):
        s = m.start()
        if s == 0 or text[s - 1] not in _WORD or text[s] not in _WORD:
            yield m


# Rules anchored on a rare token, then checked against the text just before it (cheaper than a pattern that
# starts with a common word such as 'int' or 'const'): (rule, anchor, what must precede it on the line).
_ANCHORED: list[tuple[str, tuple[str, ...], str, str]] = [
    ("ballot_32bit", ("__ballot",), r"__ballot(?:_sync)?[ \t]*\(",
     r"\b(?:unsigned(?:[ \t]+int)?|int|uint32_t|int32_t)[ \t]+\w+[ \t]*=[ \t]*$"),
    ("warp_size_32", ("32", "31", ">>"), r"%[ \t]*32\b|/[ \t]*32\b|&[ \t]*31\b|>>[ \t]*5\b",  # (?:%|/) first: 3.5x slower
     r"(?:threadIdx\.[xyz]|\blane\w*|\btid)[ \t]*$"),
    ("warp_size_32", ("32",), r"=[ \t]*32\b",
     r"\b(?:const|constexpr)\b[^;=\n]*?\b\w*[wW][aA][rR][pP]\w*[ \t]*$"),
]

# A shuffle-reduction loop that starts at offset 16 assumes 32 lanes (a 64-wide wavefront needs 32).
_SHFL_LOOP = (
    r"for[ \t]*\([^;\n]{0,80}=[ \t]*16[ \t]*;[^;\n]{0,80};[^)\n]{0,80}(?:/=[ \t]*2|>>=[ \t]*1)[ \t]*\)")


@record
class Finding:
    rule: str
    severity: str  # error | warning | info
    line: int
    col: int
    excerpt: str  # the source line, stripped and shortened

    @property
    def title_key(self) -> str:
        return f"hipify.lint.{self.rule}.title"

    @property
    def why_key(self) -> str:
        return f"hipify.lint.{self.rule}.why"

    @property
    def fix_key(self) -> str:
        return f"hipify.lint.{self.rule}.fix"


def _excerpt(text: str, offset: int) -> str:
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    line = text[start:end if end != -1 else len(text)].strip()
    return line if len(line) <= 120 else line[:117] + "..."


def lint(text: str, lexed: Lexed | None = None) -> list[Finding]:
    """Findings for a CUDA (or already translated HIP) source, ordered by position."""
    lexed = lexed or lex(text)
    masked = lexed.masked
    hits: dict[tuple[str, int], int] = {}  # (rule, line) -> offset: one finding per rule and line

    def add(rule: str, offset: int) -> None:
        key = (rule, lexed.line_of(offset))
        if offset < hits.get(key, offset + 1):  # the first on the line
            hits[key] = offset

    if "0x" in masked or "0X" in masked:
        mask_names = {m.group(1): m.start() for pattern in MASK_NAME_DEFS for m in _matches(pattern, masked)}
        warp_intrinsics = re.compile(WARP_INTRINSICS)
        for m in _matches(FULL_MASK, masked):
            ls = masked.rfind("\n", 0, m.start()) + 1
            le = masked.find("\n", m.end())
            line_text = masked[ls:le if le != -1 else len(masked)]
            if warp_intrinsics.search(line_text):
                add("lane_mask_32", m.start())
        if mask_names:
            for call in warp_intrinsics.finditer(masked):
                ce = masked.find(";", call.end())
                statement = masked[call.end():ce if ce != -1 else len(masked)]
                for name, off in mask_names.items():
                    if re.search(r"\b" + re.escape(name) + r"\b", statement):
                        add("lane_mask_32", off)
    for rule, needles, patterns in _PATTERNS:
        present = [n for n in needles if n in masked]  # one substring scan per needle, none per pattern
        for pattern in patterns:
            if any(n in pattern for n in present):  # every pattern spells one of its rule's needles
                for m in _matches(pattern, masked):
                    add(rule, m.start())
    for rule, needles, anchor, before_src in _ANCHORED:
        if any(n in masked for n in needles):
            before = re.compile(before_src)
            for m in re.finditer(anchor, masked):
                start = masked.rfind("\n", 0, m.start()) + 1
                b = before.search(masked, max(start, m.start() - 160), m.start())
                if b is not None:
                    add(rule, b.start())
    if "__shfl" in masked:
        for m in _matches(_SHFL_LOOP, masked):
            add("warp_size_32", m.start())
    out = []
    for (rule, _line), offset in hits.items():
        line, col = lexed.line_col(offset)
        out.append(Finding(rule, SEVERITY[rule], line, col, _excerpt(text, offset)))
    out.sort(key=lambda f: (f.line, f.col, f.rule))
    return out
