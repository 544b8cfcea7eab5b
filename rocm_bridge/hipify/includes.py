"""Include handling of the translator: every CUDA #include mapped through data/hipify_headers.csv (the
--rocm-version header rule for cuda_bf16.h included), duplicates and dropped headers removed, and
hip/hip_runtime.h added or moved up where the file needs it. Also the two placement helpers the other passes
share: where whole lines can be inserted (never inside a comment or literal, in the file's line endings) and
where a header goes in a file without includes (after the include guard or `#pragma once`).
"""

from __future__ import annotations

import re

from rocm_bridge.hipify import headers as hdr
from rocm_bridge.hipify.lexer import Lexed, split_include
from rocm_bridge.hipify.result import HeaderChange, Result

TYPE_CHECKING = False  # not typing's: the one-line CLI run imports no typing (tests/test_hipify_result.py)
if TYPE_CHECKING:
    from rocm_bridge.hipify.translator import Options

def map_includes(lexed: Lexed, opts: Options, result: Result, has_device: bool, has_api_include: bool
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
            pos = after_guard(lexed)
        edit = insert_lines(lexed, pos, [f"#include <{hdr.HIP_RUNTIME}>"])
        edits.append(edit)
        if not moved:
            result.headers.append(HeaderChange(lexed.line_of(edit[0]), "", hdr.HIP_RUNTIME, "added"))
    return edits


def insert_lines(lexed: Lexed, line_start: int, lines: list[str], indent: bool = False) -> tuple[int, int, str]:
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


def after_guard(lexed: Lexed) -> int:
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
