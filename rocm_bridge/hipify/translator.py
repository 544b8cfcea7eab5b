"""CUDA -> HIP source translation driven by data/hipify_mappings.csv.

Three passes over the text, each a lexer scan (rocm_bridge.hipify.lexer) so nothing inside a comment, a string,
a character literal or an include path is touched:

1. rename: every code identifier that is a CUDA API name in the active table (exact names only, so a user's
   `cudaCheck` stays) is replaced; `#define` bodies and macro arguments are code and are renamed too. Context
   rewrites happen here: overloads chosen by argument count (cudaEventCreate(&e, flags) ->
   hipEventCreateWithFlags), HIP_SYMBOL(...) around the symbol argument of the *Symbol* APIs, cub:: -> hipcub::,
   includes mapped through data/hipify_headers.csv, and hip/hip_runtime.h added to files with device code.
2. launch (only with kernel_syntax): k<<<g, b, s, st>>>(args) -> hipLaunchKernelGGL(k, dim3(g), dim3(b), s, st,
   args), HIP_KERNEL_NAME(...) around template kernels.
3. lint is separate (rocm_bridge.hipify.lint) and reads the original text.

Every reference found is recorded for the report (rocm_bridge.hipify.report).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from rocm_bridge.hipify import headers as hdr
from rocm_bridge.hipify.args import DECLARES, RULES, SKIP, Rule, declare, needs_wrap, null_drops, pick, wraps_only
from rocm_bridge.hipify.edits import apply_edits, regroup
from rocm_bridge.hipify.index import active_map, target_groups
from rocm_bridge.hipify.lexer import Lexed, lex, split_include
from rocm_bridge.hipify.records import record
from rocm_bridge.hipify.result import (  # noqa: F401  (re-exported: the public names of the translator)
    CONVERTED,
    EXPERIMENTAL,
    UNSUPPORTED,
    HeaderChange,
    Info,
    Launch,
    Reference,
    References,
    Result,
)

# Overloads that HIP spells with another name, chosen by the number of arguments (HIPIFY HipifyAction.cpp,
# FuncOverloads).
OVERLOADS: dict[str, dict[int, str]] = {
    "cudaEventCreate": {1: "hipEventCreate", 2: "hipEventCreateWithFlags"},
    "cudaGraphInstantiate": {5: "hipGraphInstantiate", 3: "hipGraphInstantiateWithFlags"},
    # CUDA 13's cuda.h: #define cuGraphInstantiate cuGraphInstantiateWithFlags (data/hipify_signature_rules.csv)
    "cuGraphInstantiate": {5: "hipGraphInstantiate", 3: "hipGraphInstantiateWithFlags"},
}

# Zero-based index of the symbol argument that HIP wants wrapped in HIP_SYMBOL(...) (HIPIFY FuncArgCasts).
SYMBOL_ARGS: dict[str, int] = {
    "cudaMemcpyToSymbol": 0,
    "cudaMemcpyToSymbolAsync": 0,
    "cudaGetSymbolSize": 1,
    "cudaGetSymbolAddress": 1,
    "cudaMemcpyFromSymbol": 1,
    "cudaMemcpyFromSymbolAsync": 1,
    "cudaGraphAddMemcpyNodeToSymbol": 4,
    "cudaGraphAddMemcpyNodeFromSymbol": 5,
    "cudaGraphMemcpyNodeSetParamsToSymbol": 1,
    "cudaGraphMemcpyNodeSetParamsFromSymbol": 2,
    "cudaGraphExecMemcpyNodeSetParamsToSymbol": 2,
    "cudaGraphExecMemcpyNodeSetParamsFromSymbol": 3,
    "cudaGetTextureReference": 1,
}

# cuDNN calls whose MIOpen counterpart takes its arguments in another order (--miopen only). Facts from HIPIFY's
# FuncArgCasts (HipifyAction.cpp) checked against the MIOpen signatures: (CUDA arity or None, reorder function).
MIOPEN_ARGS: dict[str, tuple[int | None, object]] = {
    # (handle, xDesc, wDesc, convDesc, yDesc, algo, &size) -> (handle, wDesc, xDesc, convDesc, yDesc, &size)
    "cudnnGetConvolutionForwardWorkspaceSize": (7, lambda a: [a[0], a[2], a[1], a[3], a[4], a[6]]),
    "cudnnGetConvolutionBackwardDataWorkspaceSize": (7, lambda a: [a[0], a[2], a[1], a[3], a[4], a[6]]),
    # workspace and its size move to the end
    "cudnnConvolutionForward": (13, lambda a: a[:8] + a[10:] + a[8:10]),
    "cudnnConvolutionBackwardData": (13, lambda a: a[:2] + a[4:6] + a[2:4] + a[6:8] + a[10:] + a[8:10]),
    # algorithm and mode move to the end (miopenSoftmax*_V2)
    "cudnnSoftmaxForward": (9, lambda a: a[:1] + a[3:] + a[1:3]),
    "cudnnSoftmaxBackward": (11, lambda a: a[:1] + a[3:] + a[1:3]),
    # the weight gradient (dwDesc, dw) comes before the workspace (workspace, its size)
    "cudnnRNNBackwardWeights": (15, lambda a: a[:9] + a[11:13] + a[9:11] + a[13:]),
}
# (the pooling, LRN and FindConvolutionForwardAlgorithmEx rewrites are rules in rocm_bridge.hipify.args)

DEVICE_CODE = re.compile(
    r"\b(?:__global__|__device__|__shared__|__constant__|__managed__|threadIdx|blockIdx|blockDim|gridDim"
    r"|__syncthreads)\b"
)

_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
# rarely needed patterns are compiled on first use (re caches them): a one-line run compiles none
_NAMESPACE_BEFORE = r"\bnamespace\s*(?:=\s*)?$|\bnamespace\s+\w+\s*=\s*$"


# names with context rewrites (overloads, HIP_SYMBOL, argument rules): never on translate's short path
_CONTEXTUAL = frozenset(OVERLOADS.keys() | SYMBOL_ARGS.keys() | RULES.keys() | MIOPEN_ARGS.keys())
_TARGET_NAMES = ("__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__any_sync",
                 "__all_sync", "__activemask", "__syncwarp", "cudaHostAlloc", "__nv_bfloat16", "__nv_bfloat162",
                 "__match_any_sync", "__match_all_sync", "__bfloat162float", "__float2bfloat16")
# CUDA's SIMD-in-a-word intrinsics, which no HIP has: a helper of hipify_compat.h for every target (rules with no
# `until`)
_HELPER_CALLS = frozenset(f"__{n}" for n in (
    "vadd2", "vsub2", "vmaxs2", "vmins2", "vmaxu2", "vminu2", "vabsdiffu2", "vadd4", "vsub4", "vmaxs4", "vmins4",
    "vmaxu4", "vminu4", "vabsdiffu4", "vabsdiffs4", "vavgu4", "vcmpeq4", "vcmpgtu4", "vcmpges4", "vsadu4"))
# (the names of data/hipify_target_rules.csv but its header rule: tests/test_hipify_target.py keeps them equal)


@record
class Options:
    roc: bool = False  # --roc: rocBLAS / rocSPARSE / rocSOLVER / rocRAND instead of the hip* wrappers
    miopen: bool = False  # --miopen: cuDNN -> MIOpen instead of hipDNN
    experimental: bool = False  # --experimental: also apply mappings HIPIFY marks experimental
    kernel_syntax: bool = False  # --hip-kernel-execution-syntax: <<<>>> -> hipLaunchKernelGGL
    skip_excluded: bool = False  # --skip-excluded-preprocessor-conditional-blocks (rocm_bridge.hipify.ppeval)
    defines: tuple[str, ...] = ()  # -D NAME[=VALUE], for skip_excluded
    amap: bool = False  # --amap: with skip_excluded, still rename the CUDA names in the skipped branches
    rocm_version: str = ""  # --rocm-version: the target release ("" = the newest the table knows: no target rule)
    wavefront: bool = False  # --wavefront: rewrite the provable warp-32 idioms for any wavefront size (wavefront.py)

    @property
    def roc_groups(self) -> tuple[str, ...]:
        return target_groups(self.roc, self.miopen)


def _next_code_pos(masked: str, pos: int) -> int:
    n = len(masked)
    while pos < n and masked[pos] in " \t\r\n\\":
        pos += 1
    return pos




def call_args(lexed: Lexed, pos: int) -> tuple[list[tuple[int, int]], int] | None:
    """Argument spans (stripped) of a call whose name ends at pos, and the offset of its ')'.

    None when no '(' follows or the parenthesis never closes. Brackets inside comments and literals are already
    blanked in the masked text; the bracket structure is computed once per text (Lexed.brackets).
    """
    masked = lexed.masked
    p = _next_code_pos(masked, pos)
    if p >= len(masked) or masked[p] != "(":
        return None
    group = lexed.group(p)
    if group is None or masked[group[0]] != ")":
        return None
    close = group[0]
    cuts = [p, *group[1], close]
    stripped = [lexed.strip(cuts[k] + 1, cuts[k + 1]) for k in range(len(cuts) - 1)]
    if len(stripped) == 1 and stripped[0][0] == stripped[0][1]:
        stripped = []  # f()
    return stripped, close


def _rename(lexed: Lexed, opts: Options, result: Result) -> tuple[list[tuple[int, int, str]], bool]:
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
                p = _next_code_pos(masked, end)
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
        same = name not in _CONTEXTUAL and not (target_on and name in _TARGET_NAMES)
        if blas_v1 and hip and f[3] == "blas" and f[5] == "function" and f"{name}_v2" in amap:
            hip = ""  # the handle-less legacy call: its HIP name takes a handle (HIPIFY: "only _v2 supported")
            result.notes.append(("hipify.tr.blas_v1", line, col))
            same = False  # a note at every occurrence
        if name in _HELPER_CALLS:
            hip = _helper_call(name, line, col, result)
            same = True
        if hip and (not exp or opts.experimental):
            status = CONVERTED
            if same or (renamed_only and _inside(renamed_only, start)):
                pass  # no context rewrite (none for this name, or a branch the preprocessor skips: --amap)
            else:
                hip = _context_rewrites(lexed, name, end, hip, f, opts, edits, regroups, result, declared)
                if target_on and name in _TARGET_NAMES:
                    hip = _target_rewrite(lexed, name, start, end, hip, opts, edits, regroups, result, line, col)
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


def _context_rewrites(lexed: Lexed, name: str, end: int, hip: str, f: list[str], opts: Options, edits: list,
                      regroups: list, result: Result, declared: dict[str, int]) -> str:
    """The rewrites around a call of `name` (ending at `end`) that depend on its arguments: overloads chosen by
    argument count, HIP_SYMBOL, argument rules, MIOpen reorders. Returns the HIP name to write."""
    text = lexed.text
    if name in OVERLOADS:
        args = call_args(lexed, end)
        if args is not None:
            hip = OVERLOADS[name].get(len(args[0]), hip)
    if name in SYMBOL_ARGS:
        args = call_args(lexed, end)
        k = SYMBOL_ARGS[name]
        if args is not None and len(args[0]) > k:
            s, e = args[0][k]
            if not text.startswith("HIP_SYMBOL", s):
                edits.append((s, s, "HIP_SYMBOL("))
                edits.append((e, e, ")"))
    if name in RULES:
        target = "miopen" if f[2] == "MIOpen" else "roc" if f[2].startswith("roc") else "hip"
        _arg_rule(lexed, name, end, target, edits, regroups, result, declared)
    if opts.miopen and name in MIOPEN_ARGS and f[2] == "MIOpen":
        args = call_args(lexed, end)
        arity, reorder = MIOPEN_ARGS[name]
        if args is not None and (arity is None or len(args[0]) == arity):
            regroups.append((args[0], reorder))
    return hip


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


def _target_rewrite(lexed: Lexed, name: str, start: int, end: int, hip: str, opts: Options, edits: list,
                    regroups: list, result: Result, line: int, col: int) -> str:
    """--rocm-version: the rule of data/hipify_target_rules.csv for `name` when the target is older than the rule's
    `until` (rocm_bridge.hipify.target). Returns the name to write ("" = left for a person); records the use."""
    from rocm_bridge.hipify import target as tg

    rule = tg.rule_for(name, opts.rocm_version)
    if rule is None or rule.kind == "header":
        return hip
    written = rule.replacement
    kind = rule.kind
    if kind == "manual":
        written = ""
    elif kind == "rename":
        args = call_args(lexed, end)
        if args is not None:
            edits.append((args[1] + 1, args[1] + 1, f" /* hipify: {name} -> {written} before ROCm {rule.until} */"))
    else:
        args = call_args(lexed, end)
        if args is None:
            written = ""  # not a call (a function pointer, a macro argument): left for a person
        elif kind == "drop_mask":
            spans, close = args
            if not spans:
                return hip
            regroups.append((spans, Rule("hip", None, (("remove", 0, ""),))))
            mask = lexed.text[spans[0][0]:spans[0][1]]
            if tg.full_mask(mask, _full_mask_names(lexed)):
                comment = f"/* hipify: {name} before ROCm {rule.until}; the mask named all lanes */"
            else:
                edits.append((start, start, f"(hipify_check_lanes({mask}), "))
                edits.append((close + 1, close + 1, ")"))
                _want_helper(result, "hipify_check_lanes")
                comment = f"/* hipify: {name} before ROCm {rule.until}; its lanes are checked */"
            edits.append((close + 1, close + 1, " " + comment))
            if tg.half_shuffles_needed(rule, opts.rocm_version, lexed):
                _want_helper(result, tg.HALF_SHUFFLES)  # HIP's plain shuffles take __half / __half2 from 5.6
        elif kind == "call_text":
            spans, close = args
            if spans:
                written = ""
            else:
                edits.append((end, close + 1, f" /* hipify: {name}() before ROCm {rule.until} */"))
        elif kind == "helper":
            _want_helper(result, written)
            edits.append((args[1] + 1, args[1] + 1, f" /* hipify: {name} before ROCm {rule.until} */"))
    result.target_rewrites.append(tg.TargetRewrite(line, col, name, written, rule.until, rule.note))
    return written


def _helper_call(name: str, line: int, col: int, result: Result) -> str:
    """A CUDA intrinsic no HIP has, written as the helper of hipify_compat.h that the file then gets."""
    from rocm_bridge.hipify import target as tg

    rule = tg.rules()[name]
    _want_helper(result, rule.replacement)
    result.target_rewrites.append(tg.TargetRewrite(line, col, name, rule.replacement, rule.until, rule.note))
    return rule.replacement


def _want_helper(result: Result, section: str) -> None:
    if section not in result.helpers:
        result.helpers.append(section)


def _full_mask_names(lexed: Lexed) -> set[str]:
    """Names the file defines as the full 32-bit mask (#define FULL 0xffffffff, const unsigned FULL = ...)."""
    if lexed._full_masks is None:
        from rocm_bridge.hipify.lint import MASK_NAME_DEFS

        masked = lexed.masked
        lexed._full_masks = {m.group(1) for p in MASK_NAME_DEFS for m in re.finditer(p, masked)} \
            if ("0x" in masked or "0X" in masked) else set()
    return lexed._full_masks


def _helper_edit(lexed: Lexed, result: Result) -> tuple[int, int, str]:
    """The helpers of hipify_compat.h the file needs, written after its last top-level #include (else where
    hip_runtime.h goes)."""
    from rocm_bridge.hipify.target import helper_sections

    sections = helper_sections()
    body = ["// hipify: helpers for the target ROCm release (rocm_bridge/hipify/hipify_compat.h)"]
    for name in result.helpers:
        body.extend(sections[name].rstrip("\n").split("\n"))
    pos = None
    if lexed.includes:
        cond = lexed.conditionals
        top = [e for s, e in lexed.includes if cond.depth(s) == cond.base_depth]
        if top:
            nl = lexed.text.find("\n", top[-1])
            pos = len(lexed.text) if nl == -1 else nl + 1
    if pos is None:
        pos = _after_guard(lexed)
    return _insert_lines(lexed, pos, body)


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


def _arg_rule(lexed: Lexed, name: str, end: int, target: str, edits: list, regroups: list, result: Result,
              declared: dict[str, int]) -> None:
    """Apply the argument rule of rocm_bridge.hipify.args to the call of `name` ending at `end`."""
    args = call_args(lexed, end)
    if args is None:
        return
    spans = _merge_template_args(lexed.masked, args[0])  # k<float, 4> is one argument, not two
    rule = pick(name, target, len(spans))
    if rule is None:
        return
    text = lexed.text
    applied = null_drops(rule, [text[s:e] for s, e in spans], lexed.masked)
    if applied is SKIP:
        return
    note = rule.note if applied is None else applied.note  # dropped null arguments need no note
    if note:
        result.notes.append((note, *lexed.line_col(end - len(name))))
    if applied is None:
        return  # an argument HIP's call has no place for carries a value: left for a person (the note says why)
    rule = applied
    if any(op in DECLARES for op, _i, _v in rule.ops):  # new variables, declared before the call's line
        rule, decls = declare(rule, declared)
        edits.append(_insert_lines(lexed, text.rfind("\n", 0, end - len(name)) + 1, decls, indent=True))
    if wraps_only(rule) and spans:  # insertions only: calls nested inside an argument keep their own rewrites
        tail = []  # appended last: after the ')' of a wrapped last argument
        for op, i, value in rule.ops:  # (equal offsets keep this order: an insert goes before a wrap's '(')
            if op == "insert":
                if i < len(spans):
                    edits.append((spans[i][0], spans[i][0], f"{value}, "))
                else:
                    tail.append((spans[-1][1], spans[-1][1], f", {value}"))
            elif i < len(spans):
                s, e = spans[i]
                if needs_wrap(text[s:e], value):
                    edits.append((s, s, value + "("))
                    edits.append((e, e, ")"))
        edits.extend(tail)
        return
    if spans:
        regroups.append((spans, rule))


def _merge_template_args(masked: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Join arguments split at a comma inside template brackets (kernel<float, 4>)."""
    if not any("<" in masked[s:e] for s, e in spans):
        return spans
    out: list[tuple[int, int]] = []
    depth = 0
    for s, e in spans:
        piece = masked[s:e]
        if depth > 0 and out:
            out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
        depth += piece.count("<") - piece.count(">")
        depth = max(depth, 0)
    return spans if depth else out  # brackets that never close were comparisons (a < b), not a template


def _includes(lexed: Lexed, opts: Options, result: Result, has_device: bool, has_api_include: bool
              ) -> list[tuple[int, int, str]]:
    """Map every CUDA include; make hip/hip_runtime.h the first HIP header when the file needs it.

    hipify-clang adds hip/hip_runtime.h to every file it translates unless a mapped cuda.h / cuda_runtime.h gave
    it (HipifyAction::EndSourceFileAction), so a host file that includes only cublas_v2.h gets it too. Kept from
    before: a file without any CUDA (tree mode translates plain C++ too) and a host file that includes
    hip_runtime_api.h get none; device code always does.

    HIP 5.x headers such as hip_cooperative_groups.h expect hip_runtime.h to be included before them, so a mapped
    cuda_runtime.h that comes after another HIP header moves up. An injected or moved include goes before the
    first #include outside any conditional block (inside the include guard), else right after the guard or
    `#pragma once`, never into an #if block that may be compiled out."""
    text = lexed.text
    edits: list[tuple[int, int, str]] = []
    seen: set[str] = set()
    roc_groups = opts.roc_groups
    cond = None
    base = 0
    anchor = None  # first include outside conditional blocks
    first_hip = False  # a HIP header other than the runtime was included before
    moved = False
    mapped_any = False  # a CUDA header of the table was included
    for start, end in lexed.includes:
        directive = text[start:end]
        parts = split_include(directive)
        if parts is None:
            continue
        if cond is None:
            cond = lexed.conditionals
            base = cond.base_depth
        top = cond.depth(start) == base
        if anchor is None and top:
            anchor = start
        lead, open_q, path, close_q = parts
        mapped = hdr.map_header(path, roc_groups)
        line = lexed.line_of(start)
        if mapped is None:
            seen.add(path)
            if path == hdr.HIP_RUNTIME:
                first_hip = False  # already HIP code: leave its order alone
            elif path.startswith("hip") and top:
                first_hip = True
            continue
        mapped_any = True
        new, _hm = mapped
        if opts.rocm_version and path == "cuda_bf16.h":  # the one header rule of data/hipify_target_rules.csv
            from rocm_bridge.hipify import target as tg

            rule = tg.rule_for(path, opts.rocm_version)
            if rule is not None:
                new = rule.replacement
                result.target_rewrites.append(tg.TargetRewrite(line, 1, path, new, rule.until, rule.note))
        if not new:
            edits.append((start, end, ""))
            result.headers.append(HeaderChange(line, path, "", "dropped"))
        elif new in seen:
            edits.append((start, end, ""))
            result.headers.append(HeaderChange(line, path, new, "duplicate"))
        elif new == hdr.HIP_RUNTIME and first_hip and top and anchor is not None and anchor < start:
            seen.add(new)
            moved = True
            edits.append((start, end, ""))
            result.headers.append(HeaderChange(line, path, new, "moved"))
        else:
            seen.add(new)
            if top:
                first_hip = True
            edits.append((start, end, f"{lead}{open_q}{new}{close_q}"))
            result.headers.append(HeaderChange(line, path, new, "mapped"))
    has_cuda = mapped_any or bool(result.references.infos)
    need_runtime = has_device or (has_cuda and not has_api_include)
    if moved or (need_runtime and hdr.HIP_RUNTIME not in seen):
        if anchor is not None:
            pos = text.rfind("\n", 0, anchor) + 1
        else:
            pos = _after_guard(lexed)
        edit = _insert_lines(lexed, pos, [f"#include <{hdr.HIP_RUNTIME}>"])
        edits.append(edit)
        if not moved:
            result.headers.append(HeaderChange(lexed.line_of(edit[0]), "", hdr.HIP_RUNTIME, "added"))
    return edits


def _insert_lines(lexed: Lexed, line_start: int, lines: list[str], indent: bool = False) -> tuple[int, int, str]:
    """The edit that inserts whole lines before the line starting at line_start, moved up to the start of a
    comment or literal spanning that line, in the file's line endings; indented like that line if asked."""
    text = lexed.text
    pos = lexed.safe_line_start(line_start)
    newline = "\r\n" if "\r\n" in text[:65536] else "\n"
    lead = ""
    if indent:
        stop = pos
        while stop < len(text) and text[stop] in " \t":
            stop += 1
        lead = text[pos:stop]
    return pos, pos, "".join(f"{lead}{line}{newline}" for line in lines)


_PRAGMA_ONCE = r"[ \t]*#[ \t]*pragma[ \t]+once[^\n]*\n"


def _after_guard(lexed: Lexed) -> int:
    """Where a header goes in a file without includes: after the include guard's #define or `#pragma once`,
    else before the first line of code."""
    text, masked = lexed.text, lexed.masked
    cond = lexed.conditionals if "#" in text else None  # no directive: no guard, and no preproc import
    if cond is not None and cond.guard is not None:
        define = cond.directives[1]
        nl = text.find("\n", define.end)
        return len(text) if nl == -1 else nl + 1
    pos = len(masked) - len(masked.lstrip())
    pos = text.rfind("\n", 0, pos) + 1
    m = re.compile(_PRAGMA_ONCE).match(text, pos)
    return m.end() if m else pos


def translate(text: str, options: Options | None = None) -> Result:
    """Translate CUDA source text to HIP. Never raises on any str input."""
    opts = options or Options()
    result = Result(text, text, opts)
    lexed = lex(text, active_map(opts.roc, opts.miopen))
    result.lexed = lexed
    for offset, what in lexed.unterminated:
        line, col = lexed.line_col(offset)
        result.notes.append((f"hipify.note.unterminated_{what}", line, col))
    if opts.skip_excluded and lexed.conditionals.directives:
        _skip_excluded(lexed, opts, result)
    edits, renames_listed = _rename(lexed, opts, result)
    has_device = bool(lexed.launches) or (DEVICE_CODE.search(text) is not None
                                           and DEVICE_CODE.search(lexed.masked) is not None)
    has_api_include = any(hdr.HIP_RUNTIME_API in text[s:e] or "cuda_runtime_api.h" in text[s:e]
                          for s, e in lexed.includes)
    edits += _includes(lexed, opts, result, has_device, has_api_include)
    if opts.wavefront:
        # a target older than 6.2 drops the _sync masks (data/hipify_target_rules.csv): nothing to widen there
        from rocm_bridge.hipify.target import rule_for
        from rocm_bridge.hipify.wavefront import rewrites

        masks = rule_for("__shfl_sync", opts.rocm_version) is None
        wave_edits, result.wave_rewrites = rewrites(lexed, result.skipped, masks=masks)
        edits += wave_edits
    if result.helpers:
        edits.append(_helper_edit(lexed, result))
    if ("_H" in text or "CUSPARSEAPI" in text) and "#" in text:  # every guard macro but one ends in _H_ / _H__
        from rocm_bridge.hipify.preproc import guard_edits

        for start, end, _name, guard in guard_edits(lexed.masked, lexed.conditionals, opts.roc_groups):
            if _inside(result.skipped, start):
                continue
            edits.append((start, end, guard))
            result.notes.append(("hipify.tr.guard_macro", *lexed.line_col(start)))
    lines = result.changed_lines
    for start, _end, _repl in edits:
        lines.add(lexed.line_of(start))
    out = apply_edits(text, edits, () if renames_listed else result.references.edits())
    if not renames_listed:
        result.defer_rename_lines()  # their lines join changed_lines when it is first read
    if lexed.launches:
        from rocm_bridge.hipify.launch import rewrite_launches

        out = rewrite_launches(out, lexed, opts, result)
    result.output = out
    if not result.references and not lexed.includes and not lexed.launches and not has_device:
        result.notes.append(("hipify.note.no_cuda", 0, 0))
    return result


def _skip_excluded(lexed: Lexed, opts: Options, result: Result) -> None:
    """--skip-excluded-preprocessor-conditional-blocks: drop what lies in the branches a CUDA compile skips from
    the scan, so nothing there is renamed, mapped or launched (rocm_bridge.hipify.ppeval).

    With --amap (HIPIFY PR #1302: "hipify as much as possible ignoring 'default-preprocessor' behavior") the
    CUDA names in those branches are renamed all the same, as hipify-clang's raw-token pass does; their includes,
    launches and argument rewrites stay as they are (hipify-clang does those on clang's AST, which has no skipped
    branch in it)."""
    from rocm_bridge.hipify.ppeval import excluded_ranges

    paths = []
    for start, end in lexed.includes:
        parts = split_include(lexed.text[start:end])
        if parts is not None:
            paths.append((start, parts[2]))
    ranges = excluded_ranges(lexed.text, lexed.masked, lexed.conditionals, paths, opts.defines)
    if not ranges:
        return
    result.skipped = ranges
    if not opts.amap:  # --amap: their names are still renamed (rocm_bridge.hipify.translator._rename)
        lexed.keep_ids(lambda start: not _inside(ranges, start))
    lexed.includes = [t for t in lexed.includes if not _inside(ranges, t[0])]
    lexed.excluded_launches = {k for k, p in enumerate(lexed.launches) if _inside(ranges, p)}
    note = "hipify.tr.skipped_block_amap" if opts.amap else "hipify.tr.skipped_block"
    for start, _end in ranges:
        result.notes.append((note, lexed.line_of(max(start - 1, 0)), 1))


def _inside(ranges: list[tuple[int, int]], pos: int) -> bool:
    i = bisect_right(ranges, (pos, float("inf"))) - 1
    return i >= 0 and ranges[i][0] <= pos < ranges[i][1]


@lru_cache(maxsize=16)
def translate_cached(text: str, options: Options) -> Result:
    """translate() memoised on (text, options): the page re-renders the same input many times."""
    return translate(text, options)
