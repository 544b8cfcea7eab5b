"""Preprocessor conditionals, read from the masked text (comments and literals blanked): where each
#if / #ifdef / #ifndef / #elif / #else / #endif is, how deep every offset is nested, and the include guard.

The translator uses this to place an injected #include outside conditional blocks, to rewrite tests of CUDA's
own include-guard macros, and for --skip-excluded-preprocessor-conditional-blocks.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import NamedTuple

DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif|define)\b((?:[^\n\\]|\\.|\\\n)*)", re.M)


class Directive(NamedTuple):
    start: int  # offset of the line's first character
    end: int  # offset of the end of the directive (before its newline)
    kind: str  # if ifdef ifndef elif else endif define
    expr_start: int  # offset of the expression / macro name
    expr: str


class Conditionals:
    def __init__(self, masked: str) -> None:
        self.directives: list[Directive] = []
        self.depth_after: list[int] = []  # nesting depth after each directive
        depth = 0
        for m in DIRECTIVE.finditer(masked):
            kind = m.group(1)
            d = Directive(m.start(), m.end(), kind, m.start(2), m.group(2).strip())
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
