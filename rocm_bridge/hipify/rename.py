"""The translator's core token pass: every code identifier that is a CUDA API name in the active table is
renamed and recorded in result.references (exact names only, so a user's `cudaCheck` stays). Names without a
context rewrite take a short path after their first occurrence; the others go to rocm_bridge.hipify.calls
(argument-dependent rewrites) and rocm_bridge.hipify.target_rewrites (--rocm-version). Also here: cub:: ->
hipcub::, CUDA type names the file declares as its own variables (left alone), and the legacy handle-less cuBLAS
API (left for a person).
"""

from __future__ import annotations

import re
from bisect import bisect_right

from rocm_bridge.hipify.calls import CONTEXTUAL, context_rewrites, next_code_pos
from rocm_bridge.hipify.edits import regroup
from rocm_bridge.hipify.index import active_map
from rocm_bridge.hipify.lexer import Lexed, split_include
from rocm_bridge.hipify.result import CONVERTED, EXPERIMENTAL, UNSUPPORTED, Info, Result
from rocm_bridge.hipify.target_rewrites import HELPER_CALLS, TARGET_NAMES, helper_call, target_rewrite

TYPE_CHECKING = False  # not typing's: the one-line CLI run imports no typing (tests/test_hipify_result.py)
if TYPE_CHECKING:
    from rocm_bridge.hipify.translator import Options

_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
# rarely needed patterns are compiled on first use (re caches them): a one-line run compiles none
_NAMESPACE_BEFORE = r"\bnamespace\s*(?:=\s*)?$|\bnamespace\s+\w+\s*=\s*$"


def rename(lexed: Lexed, opts: Options, result: Result) -> tuple[list[tuple[int, int, str]], bool]:
    """Rename every table name; record each occurrence in result.references.

    Returns the other edits (HIP_SYMBOL wraps, argument rules) and whether the renames are among them (only
    when an argument list was reordered); otherwise they are result.references.edits()."""
    text = lexed.text
    amap = active_map(opts.roc, opts.miopen)
    edits: list[tuple[int, int, str]] = []
    parsed: dict[str, list[str]] = {}
    refs = result.references
    info_index, new_info = refs.info_index, refs.new_info
    add_offset, add_line, add_col, add_which = (refs.offsets.append, refs.lines.append, refs.cols.append,
                                                refs.which.append)
    regroups: list[tuple[list[tuple[int, int]], object]] = []
    count, rfind = text.count, text.rfind
    line, line_start, prev = 1, 0, 0  # ids come in offset order: line numbers by counting newlines between
    shadowed = _declared_variables(lexed, amap, result)
    blas_v1 = _legacy_blas(lexed)
    # names whose every occurrence gets the same record and no context rewrite: after the first occurrence they
    # take the short path below (name -> record index)
    plain: dict[str, int] = {}
    # --amap: the skipped branches keep their identifiers, renamed by the table only (HIPIFY's raw-token pass);
    # what HIPIFY does through clang's AST (overloads, HIP_SYMBOL, argument rules) needs the branch compiled
    renamed_only = result.skipped if opts.skip_excluded and opts.amap else ()
    declared: dict[str, int] = {}  # new variables declared for argument rules, by base name (args.declare)
    target_on = bool(opts.rocm_version)
    for start, name in zip(lexed.id_starts, lexed.id_names, strict=True):
        if name in shadowed and not re.compile(_TAG_BEFORE).search(lexed.masked, max(0, start - 16), start):
            continue  # the user's variable (an elaborated `enum cudaError` still names the type)
        nl = count("\n", prev, start)
        if nl:
            line += nl
            line_start = rfind("\n", prev, start) + 1
        prev = start
        col = start - line_start + 1
        known = plain.get(name)
        if known is not None:
            add_offset(start)
            add_line(line)
            add_col(col)
            add_which(known)
            continue
        end = start + len(name)
        rec = amap.get(name)
        if rec is None:
            if name == "cub":
                masked = lexed.masked
                p = next_code_pos(masked, end)
                if masked.startswith("::", p) or re.compile(_NAMESPACE_BEFORE).search(masked, max(0, start - 64), start):
                    key = (name, "hipcub", CONVERTED)
                    k = info_index(key)
                    if k is None:
                        k = new_info(key, Info(name, "hipcub", "cub", "namespace", "hipCUB", CONVERTED))
                    refs.add(start, line, col, k)
            continue
        f = parsed.get(name)
        if f is None:
            f = parsed[name] = rec.split("\t")
        hip, exp = f[1], f[12]
        same = name not in CONTEXTUAL and not (target_on and name in TARGET_NAMES)
        if blas_v1 and hip and f[3] == "blas" and f[5] == "function" and f"{name}_v2" in amap:
            hip = ""  # the handle-less legacy call: its HIP name takes a handle (HIPIFY: "only _v2 supported")
            result.notes.append(("hipify.tr.blas_v1", line, col))
            same = False  # a note at every occurrence
        if name in HELPER_CALLS:
            hip = helper_call(name, line, col, result)
            same = True
        if hip and (not exp or opts.experimental):
            status = CONVERTED
            if same or (renamed_only and inside(renamed_only, start)):
                pass  # no context rewrite (none for this name, or a branch the preprocessor skips: --amap)
            else:
                hip = context_rewrites(lexed, name, end, hip, f, opts, edits, regroups, result, declared)
                if target_on and name in TARGET_NAMES:
                    hip = target_rewrite(lexed, name, start, end, hip, opts, edits, regroups, result, line, col)
                    if not hip:
                        status = UNSUPPORTED
        else:
            status = EXPERIMENTAL if hip else UNSUPPORTED
            hip = ""
        key = (name, hip, status)
        k = info_index(key)
        if k is None:
            k = new_info(key, Info(name, hip, f[3], f[5], f[2], status, f[7], f[8], f[10], f[11], exp))
        add_offset(start)
        add_line(line)
        add_col(col)
        add_which(k)
        if same:
            plain[name] = k
    if regroups:
        return regroup(text, [*refs.edits(), *edits], regroups), True
    return edits, False


_KEYWORDS = frozenset((
    "return", "case", "goto", "sizeof", "alignof", "decltype", "typeid", "throw", "new", "delete", "co_return",
    "co_yield", "co_await", "else", "do", "typedef", "using", "struct", "class", "enum", "union", "typename",
    "operator", "template", "namespace", "define", "ifdef", "ifndef", "undef", "elif", "if", "defined",
))
_DECLARATOR_END = frozenset("=;,)[{:")
_TAG_BEFORE = r"\b(?:enum|struct|union|class)\s+$"
_FOLLOWS_DECLARATOR = re.compile(r"[ \t\r\n\\]*[=;,)\[{:]")


def _declared_variables(lexed: Lexed, amap: dict[str, str], result: Result) -> set[str]:
    """CUDA type names the file declares as variables or parameters (`cublasStatus_t cublasStatus;`,
    `cudaError_t cudaError = ...`): the table maps the bare tag names (cublasStatus, cudaError) to the HIP type,
    and renaming them would write `hipblasStatus_t hipblasStatus_t;`. A declared name shadows the type for the
    rest of the file, so none of its occurrences is renamed.

    A declaration is a type-kind name that follows a type (an identifier that is not a keyword, '*', '&' or a
    template's '>') and is followed by '=', ';', ',', ')', '[', '{' or ':'. Candidates are found by one regex
    over the masked text, so a file with 50k references pays for the few that can be declarations."""
    types = {n for n in set(lexed.id_names) if n in amap and amap[n].split("\t", 6)[5] == "type"}
    if not types:
        return set()
    masked = lexed.masked
    follows = _FOLLOWS_DECLARATOR.match
    out: set[str] = set()
    for start, name in zip(lexed.id_starts, lexed.id_names, strict=True):
        if name not in types or name in out or follows(masked, start + len(name)) is None:
            continue
        q = start
        while q > 0 and masked[q - 1] in " \t\r\n":
            q -= 1
        if q == 0:
            continue
        c = masked[q - 1]
        if c in "*&>":
            if c == ">" and masked[q - 2:q] in ("->", ">>"):
                continue
        elif c in _WORD_CHARS:
            w = q
            while w > 0 and masked[w - 1] in _WORD_CHARS:
                w -= 1
            if masked[w:q] in _KEYWORDS or masked[w].isdigit():
                continue
        else:
            continue
        out.add(name)
        result.notes.append(("hipify.tr.shadowed", *lexed.line_col(start)))
    return out


def _legacy_blas(lexed: Lexed) -> bool:
    """True when the file uses the legacy cuBLAS API: it includes cublas.h and not cublas_v2.h. There, cublasSgemm
    and every other call that also exists as ..._v2 is the handle-less v1 function, which hipBLAS and rocBLAS do
    not have (HIPIFY leaves them too: "Only '..._v2' version of '...' is supported"); calls that are the same
    in both APIs (cublasSetVector, cublasAlloc ...) follow the table."""
    if "cublas.h" not in lexed.text:
        return False
    paths = set()
    for start, end in lexed.includes:
        parts = split_include(lexed.text[start:end])
        if parts is not None:
            paths.add(parts[2])
    return "cublas.h" in paths and "cublas_v2.h" not in paths


def inside(ranges: list[tuple[int, int]], pos: int) -> bool:
    i = bisect_right(ranges, (pos, float("inf"))) - 1
    return i >= 0 and ranges[i][0] <= pos < ranges[i][1]
