"""--skip-excluded-preprocessor-conditional-blocks: which #if branches a CUDA compile would drop.

hipify-clang translates every branch of every conditional by default (the text of all of them is rewritten);
with this option it keeps the preprocessor's default behaviour and leaves the branches that the preprocessor
skips untouched (HIPIFY src/ArgParse.cpp: "Enable default preprocessor behaviour by skipping undefined
conditional blocks"). hipify-clang gets the macros from clang compiling the file as CUDA (host side) with the
CUDA headers; a text translator has to know them another way, so the environment is:

- the macros clang defines for a CUDA host compile on Linux x86-64 (__CUDACC__, __CUDA__, __clang__,
  __linux__, __x86_64__, __cplusplus = 201703L; not __NVCC__ and not __CUDA_ARCH__: that is the host side),
- CUDA_VERSION / CUDART_VERSION of the CUDA release the mapping table was generated against (12.6),
- the include-guard macros of the CUDA headers the file includes (rocm_bridge.hipify.preproc.GUARD_MACROS),
- the version macros of the CUDA libraries the file includes (CUSPARSE_VERSION ...: those of CUDA 12.6.0, and
  cuDNN 9.5.0), from the #include on and only when it is in a branch the compile takes (LIBRARY_VERSIONS),
- -D NAME[=VALUE] given on the command line, and every #define / #undef of the file, in order.

An #if whose value cannot be worked out (a function-like macro, an unknown operator) is not guessed: all of its
branches are translated, as without the option.
"""

from __future__ import annotations

import re

from rocm_bridge.hipify.preproc import GUARD_MACROS, Conditionals

CUDA_VERSION = "12060"
BUILTIN = {"__CUDACC__": "1", "__CUDA__": "1", "__clang__": "1", "__linux__": "1", "__linux": "1", "linux": "1",
           "__unix__": "1", "__x86_64__": "1", "__cplusplus": "201703L", "__GNUC__": "4",
           "CUDA_VERSION": CUDA_VERSION, "CUDART_VERSION": CUDA_VERSION, "__CUDACC_VER_MAJOR__": "12",
           "__CUDACC_VER_MINOR__": "6"}
# CUDA header -> the guard macros it defines (those of GUARD_MACROS, by the header they belong to)
HEADER_GUARDS = {
    "cuda_runtime.h": ("__CUDA_RUNTIME_H__", "__CUDA_RUNTIME_API_H__", "__DRIVER_TYPES_H__", "__VECTOR_TYPES_H__",
                       "__TEXTURE_TYPES_H__", "__SURFACE_TYPES_H__", "__CHANNEL_DESCRIPTOR_H__",
                       "__LIBRARY_TYPES_H__"),
    "cuda_runtime_api.h": ("__CUDA_RUNTIME_API_H__", "__DRIVER_TYPES_H__", "__VECTOR_TYPES_H__"),
    "cuda.h": ("__cuda_cuda_h__",),
    "driver_types.h": ("__DRIVER_TYPES_H__",),
    "cuda_fp16.h": ("__CUDA_FP16_H__",),
    "cuComplex.h": ("CU_COMPLEX_H_",),
    "cooperative_groups.h": ("_COOPERATIVE_GROUPS_H_",),
    "cublas.h": ("CUBLAS_H_", "CUBLAS_API_H_"),
    "cublas_v2.h": ("CUBLAS_V2_H_", "CUBLAS_API_H_"),
    "cufft.h": ("_CUFFT_H_",),
    "cusparse.h": ("CUSPARSE_H_", "CUSPARSEAPI"),
    "cusparse_v2.h": ("CUSPARSE_H_", "CUSPARSEAPI"),
    "cusolverDn.h": ("CUSOLVERDN_H_", "CUSOLVER_COMMON_H_"),
    "curand.h": ("CURAND_H_",),
    "curand_kernel.h": ("CURAND_KERNEL_H_", "CURAND_H_"),
    "cudnn.h": ("CUDNN_H_",),
}
assert all(m in GUARD_MACROS for ms in HEADER_GUARDS.values() for m in ms)


def _version(prefix: str, major: int, minor: int, patch: int, build: int, scale: int) -> dict[str, str]:
    """The version macros a CUDA library header defines: <P>_VER_MAJOR/MINOR/PATCH/BUILD and <P>_VERSION =
    major * scale + minor * 100 + patch (scale 10000 for cuBLAS, 1000 for the others)."""
    return {f"{prefix}_VER_MAJOR": str(major), f"{prefix}_VER_MINOR": str(minor), f"{prefix}_VER_PATCH": str(patch),
            f"{prefix}_VER_BUILD": str(build), f"{prefix}_VERSION": str(major * scale + minor * 100 + patch)}


# The libraries of CUDA 12.6.0 (the release CUDA_VERSION above names), as NVIDIA versions them: its conda channel
# labels each package with the toolkit release (anaconda.org/nvidia/<package>, label cuda-12.6.0): libcublas
# 12.6.0.22, libcusparse 12.5.2.23, libcufft 11.2.6.28, libcurand 10.3.7.37, libcusolver 11.6.4.38. cuDNN ships
# apart from the toolkit: 9.5.0, the newest cuDNN the mapping table knows (its dnn rows reach 9.5.0). The formulas
# are those of the headers (cublas_api.h, cusparse.h, cufft.h, curand.h, cusolver_common.h, cudnn_version.h).
_CUBLAS = _version("CUBLAS", 12, 6, 0, 22, 10000)
_CUSPARSE = _version("CUSPARSE", 12, 5, 2, 23, 1000)
_CUFFT = _version("CUFFT", 11, 2, 6, 28, 1000)
_CURAND = _version("CURAND", 10, 3, 7, 37, 1000)
_CUSOLVER = _version("CUSOLVER", 11, 6, 4, 38, 1000)
_CUDNN = {"CUDNN_MAJOR": "9", "CUDNN_MINOR": "5", "CUDNN_PATCHLEVEL": "0", "CUDNN_VERSION": "90500"}
# CUDA library header -> the version macros it defines (itself or through the header it includes). Unlike the
# runtime's macros (clang's CUDA mode includes cuda_runtime.h before the file), these exist only from the
# #include on, and only when that #include is in a branch the compile takes.
LIBRARY_VERSIONS: dict[str, dict[str, str]] = {
    **dict.fromkeys(("cublas.h", "cublas_v2.h", "cublas_api.h"), _CUBLAS),
    **dict.fromkeys(("cusparse.h", "cusparse_v2.h"), _CUSPARSE),
    **dict.fromkeys(("cufft.h", "cufftXt.h"), _CUFFT),
    **dict.fromkeys(("curand.h", "curand_kernel.h"), _CURAND),
    **dict.fromkeys(("cusolverDn.h", "cusolverSp.h", "cusolverRf.h", "cusolverMg.h", "cusolver_common.h",
                     "cusolverSp_LOWLEVEL_PREVIEW.h"), _CUSOLVER),
    **dict.fromkeys(("cudnn.h", "cudnn_version.h"), _CUDNN),
}

_TOKEN = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+|\d+)[uUlL]*|([A-Za-z_]\w*)|(&&|\|\||<<|>>|<=|>=|==|!=|[-+*/%<>!~&|^()?:,]))")


class Unknown(Exception):
    """The expression cannot be evaluated here."""


def _tokens(expr: str) -> list[str | int]:
    out: list[str | int] = []
    pos = 0
    expr = expr.replace("\\\n", " ")
    while pos < len(expr):
        if expr[pos:].strip() == "":
            break
        m = _TOKEN.match(expr, pos)
        if m is None:
            raise Unknown(expr)
        if m.group(1) is not None:
            out.append(int(m.group(1), 0) if not m.group(1).startswith("0") or len(m.group(1)) == 1
                       or m.group(1)[1] in "xX" else int(m.group(1), 8))
        else:
            out.append(m.group(2) or m.group(3))
        pos = m.end()
    return out


def _expand(tokens: list, macros: dict[str, str | None], depth: int = 0) -> list:
    """defined(X) / defined X -> 1 or 0; object-like macros -> their value; other identifiers -> 0."""
    if depth > 16:
        raise Unknown("recursion")
    out: list = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        if t == "defined":
            if i + 1 < len(tokens) and tokens[i + 1] == "(":
                if i + 3 >= len(tokens) or tokens[i + 3] != ")":
                    raise Unknown("defined")
                name, i = tokens[i + 2], i + 4
            elif i + 1 < len(tokens):
                name, i = tokens[i + 1], i + 2
            else:
                raise Unknown("defined")
            out.append(1 if isinstance(name, str) and name in macros else 0)
            continue
        if isinstance(t, str) and (t[0].isalpha() or t[0] == "_"):
            if t in macros:
                value = macros[t]
                if value is None:  # function-like macro
                    raise Unknown(t)
                if i + 1 < len(tokens) and tokens[i + 1] == "(":
                    raise Unknown(t)
                out.extend(_expand(_tokens(value), macros, depth + 1) if value.strip() else [])
            else:
                if i + 1 < len(tokens) and tokens[i + 1] == "(":
                    raise Unknown(t)  # an undefined function-like macro: clang would reject it
                out.append(0)
            i += 1
            continue
        out.append(t)
        i += 1
    return out


_BINARY = {"*": 10, "/": 10, "%": 10, "+": 9, "-": 9, "<<": 8, ">>": 8, "<": 7, "<=": 7, ">": 7, ">=": 7,
           "==": 6, "!=": 6, "&": 5, "^": 4, "|": 3, "&&": 2, "||": 1}


def _parse(tokens: list) -> int:
    pos = 0

    def unary() -> int:
        nonlocal pos
        if pos >= len(tokens):
            raise Unknown("end")
        t = tokens[pos]
        pos += 1
        if isinstance(t, int):
            return t
        if t == "(":
            v = ternary()
            if pos >= len(tokens) or tokens[pos] != ")":
                raise Unknown(")")
            pos += 1
            return v
        if t == "!":
            return int(not unary())
        if t == "~":
            return ~unary()
        if t == "-":
            return -unary()
        if t == "+":
            return unary()
        raise Unknown(str(t))

    def binary(level: int) -> int:
        nonlocal pos
        left = unary()
        while pos < len(tokens) and tokens[pos] in _BINARY and _BINARY[tokens[pos]] >= level:
            op = tokens[pos]
            pos += 1
            right = binary(_BINARY[op] + 1)
            left = _apply(op, left, right)
        return left

    def ternary() -> int:
        nonlocal pos
        cond = binary(1)
        if pos < len(tokens) and tokens[pos] == "?":
            pos += 1
            a = ternary()
            if pos >= len(tokens) or tokens[pos] != ":":
                raise Unknown(":")
            pos += 1
            b = ternary()
            return a if cond else b
        return cond

    value = ternary()
    if pos != len(tokens):
        raise Unknown("trailing")
    return value


def _apply(op: str, a: int, b: int) -> int:
    if op in ("/", "%") and b == 0:
        raise Unknown("division by zero")
    return {
        "*": lambda: a * b, "/": lambda: int(a / b), "%": lambda: a - int(a / b) * b, "+": lambda: a + b,
        "-": lambda: a - b, "<<": lambda: a << b, ">>": lambda: a >> b, "<": lambda: int(a < b),
        "<=": lambda: int(a <= b), ">": lambda: int(a > b), ">=": lambda: int(a >= b), "==": lambda: int(a == b),
        "!=": lambda: int(a != b), "&": lambda: a & b, "^": lambda: a ^ b, "|": lambda: a | b,
        "&&": lambda: int(bool(a) and bool(b)), "||": lambda: int(bool(a) or bool(b)),
    }[op]()


def evaluate(expr: str, macros: dict[str, str | None]) -> bool | None:
    """The truth of an #if expression, or None when it cannot be evaluated."""
    try:
        return bool(_parse(_expand(_tokens(expr), macros)))
    except (Unknown, ValueError, IndexError, RecursionError):
        return None


_DEFINE = re.compile(r"([A-Za-z_]\w*)(\()?\s*(.*)", re.S)


def excluded_ranges(text: str, masked: str, cond: Conditionals, includes: list[tuple[int, str]],
                    defines: tuple[str, ...] = ()) -> list[tuple[int, int]]:
    """[start, end) spans of the branches the preprocessor would skip (from the end of the directive line that
    starts a skipped branch to the start of the next directive of the same chain). includes: (offset, path) of
    every #include, in order."""
    macros: dict[str, str | None] = dict(BUILTIN)
    for _offset, header in includes:
        for name in HEADER_GUARDS.get(header, ()):
            macros[name] = "1"
    pending = [(offset, LIBRARY_VERSIONS[header]) for offset, header in includes if header in LIBRARY_VERSIONS]
    next_header = 0
    for d in defines:
        name, _, value = d.partition("=")
        macros[name.strip()] = value if value else "1"
    out: list[tuple[int, int]] = []
    # frame: [parent_active, taken, active, unknown, excluded_from]
    stack: list[list] = []

    def active() -> bool:
        return all(f[2] for f in stack)

    for d in cond.directives:
        while next_header < len(pending) and pending[next_header][0] < d.start:  # included before this directive
            if active():
                macros.update(pending[next_header][1])
            next_header += 1
        if d.kind in ("define", "undef"):
            if active():
                m = _DEFINE.match(d.expr)
                if m:
                    if d.kind == "undef":
                        macros.pop(m.group(1), None)
                    else:
                        macros[m.group(1)] = None if m.group(2) else m.group(3).strip()
            continue
        if d.kind in ("if", "ifdef", "ifndef"):
            parent = active()
            if not parent:
                stack.append([False, True, False, False, None])
                continue
            if d.kind == "if":
                value = evaluate(d.expr, macros)
            else:
                name = d.expr.split()[0] if d.expr.split() else ""
                value = (name in macros) == (d.kind == "ifdef") if name else None
            if value is None:
                stack.append([True, True, True, True, None])
            else:
                stack.append([True, value, value, False, None if value else _line_end(masked, d.end)])
            continue
        if not stack:
            continue
        frame = stack[-1]
        if frame[4] is not None:  # close the skipped branch
            out.append((frame[4], d.start))
            frame[4] = None
        if d.kind == "endif":
            stack.pop()
            continue
        if not frame[0] or frame[3]:
            continue
        if frame[1]:
            frame[2] = False
            frame[4] = _line_end(masked, d.end)
            continue
        value = True if d.kind == "else" else evaluate(d.expr, macros)
        if value is None:
            frame[3] = True
            frame[2] = True
        elif value:
            frame[1] = frame[2] = True
        else:
            frame[2] = False
            frame[4] = _line_end(masked, d.end)
    return out


def _line_end(masked: str, pos: int) -> int:
    nl = masked.find("\n", pos)
    return len(masked) if nl == -1 else nl + 1
