"""Kernel launches: k<<<grid, block[, shmem[, stream]]>>>(args) -> hipLaunchKernelGGL(...).

HIP compiles the triple-chevron syntax, so by default launches are kept and only listed in the report. With
--hip-kernel-execution-syntax each launch becomes

    hipLaunchKernelGGL(k, dim3(grid), dim3(block), shmem, stream, args...)

with 0 for an omitted shared-memory size or stream, dim3(...) added unless the expression already is one, and
HIP_KERNEL_NAME(...) around a template kernel (its commas would otherwise split the macro's arguments). The
argument texts are copied verbatim, newlines included, so the line count does not change.
"""

from __future__ import annotations

import re

from rocm_bridge.hipify.lexer import Lexed, lex

_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


# Bounds on every scan that starts at a launch: without them, thousands of unterminated '<<<' would make the
# work quadratic in the file size.
MAX_KERNEL_EXPR = 1024
MAX_CONFIG = 4096


def _kernel_start(masked: str, end: int) -> int | None:
    """Start offset of the kernel expression that ends at `end` (exclusive): name, ns::name, name<T, U>."""
    i = end
    floor = max(0, end - MAX_KERNEL_EXPR)
    colons = None  # offset of the last '::' seen
    while True:
        while i > 0 and masked[i - 1] in " \t\r\n":
            i -= 1
        if i > 0 and masked[i - 1] == ">":  # template arguments
            depth = 0
            j = i - 1
            while j >= floor:
                c = masked[j]
                if c == ">":
                    depth += 1
                elif c == "<":
                    depth -= 1
                    if depth == 0:
                        break
                elif c in ";{}":
                    return None
                j -= 1
            if j < floor:
                return None
            i = j
            while i > 0 and masked[i - 1] in " \t":
                i -= 1
        j = i
        while j > 0 and masked[j - 1] in _WORD:
            j -= 1
        if j == i and colons is not None:
            return colons  # ::kernel (global scope)
        if j == i or masked[j] in "0123456789":
            return None
        i = j
        colons = None
        k = i
        while k > 0 and masked[k - 1] in " \t":
            k -= 1
        if k >= 2 and masked[k - 2:k] == "::":
            i = colons = k - 2
            continue
        return i


def _config(masked: str, start: int) -> tuple[list[tuple[int, int]], int] | None:
    """Spans of the launch configuration after '<<<' at start, and the offset just after '>>>'."""
    first = start + 3
    close = masked.find(">>>", first, first + MAX_CONFIG)
    if close == -1:
        return None
    seg = masked[first:close]
    if ";" in seg or "<<<" in seg:
        return None
    depth = 0
    spans = []
    s = first
    for i, c in enumerate(seg, first):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                return None
        elif c == "," and depth == 0:
            spans.append((s, i))
            s = i + 1
    if depth != 0:
        return None
    spans.append((s, close))
    return spans, close + 3


def _args(lexed: Lexed, pos: int) -> tuple[int, int] | None:
    """(open, close) offsets of the parenthesised kernel arguments that follow pos."""
    masked = lexed.masked
    n = len(masked)
    while pos < n and masked[pos] in " \t\r\n":
        pos += 1
    if pos >= n or masked[pos] != "(":
        return None
    group = lexed.group(pos)
    if group is None or masked[group[0]] != ")":
        return None
    return pos, group[0]


def _is_dim3(expr: str) -> bool:
    if not (expr.startswith("dim3") and expr.endswith(")")):
        return False
    rest = expr[4:].lstrip()
    if not rest.startswith("("):
        return False
    depth = 0
    for i, c in enumerate(rest):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i == len(rest) - 1
    return False


_PREFIX_WORDS = ("else", "do")
_NOT_MACROS = frozenset(("return", "if", "while", "for", "switch", "sizeof", "decltype", "throw", "co_return"))
_DEFINE = re.compile(r"[ \t]*#[ \t]*define[ \t]+$")


def _statement(masked: str, start: int, close: int) -> bool:
    """True if the launch from start to its closing ')' can become hipLaunchKernelGGL(...), which HIP defines
    as a `do { ... } while (0)` statement (amd_hip_runtime.h, ROCm 5.2): a launch that is a statement of its
    own, a macro body, or a whole macro argument (SYNC(k<<<g, b>>>(x))). A launch used inside an expression,
    ((k<<<g, b>>>(x))), (void)k<<<...>>>(...) or return k<<<...>>>(...), stays <<<>>>, which HIP compiles."""
    i = start
    while i > 0 and masked[i - 1] in " \t\r\n\\":
        i -= 1
    if i == 0:
        return True
    prev = masked[i - 1]
    n = len(masked)
    j = close + 1
    while j < n and masked[j] in " \t\r\n\\":
        j += 1
    nxt = masked[j] if j < n else ";"
    if prev in ";{}":
        return True
    if prev == ")":
        return not masked[max(0, i - 6):i].replace(" ", "").endswith("(void)")
    if prev == ":":
        return i < 2 or masked[i - 2] != ":"
    if prev in "_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789":
        w = i
        while w > 0 and masked[w - 1] in _WORD:
            w -= 1
        if masked[w:i] in _PREFIX_WORDS:
            return True
        line = masked[masked.rfind("\n", 0, w) + 1:w]
        return _DEFINE.match(line) is not None  # #define LAUNCH k<<<1, 1>>>(p)
    if prev == "," and nxt in "),":
        return True
    if prev == "(" and nxt in "),":  # a macro argument: an identifier right before the '('
        k = i - 1
        while k > 0 and masked[k - 1] in " \t":
            k -= 1
        w = k
        while w > 0 and masked[w - 1] in _WORD:
            w -= 1
        return w < k and masked[w:k] not in _NOT_MACROS
    return False


# a __global__ function declared under `template <...>`: group 1 its name (qualifiers, __launch_bounds__(...)
# and the return type may come between)
_KERNEL = (r"__global__\s+(?:[A-Za-z_]\w*\s+)*?(?:[A-Za-z_]\w*\s*[*&]?\s*)?(?:__launch_bounds__\s*\([^()]*\)\s*)?"
           r"(?!__launch_bounds__)([A-Za-z_]\w*)\s*\(")
_TEMPLATE_KERNEL = r"\btemplate\s*<[^{};]*?>\s*(?:[A-Za-z_]\w*\s+)*?" + _KERNEL


def template_kernels(masked: str) -> frozenset[str]:
    """Names of the file's __global__ function templates that no plain __global__ function shares: a launch of
    one with deduced template arguments (k<<<g, b>>>(x)) is a template instantiation, which hipify-clang wraps in
    HIP_KERNEL_NAME (HipifyAction::cudaLaunchKernel, isTemplateInstantiation)."""
    if "template" not in masked or "__global__" not in masked:
        return frozenset()
    templated = {m.start(1): m.group(1) for m in re.finditer(_TEMPLATE_KERNEL, masked)}  # by the name's offset
    if not templated:
        return frozenset()
    plain = {m.group(1) for m in re.finditer(_KERNEL, masked) if m.start(1) not in templated}
    return frozenset(set(templated.values()) - plain)


def rewrite_launches(text: str, original: Lexed, opts, result) -> str:
    """Record every launch of the original text; rewrite them in `text` (the renamed output) when asked."""
    from rocm_bridge.hipify.translator import Launch

    lexed = lex(text) if opts.kernel_syntax else original
    masked = lexed.masked
    pieces = []
    last = 0
    templates = None  # template_kernels(), on the first launch rewritten
    for idx, pos in enumerate(lexed.launches):
        if idx in original.excluded_launches:
            continue
        orig_pos = original.launches[idx] if idx < len(original.launches) else pos
        line, col = original.line_col(orig_pos)
        kstart = _kernel_start(masked, pos)
        cfg = _config(masked, pos)
        kernel = lexed.text[kstart:pos].strip() if kstart is not None else ""
        if not opts.kernel_syntax:
            result.launches.append(Launch(line, col, kernel, False))
            continue
        reason = ""
        if kstart is None:
            reason = "hipify.launch.no_kernel"
        elif cfg is None or len(cfg[0]) < 2 or len(cfg[0]) > 4:
            reason = "hipify.launch.bad_config"
        else:
            arg_span = _args(lexed, cfg[1])
            if arg_span is None:
                reason = "hipify.launch.no_args"
        if not reason and not _statement(masked, kstart, arg_span[1]):
            reason = "hipify.launch.expression"
        if reason or kstart < last:
            result.launches.append(Launch(line, col, kernel, False, reason or "hipify.launch.nested"))
            continue
        spans, _after = cfg
        conf = [text[s:e].strip() for s, e in spans]
        grid, block = conf[0], conf[1]
        shmem = conf[2] if len(conf) > 2 and conf[2] else "0"
        stream = conf[3] if len(conf) > 3 and conf[3] else "0"
        grid = grid if _is_dim3(grid) else f"dim3({grid})"
        block = block if _is_dim3(block) else f"dim3({block})"
        if templates is None:
            templates = template_kernels(original.masked)
        wrap = "<" in kernel or kernel.rpartition("::")[2] in templates
        name = f"HIP_KERNEL_NAME({kernel})" if wrap else kernel
        open_p, close_p = arg_span
        inner = text[open_p + 1:close_p]
        body = inner.lstrip(" \t")
        if not inner.strip():
            args = "\n" * inner.count("\n")
        elif "\n" in inner:  # multi-line argument list: keep its layout
            args = ("," if body.startswith(("\n", "\r")) else ", ") + body.rstrip(" \t")
        else:
            args = ", " + inner.strip()
        new = f"hipLaunchKernelGGL({name}, {grid}, {block}, {shmem}, {stream}{args})"
        # keep the line count: newlines lost from the configuration go after the call
        new += "\n" * max(text.count("\n", kstart, close_p + 1) - new.count("\n"), 0)
        pieces.append(text[last:kstart])
        pieces.append(new)
        last = close_p + 1
        result.launches.append(Launch(line, col, kernel, True))
        result.changed_lines.add(line)
    if not opts.kernel_syntax:
        return text
    pieces.append(text[last:])
    return "".join(pieces)
