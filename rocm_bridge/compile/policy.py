"""The include policy: the second wall, in front of the sandbox (rocm_bridge.compile.sandbox).

The sandbox is what keeps server files out of reach (only the system's /usr is visible, read-only). This
lexical check refuses, before the compiler starts, the ways source text asks the compiler to read a file by
path, so that the lab works the same (and says why) where no sandbox is available:

- #include / #include_next / #import / #embed / __has_include / __has_embed with an absolute path, a `..`
  component, a backslash or `~`, a device or /proc path, or a computed (macro) operand;
- assembler directives that read files (`.incbin`, `.include`) anywhere in the text, inline assembly whose
  template is not plain string literals, and macros that expand to `asm`;
- `#pragma` forms that name files (`#pragma clang include`, `#pragma GCC dependency`, `#pragma include_alias`).

- `#line` / `# 123` line markers that name a file (they would make diagnostics point into another file);
- `__has_include` / `__has_embed` spelled by token pasting in a macro (`__has_##include`);
- `.incbin` / `.include` inside any string literal, after its escapes are decoded (`".inc\\x62in"`).

Line splices (backslash-newline), `%:` digraphs and `??=` trigraphs are undone first, then comments are blanked
(a comment counts as a space, so `/* x */ #include` is a directive) and `\v` / `\f` count as blanks: none of
them can hide a directive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_CODE_BYTES = 512 * 1024

_B = r"[ \t\v\f]"  # blanks a directive line may hold
_DIRECTIVE = re.compile(rf"^{_B}*#{_B}*(include_next|include|import|embed)\b{_B}*(.*)$", re.MULTILINE)
_LINE = re.compile(rf"^{_B}*#{_B}*(?:line{_B}+)?\d+{_B}+(?:u8|u|U|L)?\"", re.MULTILINE)
_DEFINE = re.compile(rf"^{_B}*#{_B}*define\b[^\n]*", re.MULTILINE)
_STRING = re.compile(r'(?:u8|u|U|L)?"((?:[^"\\\n]|\\.)*)"')
_FILE_DIRECTIVE = re.compile(r"(?i)\.?\b(?:incbin|include)\b")
_HAS = re.compile(r"\b(__has_include_next|__has_include|__has_embed)\s*\(\s*([^)]*)\)")
_HAS_BARE = re.compile(r"\b(__has_include_next|__has_include|__has_embed)\b(?!\s*\()")
_ASM_DIRECTIVE = re.compile(r"(?i)\.?\b(incbin|include)\b")
_ASM = re.compile(r"\b(?:__asm__|__asm|asm)\b\s*(?:volatile\b|__volatile__\b|goto\b|inline\b|\s)*\(")
_ASM_MACRO = re.compile(r"^[ \t]*#[ \t]*define\b[^\n]*\b(?:__asm__|__asm|asm)\b", re.MULTILINE)
_PRAGMA = re.compile(r"^[ \t\v\f]*#[ \t\v\f]*pragma\b[^\n]*\b(include_alias|dependency|include|system_header)\b|"
                     r"_Pragma\s*\(\s*\"[^\"]*\b(include_alias|dependency|include|system_header)\b", re.MULTILINE)
_STRING_SEQ = re.compile(r'\s*(?:(?:u8|u|U|L)?"(?:[^"\\\n]|\\.)*"\s*)+(?=[:)])', re.DOTALL)


@dataclass(frozen=True)
class Refusal:
    line: int
    rule: str  # catalog id compile.policy.<rule>
    excerpt: str

    def to_dict(self) -> dict[str, object]:
        return {"line": self.line, "rule": self.rule, "excerpt": self.excerpt}




def _join_splices(code: str) -> str:
    lines = code.split("\n")
    result: list[str] = []
    carry, eaten = "", 0
    for line in lines:
        if line.endswith("\\"):
            carry += line[:-1]
            eaten += 1
            continue
        result.append(carry + line)
        result.extend([""] * eaten)
        carry, eaten = "", 0
    if carry:
        result.append(carry)
    return "\n".join(result)


def _blank_comments(text: str) -> str:
    """Comments replaced by spaces (newlines kept, so line numbers hold); string and character literals kept."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j == -1 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j == -1 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "v": "\v", "f": "\f", "a": "\a", "b": "\b", "e": "\x1b", "0": "\0"}


def decode_c_string(body: str) -> str:
    """A C string literal's characters with escapes applied (\\x62, \\142, \\u0062, \\n ...)."""
    def one(m: re.Match) -> str:
        e = m.group(1)
        if e[0] in "xX":
            return chr(int(e[1:], 16) % 0x110000) if len(e) > 1 else ""
        if e[0] in "uU":
            return chr(int(e[1:], 16) % 0x110000) if len(e) > 1 else ""
        if e[0] in "01234567":
            return chr(int(e, 8))
        return _ESCAPES.get(e, e)
    return re.sub(r"\\(x[0-9a-fA-F]+|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|.)", one, body)


def _bad_path(operand: str) -> bool:
    op = operand.strip()
    m = re.match(r'^(<[^>\n]*>|"[^"\n]*")', op)
    if not m:
        return True  # computed include: refuse, the macro could name any path
    path = m.group(1)[1:-1].strip()
    return (not path or path.startswith(("/", "~")) or "\\" in path or ".." in path.split("/")
            or re.match(r"^(?:dev|proc|sys|etc|root|home)(?:/|$)", path) is not None or ":" in path)


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _excerpt(text: str, offset: int) -> str:
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    return text[start:end if end != -1 else len(text)].strip()[:120]


def check(code: str) -> list[Refusal]:
    """Everything the policy refuses in `code` (empty: allowed)."""
    raw = _join_splices(code.replace("??=", "#").replace("%:", "#"))
    out: list[Refusal] = []
    # Both readings are checked: with comments blanked (a directive after a comment) and without (a directive
    # that a raw string literal hides from the comment scanner): each only over-approximates what clang sees.
    for text in (raw, _blank_comments(raw)):
        _scan(text, raw, out)
    unique = {(r.line, r.rule): r for r in out}
    return sorted(unique.values(), key=lambda r: (r.line, r.rule))


def _scan(text: str, raw: str, out: list[Refusal]) -> None:
    def add(rule: str, offset: int) -> None:
        out.append(Refusal(_line_of(text, offset), rule, _excerpt(raw, offset)))

    for m in _DIRECTIVE.finditer(text):
        if m.group(1) == "embed":
            add("embed", m.start())
        elif _bad_path(m.group(2)):
            add("include_path", m.start())
    for m in _HAS.finditer(text):
        if m.group(1) == "__has_embed" or _bad_path(m.group(2)):
            add("has_include", m.start())
    for m in _HAS_BARE.finditer(text):
        add("has_include", m.start())
    for m in _ASM_DIRECTIVE.finditer(text):
        before = text[max(0, m.start() - 12):m.start()]
        if m.group(1).lower() == "include" and re.search(r"#\s*$|__has_$|_$", before):
            continue  # the #include directive itself, or __has_include
        if m.group(1).lower() == "include" and not (m.group(0).startswith(".")):
            continue  # the word 'include' in ordinary code or text
        add("asm_file", m.start())
    for m in _ASM.finditer(text):
        seq = _STRING_SEQ.match(text, m.end())
        if not seq:
            add("asm_template", m.start())
        elif _ASM_DIRECTIVE.search("".join(decode_c_string(b)
                                           for b in re.findall(r'"((?:[^"\\\n]|\\.)*)"', seq.group(0)))):
            add("asm_file", m.start())
    for m in _ASM_MACRO.finditer(text):
        add("asm_macro", m.start())
    for m in _PRAGMA.finditer(text):
        add("pragma_file", m.start())
    for m in _LINE.finditer(text):
        add("line_file", m.start())
    for m in _DEFINE.finditer(text):  # __has_##include: the name appears only once the tokens are pasted
        pasted = re.sub(r"\s*##\s*", "", m.group(0))
        if pasted != m.group(0) and (_HAS.search(pasted) or _HAS_BARE.search(pasted)):
            add("has_include", m.start())
    for m in _STRING.finditer(text):  # escapes decoded: ".inc\x62in" is .incbin
        decoded = decode_c_string(m.group(1))
        if decoded != m.group(1) and _FILE_DIRECTIVE.search(decoded) and "." in decoded:
            add("asm_file", m.start())
