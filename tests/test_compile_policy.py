"""The include policy (the lab's second wall, in front of the sandbox) against the forms issue 24 lists:
directives after a comment or behind \\v / \\f, `__has_include` made by token pasting, `#line` / line markers that
name a file, `#import`, and `.incbin` / `.include` spelled with escapes. Each is refused before any compiler
starts; that the forms are real is shown by clang 22 itself with the policy off (the sandbox still holds)."""

from __future__ import annotations

import os

import pytest

from rocm_bridge.compile import clang22, examples, policy
from rocm_bridge.compile.engine import compile_code

CI = os.environ.get("CI") == "true"  # CI installs every part: a missing one fails there, never skips

ATTACKS = {
    "after_block_comment": ('/* note */ #include "/etc/passwd"\n', "include_path"),
    "after_empty_comment": ("/**/#include </etc/hostname>\n", "include_path"),
    "comment_inside": ('#/* x */include "/etc/passwd"\n', "include_path"),
    "vertical_tab": ('\v#include "/etc/passwd"\n', "include_path"),
    "form_feed": ('#\f include "/etc/passwd"\n', "include_path"),
    "pasted_has_include": ('#define H(x) __has_##include(x)\n#if H("/etc/hostname")\nint a;\n#endif\n',
                           "has_include"),
    "pasted_with_spaces": ('#define H(x) __has ## _include(x)\n', "has_include"),
    "line_directive": ('#line 1 "/etc/passwd"\nint x = ;\n', "line_file"),
    "line_marker": ('# 7 "/etc/shadow"\n', "line_file"),
    "import": ('#import "/etc/passwd"\n', "include_path"),
    "hex_escaped_incbin": ('asm(".inc\\x62in \\"/etc/hostname\\"");\n', "asm_file"),
    "octal_escaped_incbin": ('asm("\\056incbin \\"/etc/hostname\\"");\n', "asm_file"),
    "escaped_include_split": ('asm(".incl\\x75" "de \\"/etc/hostname\\"");\n', "asm_file"),
}
ALLOWED = [
    '// #include "/etc/passwd" in a comment\n#include <hip/hip_runtime.h>\n',
    'const char* s = "/* not a comment */ #include";\n',
    '#line 20\nint x;\n',
    'asm volatile("s_nop 0\\n\\ts_nop 1" ::: "memory");\n',
    'const char* msg = "tab\\there";\n',
]


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_policy_refuses(name):
    code, rule = ATTACKS[name]
    assert rule in {r.rule for r in policy.check(code)}, policy.check(code)


@pytest.mark.parametrize("code", ALLOWED)
def test_policy_allows(code):
    assert policy.check(code) == []


def test_line_numbers_survive_comment_blanking():
    code = '/* one\n two\n three */\nint a;\n/* x */ #include "/etc/passwd"\n'
    assert [r.line for r in policy.check(code)] == [5]


def test_examples_are_still_allowed():
    for key in examples.all_keys():
        assert policy.check(examples.source(key)) == [], key


def test_c_string_escapes():
    assert policy.decode_c_string(r".inc\x62in \"a\"") == '.incbin "a"'
    assert policy.decode_c_string(r"\056incbin\n") == ".incbin\n"
    assert policy.decode_c_string(r"\u0062") == "b"


needs_clang22 = pytest.mark.skipif(not clang22.available() and not CI, reason="ziglang wheel missing (requirements.txt)")


@needs_clang22
def test_a_directive_after_a_comment_is_real():
    """clang treats `/* x */ #include` as a directive: with the policy off a header under /usr is read (inside the
    sandbox, which sees only /usr); with the policy on the same file is refused before the compiler starts."""
    code = '/* x */ #include "/usr/include/limits.h"\n__attribute__((used)) __device__ int big = INT_MAX;\n'
    r = compile_code(code, "gfx942", compiler="clang22", check_policy=False, use_cache=False)
    assert r.ok, [d.message for d in r.diagnostics]
    refused = compile_code(code, "gfx942", compiler="clang22", use_cache=False)
    assert not refused.ok and refused.refused[0].rule == "include_path"


@needs_clang22
@pytest.mark.parametrize("name", ["after_block_comment", "vertical_tab", "line_directive"])
def test_sandbox_alone_reveals_nothing_with_clang22(name):
    code, _ = ATTACKS[name]
    r = compile_code(code, "gfx942", compiler="clang22", check_policy=False, use_cache=False)
    assert r.sandboxed and "root:" not in str(r.to_dict())


def test_a_raw_string_cannot_blank_a_directive():
    """`R"(` ... `/*` inside a raw string: a comment scanner that missed the raw string would blank the real
    #include after it; the policy also reads the text without blanking, so it is refused either way."""
    code = 'const char* s = R"(\n/* )";\n#include "/etc/passwd"\n// */\n'
    assert "include_path" in {r.rule for r in policy.check(code)}
