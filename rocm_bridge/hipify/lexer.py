"""A small C/C++/CUDA lexer: one compiled master regex that tells code identifiers apart from comments,
string and character literals, numbers and include paths.

It is not a parser. It only has to know, for every identifier, whether it is code (rename it) or text that must
keep every byte (comments, literals, header names). The `masked` view replaces comments and literals by spaces
of the same length (newlines kept) so later passes can match brackets and commas with plain string scans.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right

# The opaque scan: comments, string / raw-string / character literals and include directives. Every branch
# starts with a fixed character, outside any group, so the regex engine skips ordinary code at C speed (a branch
# that starts with a group turns that off and makes the scan ~3x slower). Group 1 marks an include directive. A
# quote right after a digit is a C++14 digit separator (1'000'000), not a character literal: the loop below
# checks for that. Comment and literal bodies are written unrolled (`[^\n\\]*(?:\\.[^\n\\]*)*`, not
# `(?:[^\n\\]|\\.)*`): a single character class repeats inside the regex engine without an alternation per
# character: a quarter fewer instructions for the scan of a comment-heavy file (callgrind, 10,000 lines of
# HIPIFY's tests).
OPAQUE = re.compile(
    r"""
    //[^\n\\]*(?:\\.[^\n\\]*)*
  | /\*[^*]*(?:\*+[^*/][^*]*)*(?:\*+/|\*+\Z|\Z)
  | \#([ \t]*include[ \t]*(?:<[^>\n]*>|"[^"\n]*"))
  | R"([^ ()\\\t\n"]{0,16})\(
  | "[^"\\\n]*(?:\\.[^"\\\n]*)*(?:"|$)
  | '[^'\\\n]*(?:\\.[^'\\\n]*)*(?:'|$)
    """,
    re.VERBOSE | re.DOTALL | re.MULTILINE,
)
_NOT_NL = re.compile(r"[^\n]")
IDENT = re.compile(r"[A-Za-z_]\w*")
_BRACKETS = re.compile(r"[()\[\]{},]")
_LOCAL_CHARS = 4096  # Lexed.group: how far the quick scan looks
_LOCAL_TOKENS = 96  # ... and how many brackets and commas it reads before using the whole-text table
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_CHAR_PREFIXES = ("u8", "u", "U", "L")

INCLUDE_PARTS = re.compile(r'^([ \t]*#[ \t]*include[ \t]*)([<"])([^>"\n]*)([>"])$')


class Lexed:
    """The tokens of one source text (only the interesting ones; everything else is 'other').

    Identifiers and comment / literal spans are kept as parallel arrays (offsets in array('q'), names and kinds
    as references to shared strings), not as one tuple per token: a 200k-line file has ~100k identifiers and
    the tuples alone cost ~15 MB. `ids` and `opaque` still give the tuple view, built on request."""

    __slots__ = ("text", "id_starts", "id_names", "includes", "op_starts", "op_ends", "op_kinds", "launches",
                 "unterminated", "excluded_launches", "_line_starts", "_masked", "_brackets", "_conditionals",
                 "_full_masks", "_half_types")

    def __init__(self, text: str) -> None:
        self.text = text
        self.id_starts = array("q")  # start offsets of code identifiers (the table's names), in order
        self.id_names: list[str] = []  # ... and their names (one shared string per distinct name)
        self.includes: list[tuple[int, int]] = []  # spans of '#include <...>' directives
        self.op_starts = array("q")  # comments and literals: start offsets, in order
        self.op_ends = array("q")  # ... end offsets
        self.op_kinds: list[str] = []  # ... and kinds: lc | bc | str | chr | raw
        self.launches: list[int] = []  # offsets of '<<<'
        self.unterminated: list[tuple[int, str]] = []  # (offset, 'comment' | 'string' | 'char')
        self._line_starts: array | None = None
        self._masked: str | None = None
        self._brackets: tuple[dict[int, int], dict[int, list[int]]] | None = None
        self._conditionals = None
        self._full_masks: set[str] | None = None  # names defined as the full lane mask (translator, --rocm-version)
        self._half_types: bool | None = None  # the code uses __half / half2 ... (target.half_shuffles_needed)
        self.excluded_launches: set[int] = set()  # indices into launches skipped by the caller

    @property
    def ids(self) -> list[tuple[int, int, str]]:
        """(start, end, name) of every code identifier collected (a new list on each call)."""
        return [(s, s + len(n), n) for s, n in zip(self.id_starts, self.id_names, strict=True)]

    @property
    def opaque(self) -> list[tuple[int, int, str]]:
        """(start, end, kind) of every comment and literal (a new list on each call)."""
        return list(zip(self.op_starts, self.op_ends, self.op_kinds, strict=True))

    def keep_ids(self, keep) -> None:
        """Drop the identifiers whose start offset fails keep(start)."""
        pairs = [(s, n) for s, n in zip(self.id_starts, self.id_names, strict=True) if keep(s)]
        self.id_starts = array("q", [s for s, _n in pairs])
        self.id_names = [n for _s, n in pairs]

    def inside_opaque(self, pos: int) -> tuple[int, int] | None:
        """The comment or literal span that strictly contains pos (pos > its start), or None."""
        i = bisect_right(self.op_starts, pos) - 1
        if i >= 0:
            start, end = self.op_starts[i], self.op_ends[i]
            if start < pos < end:
                return start, end
        return None

    def opaque_at(self, pos: int) -> tuple[int, int, str] | None:
        """The comment or literal span with start <= pos < end, or None."""
        i = bisect_right(self.op_starts, pos) - 1
        if i >= 0 and pos < self.op_ends[i]:
            return self.op_starts[i], self.op_ends[i], self.op_kinds[i]
        return None

    def strip(self, s: int, e: int) -> tuple[int, int]:
        """[s, e) without surrounding whitespace and comments. A string or character literal is code here: the
        masked view shows it as blanks, so stripping on masked text alone would lose it (f("name"))."""
        text, masked = self.text, self.masked
        while s < e and masked[s] in " \t\r\n":
            if text[s] in " \t\r\n\\":
                s += 1
                continue
            span = self.opaque_at(s)
            if span is None or span[2] not in ("lc", "bc"):
                break
            s = span[1]
        while e > s and masked[e - 1] in " \t\r\n":
            if text[e - 1] in " \t\r\n\\":
                e -= 1
                continue
            span = self.opaque_at(e - 1)
            if span is None or span[2] not in ("lc", "bc"):
                break
            e = span[0]
        return s, e

    def safe_line_start(self, pos: int) -> int:
        """pos, or the start of an earlier line, such that a line inserted there is not inside a comment or a
        literal (a multi-line comment, or a string continued with a backslash)."""
        while True:
            span = self.inside_opaque(pos)
            if span is None:
                return pos
            pos = self.text.rfind("\n", 0, span[0]) + 1

    def group(self, open_pos: int) -> tuple[int, list[int]] | None:
        """(close offset, offsets of the commas directly inside) for the bracket at open_pos, or None if it
        never closes. A short local scan answers the usual case; long or unclosed groups fall back to the
        whole-text table, built once, so pathological input stays linear."""
        masked = self.masked
        depth = 0
        commas: list[int] = []
        for k, m in enumerate(_BRACKETS.finditer(masked, open_pos, open_pos + _LOCAL_CHARS)):
            if k > _LOCAL_TOKENS:
                break
            c = m.group()
            if c in "([{":
                depth += 1
            elif c == ",":
                if depth == 1:
                    commas.append(m.start())
            else:
                depth -= 1
                if depth == 0:
                    return m.start(), commas
        match, all_commas = self.brackets()
        close = match.get(open_pos)
        return None if close is None else (close, all_commas.get(open_pos, []))

    def brackets(self) -> tuple[dict[int, int], dict[int, list[int]]]:
        """Bracket structure of the code, computed once: ({open offset: close offset}, {open offset: offsets of
        the commas directly inside it}). Lets argument lists be split in O(1) per call, so a file with thousands
        of unclosed calls stays linear."""
        if self._brackets is None:
            match: dict[int, int] = {}
            commas: dict[int, list[int]] = {}
            stack: list[int] = []
            for m in _BRACKETS.finditer(self.masked):
                c = m.group()
                if c in "([{":
                    stack.append(m.start())
                elif c == ",":
                    if stack:
                        commas.setdefault(stack[-1], []).append(m.start())
                elif stack:
                    match[stack.pop()] = m.start()
            self._brackets = (match, commas)
        return self._brackets

    @property
    def line_starts(self) -> array:
        """Offsets where each line starts (array('q'): 8 bytes a line instead of a 36-byte int in a list)."""
        if self._line_starts is None:
            starts = array("q", [0])
            add = starts.append
            find = self.text.find
            pos = find("\n")
            while pos != -1:
                add(pos + 1)
                pos = find("\n", pos + 1)
            self._line_starts = starts
        return self._line_starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of an offset."""
        starts = self.line_starts
        line = bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1

    def line_of(self, offset: int) -> int:
        return bisect_right(self.line_starts, offset)

    @property
    def conditionals(self):
        """The preprocessor conditionals of the text (rocm_bridge.hipify.preproc), computed once."""
        if self._conditionals is None:
            from rocm_bridge.hipify.preproc import Conditionals

            self._conditionals = Conditionals(self.masked)
        return self._conditionals

    @property
    def masked(self) -> str:
        """The text with every comment and literal blanked (same length, newlines kept)."""
        if self._masked is None:
            parts = []
            last = 0
            text = self.text
            for start, end in zip(self.op_starts, self.op_ends, strict=True):
                parts.append(text[last:start])
                chunk = text[start:end]
                parts.append(_NOT_NL.sub(" ", chunk) if "\n" in chunk else " " * (end - start))
                last = end
            parts.append(text[last:])
            self._masked = "".join(parts)
        return self._masked


def lex(text: str, names=None) -> Lexed:
    """Scan text. `names` (a set or dict of identifiers) selects which code identifiers are collected in
    Lexed.ids; without it no identifiers are collected (comments, literals, includes and launches always are).

    Identifiers are found by one identifier scan of the code between the opaque spans and a dictionary lookup
    (_code_identifiers): no pattern is built from the names, so a run compiles nothing that depends on its input.
    """
    out = Lexed(text)
    op_starts, op_ends, op_kinds = out.op_starts.append, out.op_ends.append, out.op_kinds.append
    # opaque spans and include directives, in order
    skip_s, skip_e = array("q"), array("q")
    skip_start, skip_end = skip_s.append, skip_e.append
    search = OPAQUE.search
    pos = 0
    n = len(text)
    while pos < n:
        m = search(text, pos)
        if m is None:
            break
        start, end = m.span()
        li = m.lastindex
        if li == 1:
            out.includes.append((start, end))
            skip_start(start)
            skip_end(end)
            pos = end
            continue
        c = text[start]
        if c == "'" and start and text[start - 1] in _WORD and not _char_prefix(text, start):
            pos = start + 1  # digit separator
            continue
        if c == "/":
            if text.startswith("//", start):
                kind = "lc"
            else:
                kind = "bc"
                if end - start < 4 or not text.startswith("*/", end - 2):
                    out.unterminated.append((start, "comment"))
        elif c == "R":
            if start and text[start - 1] in _WORD and not _raw_prefix(text, start):
                pos = start + 1  # an identifier ending in R, followed by an ordinary string
                continue
            # the regex matched only the opening R"delim( : find the closing )delim" with str.find (linear; a
            # lazy regex would rescan the rest of the text for every unterminated raw string)
            close = text.find(")" + m.group(2) + '"', end)
            if close == -1:
                end = n
                out.unterminated.append((start, "string"))
            else:
                end = close + len(m.group(2)) + 2
            kind = "raw"
        elif c == '"':
            kind = "str"
            if not _closed(m.group(), '"'):
                out.unterminated.append((start, "string"))
        else:
            kind = "chr"
            if not _closed(m.group(), "'"):
                out.unterminated.append((start, "char"))
        op_starts(start)
        op_ends(end)
        op_kinds(kind)
        skip_start(start)
        skip_end(end)
        pos = end
    # kernel launches outside opaque spans
    find = text.find
    p = find("<<<")
    while p != -1:
        i = bisect_right(skip_s, p) - 1
        if i < 0 or p >= skip_e[i]:
            out.launches.append(p)
        p = find("<<<", p + 3)
    if names:
        _code_identifiers(out, text, names, skip_s, skip_e)
    return out


def _code_identifiers(out: Lexed, text: str, names, skip_s: array, skip_e: array) -> None:
    """Collect the code identifiers that are in `names` (and `cub`, a namespace the translator rewrites): a plain
    identifier scan of each stretch of code between two opaque spans, and a dictionary lookup per identifier.
    Nothing is compiled per run: an alternation regex of the file's candidate names cost more to compile than the
    whole scan (0.1 s for the 4,500 names of HIPIFY's own tests)."""
    add_start, add_name = out.id_starts.append, out.id_names.append
    canon: dict[str, str] = {}  # one string object per name, not one per occurrence
    finditer = IDENT.finditer
    pos = 0
    for k in range(len(skip_s) + 1):
        end = skip_s[k] if k < len(skip_s) else len(text)
        if end > pos:
            for m in finditer(text, pos, end):
                word = m[0]
                if word in names or word == "cub":
                    start = m.start()
                    if start and text[start - 1] in _WORD:
                        continue  # the tail of a number (0x1f)
                    add_start(start)
                    add_name(canon.setdefault(word, word))
        if k < len(skip_e):
            pos = skip_e[k]


def _char_prefix(text: str, quote: int) -> bool:
    """True if the word right before a quote is exactly a character-literal prefix (L'x', u8'x')."""
    for prefix in _CHAR_PREFIXES:
        s = quote - len(prefix)
        if s >= 0 and text.startswith(prefix, s) and (s == 0 or text[s - 1] not in _WORD):
            return True
    return False


def _raw_prefix(text: str, r: int) -> bool:
    return _char_prefix(text, r)


def _closed(literal: str, quote: str) -> bool:
    """True if a string/char literal token ends with its closing quote (not an escaped one)."""
    body = literal[literal.index(quote) + 1:]
    if not body.endswith(quote):
        return False
    body = body[:-1]
    # count trailing backslashes: an odd number escapes the final quote
    n = len(body) - len(body.rstrip("\\"))
    return n % 2 == 0


def split_include(directive: str) -> tuple[str, str, str, str] | None:
    """'#include <cuda.h>' -> ('#include ', '<', 'cuda.h', '>')."""
    m = INCLUDE_PARTS.match(directive)
    return (m.group(1), m.group(2), m.group(3), m.group(4)) if m else None
