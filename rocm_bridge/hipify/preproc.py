"""Preprocessor conditionals, read from the masked text (comments and literals blanked): where each
#if / #ifdef / #ifndef / #elif / #else / #endif is, how deep every offset is nested, and the include guard.

The translator uses this to place an injected #include outside conditional blocks, to rewrite tests of CUDA's
own include-guard macros, and for --skip-excluded-preprocessor-conditional-blocks.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from rocm_bridge.hipify.records import record

_KIND = re.compile(r"(?:ifdef|ifndef|if|elif|else|endif|define|undef)\b")


def _directives(masked: str):
    """(line start, kind, expression start, end) of each conditional / #define / #undef directive. Plain string
    scans: a '#' that starts a line, the directive word, the line end (backslash continuations included). A
    MULTILINE '^' regex would try every offset of a 5 MB text."""
    find = masked.find
    n = len(masked)
    pos = find("#")
    while pos != -1:
        line = masked.rfind("\n", 0, pos) + 1
        k = pos + 1
        while k < n and masked[k] in " \t":
            k += 1
        m = _KIND.match(masked, k) if line == pos or not masked[line:pos].strip(" \t") else None
        if m is None:
            pos = find("#", pos + 1)
            continue
        e = m.end()
        end = find("\n", e)
        while end != -1 and masked[end - 1] == "\\":
            end = find("\n", end + 1)
        end = n if end == -1 else end
        yield line, m.group(), e, end
        pos = find("#", end)


@record
class Directive:
    start: int  # offset of the line's first character
    end: int  # offset of the end of the directive (before its newline)
    kind: str  # if ifdef ifndef elif else endif define undef
    expr_start: int  # offset of the expression / macro name
    expr: str


class Conditionals:
    def __init__(self, masked: str) -> None:
        self.directives: list[Directive] = []
        self.depth_after: list[int] = []  # nesting depth after each directive
        depth = 0
        for line, kind, expr_start, end in _directives(masked):
            d = Directive(line, end, kind, expr_start, masked[expr_start:end].replace("\\\n", " ").strip())
            if kind in ("if", "ifdef", "ifndef"):
                depth += 1
            elif kind == "endif":
                depth = max(depth - 1, 0)
            self.directives.append(d)
            self.depth_after.append(depth)
        self._starts = [d.start for d in self.directives]
        self.guard = _guard(masked, self.directives)

    def depth(self, pos: int) -> int:
        """How many conditional blocks enclose offset pos (the include guard counts as one)."""
        i = bisect_right(self._starts, pos) - 1
        return self.depth_after[i] if i >= 0 else 0

    @property
    def base_depth(self) -> int:
        return 1 if self.guard else 0

    def blocks(self):
        """Every conditional block as (directive index of #if.., [indices of its #elif/#else], index of #endif)."""
        stack: list[tuple[int, list[int]]] = []
        for i, d in enumerate(self.directives):
            if d.kind in ("if", "ifdef", "ifndef"):
                stack.append((i, []))
            elif d.kind in ("elif", "else") and stack:
                stack[-1][1].append(i)
            elif d.kind == "endif" and stack:
                first, middle = stack.pop()
                yield first, middle, i


def _guard(masked: str, directives: list[Directive]) -> tuple[int, int] | None:
    """(index of the guard's #ifndef, index of its #endif) when the file is wrapped in `#ifndef X / #define X ...
    #endif` with only blanks and comments outside, else None."""
    if len(directives) < 3 or directives[0].kind != "ifndef" or directives[1].kind != "define":
        return None
    name = directives[0].expr
    if directives[1].expr.split()[:1] != [name] or masked[:directives[0].start].strip():
        return None
    depth = 0
    for i, d in enumerate(directives):
        if d.kind in ("if", "ifdef", "ifndef"):
            depth += 1
        elif d.kind == "endif":
            depth -= 1
            if depth == 0:
                if masked[d.end:].strip():
                    return None
                return 0, i
    return None


# CUDA's own include-guard macros (tested by code such as cuda-samples' Common/helper_cuda.h to find out which
# CUDA headers were included) -> the include guard of the HIP / ROCm header the translation includes instead, so
# the guarded sections survive the port. Guards read from the headers themselves: ROCm 5.2's /usr/include/hip,
# hiprand, hipsparse, rocsparse, rocrand (Debian), hipBLAS / hipFFT / hipSOLVER / MIOpen from their public
# sources (checked 2026-12-01). (CUDA macro, HIP guard, ROC guard under --roc / --miopen or "" = same as HIP.)
GUARD_MACROS: dict[str, tuple[str, str]] = {
    "__CUDA_RUNTIME_H__": ("HIP_INCLUDE_HIP_HIP_RUNTIME_H", ""),
    "__CUDA_RUNTIME_API_H__": ("HIP_INCLUDE_HIP_HIP_RUNTIME_API_H", ""),
    "__cuda_cuda_h__": ("HIP_INCLUDE_HIP_HIP_RUNTIME_H", ""),
    "__DRIVER_TYPES_H__": ("HIP_INCLUDE_HIP_DRIVER_TYPES_H", ""),
    "__VECTOR_TYPES_H__": ("HIP_INCLUDE_HIP_HIP_VECTOR_TYPES_H", ""),
    "__TEXTURE_TYPES_H__": ("HIP_INCLUDE_HIP_TEXTURE_TYPES_H", ""),
    "__SURFACE_TYPES_H__": ("HIP_INCLUDE_HIP_SURFACE_TYPES_H", ""),
    "__CHANNEL_DESCRIPTOR_H__": ("HIP_INCLUDE_HIP_CHANNEL_DESCRIPTOR_H", ""),
    "__LIBRARY_TYPES_H__": ("HIP_INCLUDE_HIP_LIBRARY_TYPES_H", ""),
    "__CUDA_FP16_H__": ("HIP_INCLUDE_HIP_HIP_FP16_H", ""),
    "__CUDA_FP16_HPP__": ("HIP_INCLUDE_HIP_HIP_FP16_H", ""),
    "CU_COMPLEX_H_": ("HIP_INCLUDE_HIP_HIP_COMPLEX_H", ""),
    "_COOPERATIVE_GROUPS_H_": ("HIP_INCLUDE_HIP_HIP_COOPERATIVE_GROUP_H", ""),
    "CUBLAS_H_": ("HIPBLAS_H", "-"),
    "CUBLAS_API_H_": ("HIPBLAS_H", "-"),
    "CUBLAS_V2_H_": ("HIPBLAS_H", "-"),
    "_CUFFT_H_": ("HIPFFT_H_", ""),
    "CUSPARSE_H_": ("_HIPSPARSE_H_", "_ROCSPARSE_H_"),
    "CUSPARSEAPI": ("_HIPSPARSE_H_", "_ROCSPARSE_H_"),
    "CUSOLVER_COMMON_H_": ("HIPSOLVER_H", "-"),
    "CUSOLVERDN_H_": ("HIPSOLVER_H", "-"),
    "CURAND_H_": ("HIPRAND_H_", "ROCRAND_H_"),
    "CURAND_KERNEL_H_": ("HIPRAND_KERNEL_H_", "-"),
    "CUDNN_H_": ("-", "MIOPEN_GUARD_MIOPEN_H_"),
}
# API group of each guard, for the --roc / --miopen choice
_GUARD_GROUP = {"CUBLAS_H_": "blas", "CUBLAS_API_H_": "blas", "CUBLAS_V2_H_": "blas", "CUSPARSE_H_": "sparse",
                "CUSPARSEAPI": "sparse", "CUSOLVER_COMMON_H_": "solver", "CUSOLVERDN_H_": "solver",
                "CURAND_H_": "rand", "CURAND_KERNEL_H_": "rand", "CUDNN_H_": "dnn"}
GUARD_NAMES = re.compile(r"\b(?:" + "|".join(sorted(GUARD_MACROS, key=len, reverse=True)) + r")\b")
_IDENT = re.compile(r"[A-Za-z_]\w*")


def guard_target(name: str, roc_groups: tuple[str, ...]) -> str:
    """The HIP / ROCm guard for a CUDA guard macro ("" when there is none for this target)."""
    hip, roc = GUARD_MACROS[name]
    if _GUARD_GROUP.get(name) in roc_groups:
        out = roc or hip
    else:
        out = hip
    return "" if out == "-" else out


def guard_edits(masked: str, cond: Conditionals, roc_groups: tuple[str, ...]) -> list[tuple[int, int, str, str]]:
    """(start, end, CUDA macro, HIP guard) for every CUDA guard macro tested in an #if / #ifdef / #ifndef /
    #elif of the text (`#define` lines are left alone: a file defining the macro is not testing it)."""
    out = []
    for d in cond.directives:
        if d.kind in ("else", "endif", "define", "undef") or not GUARD_NAMES.search(d.expr):
            continue
        seg_end = d.end
        for m in _IDENT.finditer(masked, d.expr_start, seg_end):
            name = m.group()
            if name in GUARD_MACROS:
                new = guard_target(name, roc_groups)
                if new:
                    out.append((m.start(), m.end(), name, new))
    return out
