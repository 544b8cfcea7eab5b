"""The compact structures behind a translation (issue 12: memory at 200k lines): the reference table
(rocm_bridge.hipify.result), the lexer's arrays, the streamed edit application (rocm_bridge.hipify.edits), and
what keeps the one-line start light. They must read exactly like the lists of tuples they replace."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from array import array
from collections import Counter
from pathlib import Path

import pytest

from rocm_bridge.hipify import edits as ed
from rocm_bridge.hipify import lexer, messages
from rocm_bridge.hipify.index import active_map, fields
from rocm_bridge.hipify.report import conversion_percentage
from rocm_bridge.hipify.result import CONVERTED, Reference, References
from rocm_bridge.hipify.translator import Options, translate

ROOT = Path(__file__).resolve().parent.parent

SRC = (
    "#include <cublas_v2.h>\n"
    "cudaMalloc(&p, 4);\n"
    "  cudaMalloc(&q, 8); cudaFree(p); // cudaFree in a comment\n"
    "cudaGraphExecGetFlags(g, &f);\n"  # experimental in HIP: not converted by default
    "cudaThreadSynchronize();\n"  # deprecated in CUDA
    "cub::DeviceReduce::Sum(a, b);\n"
    "cudaFree(q);\n"
)


def _expected(text: str) -> list[Reference]:
    """The references of SRC written out by hand from the table: position, then the table's columns."""
    table = active_map()
    out = []
    for name, line, col in (("cudaMalloc", 2, 1), ("cudaMalloc", 3, 3), ("cudaFree", 3, 22),
                            ("cudaGraphExecGetFlags", 4, 1), ("cudaThreadSynchronize", 5, 1), ("cub", 6, 1),
                            ("cudaFree", 7, 1)):
        offset = sum(len(x) + 1 for x in text.split("\n")[:line - 1]) + col - 1
        assert text.startswith(name, offset)
        if name == "cub":
            out.append(Reference(offset, line, col, "cub", "hipcub", "cub", "namespace", "hipCUB", CONVERTED))
            continue
        f = fields(table[name])
        status = CONVERTED if f[1] and not f[12] else "experimental" if f[1] else "unsupported"
        out.append(Reference(offset, line, col, name, f[1] if status == CONVERTED else "", f[3], f[5], f[2],
                             status, f[7], f[8], f[10], f[11], f[12]))
    return out


def test_references_read_like_a_list_of_reference_tuples():
    result = translate(SRC)
    refs = result.references
    expected = _expected(SRC)
    assert isinstance(refs, References)
    assert len(refs) == len(expected) == 7 and bool(refs)
    assert list(refs) == expected and refs == expected and refs == tuple(expected)
    assert refs[0] == expected[0] and refs[-1] == expected[-1] and refs[2:5] == expected[2:5]
    assert refs[::-2] == expected[::-2]
    with pytest.raises(IndexError):
        refs[7]
    assert refs != expected[:-1] and refs != expected[:-1] + [expected[0]]
    # the derived views are the plain filters over those tuples
    assert result.converted == [r for r in expected if r.status == CONVERTED]
    assert result.unconverted == [r for r in expected if r.status != CONVERTED]
    assert [r.name for r in result.unconverted] == ["cudaGraphExecGetFlags"]
    assert result.deprecated == [r for r in expected if r.cuda_deprecated or r.cuda_removed or r.hip_deprecated
                                 or r.hip_removed]
    assert [r.name for r in result.deprecated] == ["cudaThreadSynchronize"]
    pairs = Counter((r.api_group, r.status) for r in expected)
    assert {(g, s): n for g, c in result.counts_by_group().items() for s, n in c.items()} == pairs


def test_one_record_per_name_and_outcome_with_its_count_and_first_use():
    refs = translate(SRC).references
    expected = _expected(SRC)
    assert [i.name for i in refs.infos] == ["cudaMalloc", "cudaFree", "cudaGraphExecGetFlags",
                                            "cudaThreadSynchronize", "cub"]
    assert refs.counts() == [2, 2, 1, 1, 1]
    assert [expected[i].name for i in refs.firsts] == [i.name for i in refs.infos]
    assert refs.firsts == [0, 2, 3, 4, 5]
    assert list(refs.where(lambda i: i.name == "cudaFree")) == [(3, 22, refs.infos[1]), (7, 1, refs.infos[1])]
    # renames: every converted reference whose HIP name differs, as (start, end, HIP name)
    assert list(refs.edits()) == [(r.offset, r.offset + len(r.name), r.hip_name) for r in expected
                                  if r.status == CONVERTED and r.hip_name != r.name]


def test_changed_lines_include_the_renames_read_from_the_table():
    result = translate(SRC)
    renamed = {r.line for r in result.references if r.status == CONVERTED and r.hip_name != r.name}
    assert renamed == {2, 3, 5, 6, 7}
    assert result.changed_lines == renamed | {1}  # line 1: the include mapped, hip_runtime.h added before it
    assert result.lines_changed == 6 and result.changed_lines == renamed | {1}  # read twice: no duplicates
    src = "k<<<1, 1>>>(p);\ncudaFree(p);\n"
    launched = translate(src, Options(kernel_syntax=True))  # the launch rewrite adds its line before any read
    assert launched.changed_lines == {1, 2}


def test_references_built_by_hand():
    refs = References()
    assert len(refs) == 0 and not refs and refs == [] and list(refs.edits()) == []
    key = ("cudaFree", "hipFree", CONVERTED)
    assert refs.info_index(key) is None
    from rocm_bridge.hipify.result import Info

    k = refs.new_info(key, Info("cudaFree", "hipFree", "runtime", "function", "HIP", CONVERTED))
    refs.add(10, 2, 3, k)
    refs.add(40, 5, 1, refs.info_index(key))
    assert refs == [Reference(10, 2, 3, "cudaFree", "hipFree", "runtime", "function", "HIP", CONVERTED),
                    Reference(40, 5, 1, "cudaFree", "hipFree", "runtime", "function", "HIP", CONVERTED)]
    assert refs.firsts == [0] and refs.counts() == [2]
    assert list(refs.edits()) == [(10, 18, "hipFree"), (40, 48, "hipFree")]


# --- edits ----------------------------------------------------------------------------------------------------


def _plain_apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    """The definition: edits sorted by (start, end), stable, and an edit overlapping an earlier one dropped."""
    out, last = [], 0
    for start, end, repl in sorted(edits, key=lambda e: (e[0], e[1])):
        if start < last:
            continue
        out += [text[last:start], repl]
        last = end
    return "".join(out) + text[last:]


@pytest.mark.parametrize("seed", range(40))
def test_streamed_renames_and_chunked_output_give_the_plain_result(seed, monkeypatch):
    rng = random.Random(seed)
    monkeypatch.setattr(ed, "_FLUSH", rng.choice((1, 2, 3, 4096)))
    text = "".join(rng.choice("ab \n") for _ in range(rng.randint(0, 80)))
    n = len(text)
    renames, pos = [], 0
    while n and pos < n - 1 and rng.random() < 0.8:  # in offset order, none empty, none overlapping
        start = rng.randint(pos, n - 1)
        end = rng.randint(start + 1, min(n, start + 4))
        renames.append((start, end, rng.choice(("X", "YY", ""))))
        pos = end
    extras = []
    for _ in range(rng.randint(0, 8)):  # insertions, replacements, overlaps and ties with a rename
        if renames and rng.random() < 0.3:
            s, e, _r = rng.choice(renames)
        else:
            s = rng.randint(0, n)
            e = min(n, s + rng.choice((0, 0, 1, 3)))
        extras.append((s, e, rng.choice(("(", ")", "Z", ""))))
    got = ed.apply_edits(text, list(extras), iter(renames))
    assert got == _plain_apply(text, renames + extras)  # on a tie the rename (added first) wins


def test_no_edits_returns_the_text_itself():
    text = "x" * 10
    assert ed.apply_edits(text, []) is text


@pytest.mark.parametrize("flush", [1, 2, 4096])
@pytest.mark.parametrize(("renames", "extras", "want"), [
    ([(0, 3, "")], [], ""),  # everything replaced by nothing
    ([], [(0, 0, "")], "abc"),
    ([(0, 1, "")], [(0, 0, ""), (3, 3, "!")], "bc!"),
    ([(1, 2, "")], [(0, 0, "")], "ac"),
])
def test_empty_replacements(flush, renames, extras, want, monkeypatch):
    monkeypatch.setattr(ed, "_FLUSH", flush)
    assert ed.apply_edits("abc", list(extras), iter(renames)) == want == _plain_apply("abc", renames + extras)


# --- lexer ----------------------------------------------------------------------------------------------------


def test_lexer_keeps_identifiers_and_spans_in_arrays_with_tuple_views():
    text = 'a = cudaMalloc(p); /* c */ s = "cudaFree"; cudaFree(p);\n'
    lx = lexer.lex(text, {"cudaMalloc": 1, "cudaFree": 1})
    assert isinstance(lx.id_starts, array) and isinstance(lx.op_starts, array)
    assert lx.ids == [(4, 14, "cudaMalloc"), (43, 51, "cudaFree")]
    assert lx.opaque == [(19, 26, "bc"), (31, 41, "str")]
    assert lx.id_names[1] is lx.ids[1][2]  # one string per name, shared
    assert lx.opaque_at(19) == (19, 26, "bc") and lx.opaque_at(26) is None and lx.inside_opaque(19) is None
    assert lx.inside_opaque(20) == (19, 26) and lx.inside_opaque(41) is None
    lx.keep_ids(lambda start: start > 10)
    assert lx.ids == [(43, 51, "cudaFree")]
    assert list(lx.line_starts) == [0, len(text)]


def test_identifier_scan_equals_the_plain_definition():
    """lex() finds table names by an identifier scan between opaque spans; the reference: every whole word of the
    text that is a table name (or cub), is not the tail of a number and does not start inside a comment, literal
    or include directive."""
    rng = random.Random(7)
    words = ["cudaMalloc", "cudaFree", "x1", "_y", "cub", "cudaMallocHost", "int", "0x1cudaFree", "1'000",
             '"cudaFree"', "/* cudaMalloc */", "// cudaFree\n", "#include <cudaFree.h>\n", "L'c'", 'R"(cudaFree)"',
             "u8R\"x(cub)x\"", "caf\u00e9cudaFree", "cudaFree\u00e9"]
    names = {"cudaMalloc": 1, "cudaFree": 1, "cudaMallocHost": 1}
    for _ in range(20):
        text = "".join(rng.choice(words) + rng.choice((" ", "(", "\n", ";\n", "", "\n\n")) for _ in range(400))
        lx = lexer.lex(text, names)
        spans = list(zip(lx.op_starts, lx.op_ends, strict=True)) + lx.includes
        want = [(m.start(), m.group()) for m in lexer.IDENT.finditer(text)
                if (m.group() in names or m.group() == "cub")
                and not (m.start() and text[m.start() - 1] in lexer._WORD)
                and not any(s <= m.start() < e for s, e in spans)]
        assert [(s, n) for s, _e, n in lx.ids] == want
        assert len(want) > 50


# --- start of the command line ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "total"), [(0, 1), (1, 3), (47, 50), (97060, 97060), (96475, 97060)])
def test_conversion_percentage_is_the_coverage_formula(n, total):
    from rocm_bridge.formulas import coverage

    assert conversion_percentage(n, total) == 100.0 * coverage(n_supported=n, n_total=total)
    assert conversion_percentage(0, 0) is None


def test_message_cache_file_is_one_per_checkout(monkeypatch, tmp_path):
    assert messages._fnv1a("") == 0x811C9DC5 and messages._fnv1a("a") == 0xE40C292C  # FNV-1a test vectors
    here = messages._cache_file()
    monkeypatch.setattr(messages, "LOCALES", tmp_path / "locales")
    there = messages._cache_file()
    assert here != there and os.path.dirname(here) == os.path.dirname(there)
    assert os.path.basename(there).startswith("hipify_messages_v")


def test_one_line_run_imports_nothing_it_does_not_use(tmp_path):
    src = tmp_path / "one.cu"
    src.write_text("cudaMalloc(&p, 4);\n")
    probe = (
        "import sys, runpy\n"
        f"sys.argv = ['rocm_bridge', 'hipify', {str(src)!r}]\n"
        "try:\n    runpy.run_module('rocm_bridge', run_name='__main__')\nexcept SystemExit:\n    pass\n"
        "print('LOADED', sorted(m for m in ('tomllib', 'dataclasses', 'rocm_bridge.formulas', 'typing', 'pathlib',\n"
        "                                    'shutil') if m in sys.modules))\n"
    )
    # -S: no site hooks (a .pth file may import pathlib before our code runs); the hipify path needs only stdlib
    out = subprocess.run([sys.executable, "-S", "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert "hipMalloc(&p, 4);" in out.stdout
    assert "LOADED []" in out.stdout


def test_kernel_syntax_and_miopen_reorders_still_list_renames_inside():
    # the regroup path materialises the renames among the other edits (MIOpen argument order)
    src = "cudnnSoftmaxForward(h, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, a, xd, x, b, yd, y);\n"
    result = translate(src, Options(miopen=True))
    assert result.output.startswith("#include <hip/hip_runtime.h>\nmiopenSoftmaxForward_V2(h, a, xd, x, b, yd, y, ")
    assert result.changed_lines == {1}  # input lines: the include goes before line 1


def test_unrolled_opaque_pattern_matches_the_plain_alternation_form():
    """lexer.OPAQUE writes comment and literal bodies unrolled for speed; on random text full of quotes,
    backslashes, stars, slashes and newlines it finds exactly the spans of the plain form."""
    import re

    plain = re.compile(r"""
        //(?:[^\n\\]|\\.)*
      | /\*.*?(?:\*/|\Z)
      | \#([ \t]*include[ \t]*(?:<[^>\n]*>|"[^"\n]*"))
      | R"([^ ()\\\t\n"]{0,16})\(
      | "(?:[^"\\\n]|\\.)*(?:"|$)
      | '(?:[^'\\\n]|\\.)*(?:'|$)
        """, re.VERBOSE | re.DOTALL | re.MULTILINE)
    rng = random.Random(28)
    pieces = ["/", "*", "\\", "\n", '"', "'", "a", " ", "#include <x.h>", 'R"(', ")\"", "**/", "/*", "//", "x\\\n"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 40)))
        pos = 0
        while pos <= len(text):
            a, b = plain.search(text, pos), lexer.OPAQUE.search(text, pos)
            assert (a and (a.span(), a.lastindex)) == (b and (b.span(), b.lastindex)), (text, pos)
            pos += 1
