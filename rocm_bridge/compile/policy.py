"""The include policy: the second wall, in front of the sandbox (rocm_bridge.compile.sandbox).

The sandbox is what keeps server files out of reach (only the system's /usr is visible, read-only). This
lexical check refuses, before the compiler starts, the ways source text asks the compiler to read a file by
path, so that the lab works the same (and says why) where no sandbox is available:

- #include / #include_next / #import / #embed / __has_include / __has_embed with an absolute path, a `..`
  component, a backslash or `~`, a device or /proc path, or a computed (macro) operand;
- assembler directives that read files (`.incbin`, `.include`) anywhere in the text, inline assembly whose
  template is not plain string literals, and macros that expand to `asm`;
- `#pragma` forms that name files (`#pragma clang include`, `#pragma GCC dependency`, `#pragma include_alias`).

Line splices (backslash-newline), `%:` digraphs and `??=` trigraphs are undone first, so they cannot hide a
directive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_CODE_BYTES = 512 * 1024

_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(include_next|include|import|embed)\b[ \t]*(.*)$", re.MULTILINE)
_HAS = re.compile(r"\b(__has_include_next|__has_include|__has_embed)\s*\(\s*([^)]*)\)")
_HAS_BARE = re.compile(r"\b(__has_include_next|__has_include|__has_embed)\b(?!\s*\()")
_ASM_DIRECTIVE = re.compile(r"(?i)\.?\b(incbin|include)\b")
_ASM = re.compile(r"\b(?:__asm__|__asm|asm)\b\s*(?:volatile\b|__volatile__\b|goto\b|inline\b|\s)*\(")
_ASM_MACRO = re.compile(r"^[ \t]*#[ \t]*define\b[^\n]*\b(?:__asm__|__asm|asm)\b", re.MULTILINE)
_PRAGMA = re.compile(r"^[ \t]*#[ \t]*pragma\b[^\n]*\b(include_alias|dependency|include|system_header)\b|"
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
    text = _join_splices(code.replace("??=", "#").replace("%:", "#"))
    out: list[Refusal] = []

    def add(rule: str, offset: int) -> None:
        out.append(Refusal(_line_of(text, offset), rule, _excerpt(text, offset)))

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
        elif _ASM_DIRECTIVE.search("".join(re.findall(r'"((?:[^"\\\n]|\\.)*)"', seq.group(0)))):
            add("asm_file", m.start())
    for m in _ASM_MACRO.finditer(text):
        add("asm_macro", m.start())
    for m in _PRAGMA.finditer(text):
        add("pragma_file", m.start())
    unique = {(r.line, r.rule): r for r in out}
    return sorted(unique.values(), key=lambda r: (r.line, r.rule))
