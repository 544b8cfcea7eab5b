"""Call-site rewrites of the rename pass that depend on a call's arguments: the argument spans of a call
(`call_args`), overloads HIP spells with another name chosen by argument count (OVERLOADS), HIP_SYMBOL(...)
around the symbol argument of the *Symbol* APIs (SYMBOL_ARGS), the argument rules of rocm_bridge.hipify.args
(inserted, wrapped, dropped or reordered arguments, new variables declared before the call) and the cuDNN ->
MIOpen argument reorders (MIOPEN_ARGS). CONTEXTUAL names every CUDA name that has such a rewrite.
"""

from __future__ import annotations

from rocm_bridge.hipify.args import DECLARES, RULES, SKIP, declare, needs_wrap, null_drops, pick, wraps_only
from rocm_bridge.hipify.includes import insert_lines
from rocm_bridge.hipify.lexer import Lexed
from rocm_bridge.hipify.result import Result

TYPE_CHECKING = False  # not typing's: the one-line CLI run imports no typing (tests/test_hipify_result.py)
if TYPE_CHECKING:
    from rocm_bridge.hipify.translator import Options

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


# names with context rewrites (overloads, HIP_SYMBOL, argument rules): never on translate's short path
CONTEXTUAL = frozenset(OVERLOADS.keys() | SYMBOL_ARGS.keys() | RULES.keys() | MIOPEN_ARGS.keys())


def next_code_pos(masked: str, pos: int) -> int:
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
    p = next_code_pos(masked, pos)
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


def context_rewrites(lexed: Lexed, name: str, end: int, hip: str, f: list[str], opts: Options, edits: list,
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
        edits.append(insert_lines(lexed, text.rfind("\n", 0, end - len(name)) + 1, decls, indent=True))
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
