"""The page's core: examples, uploads, diff rows and the migration flow (no Streamlit needed)."""

from __future__ import annotations

import io
import zipfile

import pytest

from rocm_bridge.errors import FileTooLarge, NotText, UnsupportedFile
from rocm_bridge.hipify import page_model as pm
from rocm_bridge.hipify.translator import Options


@pytest.mark.parametrize("key", pm.EXAMPLES)
def test_every_example_translates_completely_or_explains_why(key):
    [fr] = pm.translate_files([pm.SourceFile(f"{key}.cu", pm.example_source(key))], Options())
    assert fr.result.changed
    assert "cuda" not in "".join(r.hip_name for r in fr.result.converted).lower()
    # only the warp example has unconverted names, and the lint explains that example
    if fr.result.unconverted:
        assert key == "warp_reduce" and {f.rule for f in fr.findings} >= {"lane_mask_32", "warp_size_32"}


def test_upload_single_file_and_zip_project():
    [single] = pm.load_upload("dir/kernel.cu", b"cudaFree(p);")
    assert single.path == "kernel.cu" and single.text == "cudaFree(p);"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("p/a.cu", "cudaFree(p);")
        z.writestr("p/b.h", "int x;")
    files = pm.load_upload("p.zip", buf.getvalue())
    assert [f.path for f in files] == ["p/a.cu", "p/b.h"]


def test_upload_refusals():
    with pytest.raises(UnsupportedFile):
        pm.load_upload("notes.txt", b"hello")
    with pytest.raises(NotText):
        pm.load_upload("a.cu", b"\x00\x01binary")
    with pytest.raises(FileTooLarge):
        pm.load_upload("a.cu", b"x" * 20, max_bytes=10)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("readme.md", "no sources")
    with pytest.raises(UnsupportedFile):
        pm.load_upload("empty.zip", buf.getvalue())


def test_diff_rows_pair_changed_lines():
    rows = pm.diff_rows("a\ncudaFree(p);\nb\n", "a\nhipFree(p);\nb\n")
    assert rows == [{"cuda_line": 2, "cuda": "cudaFree(p);", "hip_line": 2, "hip": "hipFree(p);"}]
    rows = pm.diff_rows("x\n", "#include <hip/hip_runtime.h>\nx\n")
    assert rows == [{"cuda_line": None, "cuda": "", "hip_line": 1, "hip": "#include <hip/hip_runtime.h>"}]


def _apply(a, b, ops):
    """Rebuild b from a and the opcodes, checking that they cover both sides in order and 'equal' is equal."""
    out, ia, ib = [], 0, 0
    for tag, i1, i2, j1, j2 in ops:
        assert (i1, j1) == (ia, ib)
        if tag == "equal":
            assert a[i1:i2] == b[j1:j2]
        out += b[j1:j2]
        ia, ib = i2, j2
    assert (ia, ib) == (len(a), len(b))
    return out


def test_diff_opcodes_are_a_valid_edit_script_on_random_input():
    import random

    rng = random.Random(7)
    for _ in range(1500):
        a = [rng.choice("abcde") for _ in range(rng.randint(0, 25))]
        b = [rng.choice("abcdef") for _ in range(rng.randint(0, 25))]
        ops, _ = pm.opcodes(a, b)
        assert _apply(a, b, ops) == b


def _repetitive(n: int) -> str:
    return "\n".join(["cudaMalloc(&d, 4);", "x = 1;", "}"] * (n // 3)) + "\n"


def test_diff_of_20k_repetitive_lines_stays_under_its_work_bound():
    """Issue 27: difflib took 50 s on 2,000 repetitive lines. The diff counts its operations; on two 20k-line
    repetitive files it must finish linearly (well under the bound), find exactly the changed lines, and a
    header line inserted on top must not shift the pairing of the lines below it."""
    src = _repetitive(20_000)
    out = "#include <hip/hip_runtime.h>\n" + src.replace("cudaMalloc", "hipMalloc")
    d = pm.diff(src, out)
    assert d.complete
    assert d.ops <= 10 * 40_000  # linear: a few operations a line (the bound itself is 48 a line)
    assert d.changed == 1 + 6666
    assert all(r["cuda"].replace("cuda", "hip") == r["hip"] for r in d.rows[1:])
    assert len(d.rows) == pm.DIFF_MAX_ROWS


def test_diff_of_unrelated_files_is_linear_and_a_spent_bound_stops_it(monkeypatch):
    """Nothing in common: every line is paired by position within the bound. With a bound too small for the input
    the diff stops there, the edit script is still valid, and diff() says it is incomplete (the page then shows
    the files side by side as too different to diff)."""
    a = [f"a{i % 97} {i % 89}" for i in range(20_000)]
    b = [f"b{i % 83} {i % 79}" for i in range(20_000)]
    ops, work = pm.opcodes(a, b)
    assert not work.spent and work.ops <= work.limit
    assert _apply(a, b, ops) == b
    small = pm.Work(limit=5_000)
    ops, work = pm.opcodes(a, b, small)
    assert work.spent and work.ops <= 5_000 + len(a) + len(b)  # at most one indexing pass past the bound
    assert _apply(a, b, ops) == b
    monkeypatch.setattr(pm, "DIFF_WORK_PER_LINE", 0)
    monkeypatch.setattr(pm, "DIFF_WORK_FLOOR", 5_000)
    pm.diff.cache_clear()
    d = pm.diff("\n".join(a), "\n".join(b))
    pm.diff.cache_clear()
    assert not d.complete and d.changed == 20_000


def test_diff_is_cached_and_marks_the_changed_words():
    src = _repetitive(300)
    out = src.replace("cudaMalloc", "hipMalloc")
    assert pm.diff(src, out) is pm.diff(src, out)
    left, right = pm.inline_spans("  cudaMalloc(&d, 4); cudaFree(d);", "  hipMalloc(&d, 4); hipFree(d);")
    assert [t for t, changed in left if changed] == ["cudaMalloc", "cudaFree"]
    assert [t for t, changed in right if changed] == ["hipMalloc", "hipFree"]
    assert "".join(t for t, _ in right) == "  hipMalloc(&d, 4); hipFree(d);"


def test_migration_flow_counts():
    src = "// cudaFree\n#include <cuda_runtime.h>\n__global__ void k() {}\nvoid f(int* p) { k<<<1,1>>>(); " \
          "cudaFree(p); __syncthreads(); cudaFree(p); }\n"
    [fr] = pm.translate_files([pm.SourceFile("a.cu", src)], Options(kernel_syntax=True))
    flow = pm.migration_flow(fr.result, fr.findings)
    assert flow.scan == {"lines": 4, "comments": 1, "literals": 0, "includes": 1, "launches": 1, "references": 3}
    assert flow.mapping[0] == {"cuda": "cudaFree", "hip": "hipFree", "api_group": "runtime", "status": "converted",
                               "count": 2}
    assert flow.rewrite == {"renamed": 2, "kept": 1, "headers": 1, "launches_rewritten": 1, "lines_changed": 2}
    assert flow.report["percentage"] == 100.0


def test_non_utf8_upload_is_shown_decoded_and_downloads_the_cli_bytes(tmp_path, capsysbinary):
    from rocm_bridge.cli import main
    from rocm_bridge.hipify import page_model as pm
    from rocm_bridge.hipify.translator import Options

    src = "// 共享内存示例\n__global__ void k(float* p) { p[threadIdx.x] = 0; }\nvoid f() { cudaDeviceSynchronize(); }\n"
    for encoding, expected in (("gbk", "gb18030"), ("cp1252", "cp1252"), ("latin-1", "cp1252")):
        text = src if encoding == "gbk" else src.replace("共享内存示例", "mémoire partagée")
        data = text.encode(encoding)
        [f] = pm.load_upload("k.cu", data)
        assert f.bad_utf8_at is not None and f.text == data.decode(f.encoding)
        [fr] = pm.translate_files([f], Options())
        path = tmp_path / "k.cu"
        path.write_bytes(data)
        assert main(["hipify", str(path)]) == 0
        cli_bytes = capsysbinary.readouterr().out
        assert fr.output_bytes() == cli_bytes
        assert "hipDeviceSynchronize();" in fr.result.output
        assert f.encoding == expected
        assert ("共享内存示例" if encoding == "gbk" else "mémoire partagée") in fr.result.output


# --- the target ROCm on the page (compile_fit, settled_findings, applied_rewrites) ---------------------------------

def _warp(opts):
    from rocm_bridge.hipify.translator import Options

    return pm.translate_files([pm.SourceFile("w.cu", pm.example_source("warp_reduce"))], Options(**opts))[0]


def test_compile_fit_says_what_the_compiler_can_check_for_the_target():
    newest = _warp({"rocm_version": "7.0"})
    fit = pm.compile_fit(newest, "7.0", compiler="5.2")
    assert fit.relation == "newer" and dict(fit.beyond) == {"__shfl_down_sync": "6.2", "__ballot_sync": "6.2"}
    assert pm.compile_fit(newest, "6.1", compiler="5.2").beyond == ()  # 6.1 lacks them too: not "only here"
    assert pm.compile_fit(_warp({"rocm_version": "5.2"}), "5.2", compiler="5.2").relation == "same"
    assert pm.compile_fit(newest, "5.0", compiler="5.2").relation == "older"
    assert pm.compile_fit(newest, "7.0", compiler="").relation == "none"


def test_settled_findings_follow_the_rewrites_on_their_line():
    plain = _warp({"rocm_version": "7.0"})
    assert pm.settled_findings(plain) == {}
    assert pm.left_for_you(plain, "7.0").lint_errors == 3
    wave = _warp({"rocm_version": "7.0", "wavefront": True})
    settled = {(wave.findings[k].rule, wave.findings[k].line): a.after for k, a in pm.settled_findings(wave).items()}
    assert settled == {("warp_size_32", 9): "warpSize / 2", ("warp_size_32", 17): "% warpSize",
                       ("warp_size_32", 18): "/ warpSize", ("lane_mask_32", 28): "~0ull"}
    assert pm.left_for_you(wave, "7.0").lint_errors == 2  # the #define'd mask and the 32-bit ballot stay
    old = _warp({"rocm_version": "5.2"})  # the _sync ballot's mask is dropped with the call
    assert {(old.findings[k].rule, old.findings[k].line) for k in pm.settled_findings(old)} == {("lane_mask_32", 28)}


def test_applied_rewrites_in_line_order_with_sources():
    rows = pm.applied_rewrites(_warp({"rocm_version": "5.2", "wavefront": True}).result)
    assert [(a.line, a.kind, a.after) for a in rows] == [
        (9, "wavefront", "warpSize / 2"), (10, "target", "__shfl_down"), (17, "wavefront", "% warpSize"),
        (18, "wavefront", "/ warpSize"), (28, "target", "__ballot")]
    assert all(a.source for a in rows if a.kind == "target") and all(a.until == "6.2" for a in rows if a.kind == "target")
    assert pm.rule_source("__shfl_down_sync") == pm.rule_source("__shfl_sync")  # "as __shfl_sync" read through
