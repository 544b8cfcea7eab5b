"""Unit tests of the hipify engine: lexer, mapping index cache, headers, lint, report, input handling."""

from __future__ import annotations

import io
import marshal
import zipfile

import pytest

from rocm_bridge.errors import FileTooLarge, NotText, UnsafeArchive, UnsupportedFile
from rocm_bridge.hipify import index as idx
from rocm_bridge.hipify.headers import map_header
from rocm_bridge.hipify.lexer import lex
from rocm_bridge.hipify.lint import RULES, lint
from rocm_bridge.hipify.report import conversion_percentage, group_rows, stats_text, summarize, warning_lines
from rocm_bridge.hipify.sources import decode_source, encode_text, read_zip, safe_member_name, write_zip
from rocm_bridge.hipify.translator import Options, translate, translate_cached
from rocm_bridge.i18n import LANGS, catalog

# --- lexer ---------------------------------------------------------------------------------------------------


def test_lexer_separates_code_from_comments_strings_and_includes():
    text = (
        '#include <cuComplex.h>\n// cudaMalloc\n/* cudaFree */ x = 1\'000; c = \'"\'; s = "cudaFree";\n'
        'cudaMalloc(p); r = R"d(cudaFree)d"; L\'x\';\n'
    )
    lexed = lex(text, {"cudaMalloc": 1, "cudaFree": 1, "cuComplex": 1})
    assert [name for _, _, name in lexed.ids] == ["cudaMalloc"]
    assert len(lexed.includes) == 1
    kinds = [k for _, _, k in lexed.opaque]
    assert kinds == ["lc", "bc", "chr", "str", "raw", "chr"]
    assert lexed.unterminated == []


def test_masked_view_keeps_length_and_newlines():
    text = 'a /* x\ny */ b "s" c // z\nd'
    lexed = lex(text)
    assert len(lexed.masked) == len(text)
    assert lexed.masked.count("\n") == text.count("\n")
    assert "x" not in lexed.masked and '"' not in lexed.masked and "z" not in lexed.masked


@pytest.mark.parametrize(
    ("text", "what"),
    [("int a; /* never closed cudaMalloc(p);", "comment"), ('s = "open\ncudaMalloc(p);', "string"),
     ("c = 'x\n", "char")],
)
def test_unterminated_tokens_are_noted_and_nothing_inside_changes(text, what):
    result = translate(text)
    assert [k for k, _, _ in result.notes if "unterminated" in k] == [f"hipify.note.unterminated_{what}"]
    if what == "comment":
        assert result.output == text
    if what == "string":
        assert result.output.endswith("hipMalloc(p);")  # the next line is code again


def test_line_col_is_one_based():
    lexed = lex("ab\ncd\n")
    assert lexed.line_col(0) == (1, 1)
    assert lexed.line_col(4) == (2, 2)


# --- index cache -------------------------------------------------------------------------------------------


def test_index_cache_is_rebuilt_when_the_csv_changes(tmp_path, monkeypatch):
    monkeypatch.setenv("ROCM_BRIDGE_CACHE", str(tmp_path / "cache"))
    csv_file = tmp_path / "m.csv"
    header = ("cuda_name,hip_name,target_library,variant,api_group,section,kind,cuda_added,cuda_deprecated,"
              "cuda_changed,cuda_removed,hip_added,hip_deprecated,hip_changed,hip_removed,hip_experimental,"
              "source_table\n")
    csv_file.write_text(header + "cudaFoo,hipFoo,HIP runtime,hip,runtime,S,function,,,,,,,,,,t\n")
    idx.load_table.cache_clear()
    idx._built.cache_clear()
    assert idx.load_table("hip", csv_file)["cudaFoo"].split("\t")[1] == "hipFoo"
    cached = list((tmp_path / "cache").rglob("*_hip.marshal"))
    assert len(cached) == 1
    key, rows = marshal.loads(cached[0].read_bytes())
    assert "cudaFoo" in rows
    # change the CSV (size differs): the next load must see the new name, not the cached one
    csv_file.write_text(header + "cudaFoo,hipBar2,HIP runtime,hip,runtime,S,function,,,,,,,,,,t\n")
    idx.load_table.cache_clear()
    idx._built.cache_clear()
    assert idx.load_table("hip", csv_file)["cudaFoo"].split("\t")[1] == "hipBar2"
    idx.load_table.cache_clear()
    idx._built.cache_clear()


def test_index_works_without_a_writable_cache(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("ROCM_BRIDGE_CACHE", str(blocker))
    idx.load_table.cache_clear()
    idx._built.cache_clear()
    assert idx.load_table("hip")["cudaMalloc"].split("\t")[1] == "hipMalloc"
    idx.load_table.cache_clear()
    idx._built.cache_clear()


def test_lookup_variants():
    assert idx.lookup("cublasSgemm").hip_name == "hipblasSgemm"
    assert idx.lookup("cublasSgemm", roc=True).hip_name == "rocblas_sgemm"
    assert idx.lookup("cudnnCreate", miopen=True).hip_name == "miopenCreate"
    assert idx.lookup("cudnnCreate", roc=True).hip_name == "hipdnnCreate"  # --roc alone keeps hipDNN
    assert idx.lookup("cudaCheck") is None


# --- headers ---------------------------------------------------------------------------------------------


def test_header_map_uses_current_layout_and_targets():
    assert map_header("cublas_v2.h")[0] == "hipblas/hipblas.h"
    assert map_header("cublas_v2.h", ("blas",))[0] == "rocblas/rocblas.h"
    assert map_header("cudnn.h", ("dnn",))[0] == "miopen/miopen.h"
    assert map_header("cub/warp/warp_reduce.cuh")[0] == "hipcub/warp/warp_reduce.hpp"
    assert map_header("device_launch_parameters.h")[0] == ""
    assert map_header("vector") is None


def test_hip_runtime_is_added_once_after_guards():
    src = "#ifndef K_H\n#define K_H\n__global__ void k();\n#endif\n"
    out = translate(src).output
    assert out == "#ifndef K_H\n#define K_H\n#include <hip/hip_runtime.h>\n__global__ void k();\n#endif\n"
    assert translate(out).output == out


def test_host_only_library_code_gets_the_runtime_include_as_hipify_clang_gives_every_file():
    # HipifyAction::EndSourceFileAction: hip_runtime.h goes into every translated file that did not map
    # cuda.h / cuda_runtime.h; HIPIFY's headers_test_07 expects it before "hipblas.h" in a cuBLAS-only file
    src = "#include <cufft.h>\ncufftHandle plan;\n"
    assert translate(src).output == "#include <hip/hip_runtime.h>\n#include <hipfft/hipfft.h>\nhipfftHandle plan;\n"
    assert translate("#include \"cublas_v2.h\"\n#include <stdio.h>\n").output == (
        "#include <hip/hip_runtime.h>\n#include \"hipblas/hipblas.h\"\n#include <stdio.h>\n")


def test_host_code_with_the_runtime_api_header_or_without_cuda_gets_no_runtime_include():
    src = "#include <cuda_runtime_api.h>\n#include <cufft.h>\nvoid f(float* p) { cudaFree(p); }\n"
    assert "hip/hip_runtime.h" not in translate(src).output
    assert translate("#include <stdio.h>\nint main() { return 0; }\n").output == (
        "#include <stdio.h>\nint main() { return 0; }\n")


# --- already HIP / not CUDA ----------------------------------------------------------------------------------


def test_hip_code_passes_unchanged():
    src = ("#include <hip/hip_runtime.h>\n__global__ void k(float* p) { p[threadIdx.x] = 1; }\n"
           "int main() { float* d; hipMalloc(&d, 4); hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0, d); }\n")
    result = translate(src, Options(kernel_syntax=True))
    assert result.output == src
    assert not result.changed


def test_non_cuda_text_is_unchanged_and_noted():
    src = "Dear diary,\nto day I wrote some Python: print('hello')\n"
    result = translate(src)
    assert result.output == src
    assert ("hipify.note.no_cuda", 0, 0) in result.notes


def test_translate_cached_returns_the_same_result():
    a = translate_cached("cudaFree(p);", Options())
    b = translate_cached("cudaFree(p);", Options())
    assert a is b and "hipFree" in a.output


# --- lint ----------------------------------------------------------------------------------------------------

LINT_SRC = """#define FULL_MASK 0xffffffff
#define WARP_SIZE 32
// 0xffffffff and asm("x") in a comment are not findings
__global__ void __launch_bounds__(256, 2) k(float* x) {
  unsigned m = __ballot_sync(0xffffffffu, x[threadIdx.x] > 0);
  int lane = threadIdx.x % 32;
  float v = x[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(FULL_MASK, v, offset);
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
}
int main() { float* p; cudaMallocManaged(&p, 4); int nb; cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k, 256, 0); }
"""


def test_lint_finds_each_rule_at_its_line():
    found = {(f.rule, f.line) for f in lint(LINT_SRC)}
    assert found == {
        ("lane_mask_32", 1), ("warp_size_32", 2), ("launch_bounds", 4), ("ballot_32bit", 5), ("lane_mask_32", 5),
        ("warp_size_32", 6), ("warp_size_32", 8), ("inline_asm", 9), ("managed_memory", 11), ("occupancy", 11),
    }
    assert all(f.line != 3 for f in lint(LINT_SRC))


def test_lint_is_quiet_on_portable_code():
    src = ("__global__ void k(float* x) {\n  int lane = threadIdx.x % warpSize;\n"
           "  for (int o = warpSize / 2; o > 0; o /= 2) x[0] += __shfl_down(x[0], o);\n}\n")
    assert lint(src) == []


def test_every_lint_rule_is_explained_in_both_languages():
    cat = catalog()
    for rule in RULES:
        for part in ("title", "why", "fix"):
            entry = cat[f"hipify.lint.{rule}.{part}"]
            assert all(entry[lang].strip() for lang in LANGS)


# --- report --------------------------------------------------------------------------------------------------


def test_report_counts_and_percentage():
    src = "cudaMalloc(&p, 4);\ncudaDeviceFlushGPUDirectRDMAWrites(a, b);\ncublasCreate(&h);\n"
    result = translate(src)
    s = summarize(result)
    assert (s.converted, s.unsupported, s.total) == (2, 1, 3)
    assert s.percentage == pytest.approx(200 / 3)
    assert {r["api_group"]: r["converted"] for r in group_rows(result)} == {"runtime": 1, "blas": 1}
    lines = warning_lines(result, [], "f.cu", "en")
    assert lines[0].startswith("f.cu:2:1: warning: cudaDeviceFlushGPUDirectRDMAWrites not converted")
    assert "66.7 %" in stats_text(result, [], "f.cu", "en")
    assert "66.7 %" in stats_text(result, [], "f.cu", "zh")


def test_conversion_percentage_uses_the_coverage_formula():
    assert conversion_percentage(47, 50) == pytest.approx(94.0)
    assert conversion_percentage(0, 0) is None


def test_lines_changed_counts_input_lines():
    result = translate("int a;\ncudaFree(p); cudaFree(q);\nint b;\n")
    assert result.changed_lines == {1, 2}  # line 1: the added include goes before it


# --- input handling -----------------------------------------------------------------------------------------


def test_decode_keeps_non_utf8_bytes():
    data = "cudaFree(p); // caf\u00e9\n".encode("latin-1")
    decoded = decode_source(data)
    assert decoded.bad_utf8_at == data.index(b"\xe9")
    out = encode_text(translate(decoded.text).output)
    assert out.endswith(b"hipFree(p); // caf\xe9\n")


def test_binary_and_huge_inputs_are_refused():
    with pytest.raises(NotText):
        decode_source(b"\x7fELF\x00\x00\x01")
    with pytest.raises(FileTooLarge):
        decode_source(b"a" * 101, max_bytes=100)


def _zip(entries: dict[str, bytes], *, link: str | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries.items():
            z.writestr(name, data)
        if link:
            info = zipfile.ZipInfo(link)
            info.external_attr = 0o120777 << 16
            z.writestr(info, "target")
    return buf.getvalue()


def test_zip_round_trip_keeps_layout_and_skips_other_files():
    data = _zip({"src/a.cu": b"cudaFree(p);", "src/sub/b.cuh": b"x", "README.md": b"hi"})
    assert read_zip(data) == [("src/a.cu", b"cudaFree(p);"), ("src/sub/b.cuh", b"x")]
    again = read_zip(write_zip([("src/a.cu", "hipFree(p);")]))
    assert again == [("src/a.cu", b"hipFree(p);")]


@pytest.mark.parametrize("name", ["../evil.cu", "/etc/evil.cu", "a/../../evil.cu", "C:/evil.cu"])
def test_zip_traversal_is_refused(name):
    with pytest.raises(UnsafeArchive):
        read_zip(_zip({name: b"x"}))


def test_zip_links_bombs_and_garbage_are_refused():
    with pytest.raises(UnsafeArchive):
        read_zip(_zip({"a.cu": b"x"}, link="b.cu"))
    with pytest.raises(UnsafeArchive):
        read_zip(_zip({"bomb.cu": b"\0" * (30 * 1024 * 1024)}))  # deflates ~1000:1
    with pytest.raises(UnsafeArchive):
        read_zip(_zip({f"f{i}.cu": b"x" for i in range(501)}))
    with pytest.raises(UnsupportedFile):
        read_zip(b"PK\x03\x04 definitely not a zip")


def test_safe_member_name():
    assert safe_member_name("a/./b.cu") == "a/b.cu"
    assert safe_member_name("a\\b.cu") == "a/b.cu"
    assert safe_member_name("..") is None


# --- pathological input ------------------------------------------------------------------------------------

PATHOLOGICAL = {
    "unclosed raw strings": 'R"(' * 5000,
    "unclosed launches": "k<a<<<" * 5000,
    "unclosed launch args": "k<<<(" * 5000,
    "unclosed symbol calls": "cudaMemcpyToSymbol(" * 5000,
    "unclosed overloads": "cudaEventCreate((" * 5000,
    "shuffles without semicolons": "__shfl_down_sync(" * 5000,
    "open comments": "/*" * 20000,
    "quotes": '"' * 20000 + "'" * 20000,
    "many reordered cuDNN calls": "cudnnConvolutionForward(h, &a, xd, x, wd, w, cd, al, ws, n, &b, yd, y);\n" * 3000,
}


@pytest.mark.parametrize("name", list(PATHOLOGICAL))
def test_pathological_input_is_handled_without_changes_outside_code(name):
    # Each of these once made a scan restart at every occurrence (quadratic); all are now single passes.
    text = PATHOLOGICAL[name]
    result = translate(text, Options(kernel_syntax=True, miopen=True))
    assert translate(result.output, Options(kernel_syntax=True, miopen=True)).output == result.output
    lint(text)
    if name == "unclosed raw strings":
        assert result.output == text and result.notes[0][0] == "hipify.note.unterminated_string"
    if name == "unclosed launches":
        assert len(result.launches) == 5000 and not any(x.rewritten for x in result.launches)
    if name == "many reordered cuDNN calls":
        assert result.output.count("miopenConvolutionForward(h, &a, xd, x, wd, w, cd, al, &b, yd, y, ws, n);") == 3000
    if name == "unclosed symbol calls":
        assert "HIP_SYMBOL" not in result.output and result.output.count("hipMemcpyToSymbol(") == 5000


def test_lint_flags_cuda_arch_and_version_guards():
    src = "#if __CUDA_ARCH__ >= 700\n__device__ void f();\n#endif\n#if CUDART_VERSION >= 11000\n#endif\n// __CUDA_ARCH__\n"
    assert [(f.rule, f.line) for f in lint(src)] == [("cuda_arch", 1), ("cuda_arch", 4)]


@pytest.mark.parametrize(
    "src",
    ['"open\\\ncudaMalloc"str cudaMemcpy"', "/* a\nb */ #include <cstdio>\n__global__ void k();\n",
     "x; /* a\nb */ cudaFree(p);\n"],
)
def test_added_include_never_lands_inside_a_comment_or_string(src):
    # found by the fuzz test: the line after a backslash-continued string is still inside the string
    out = translate(src).output
    assert out == "#include <hip/hip_runtime.h>\n" + src.replace("cudaMemcpy", "hipMemcpy").replace(
        "cudaFree", "hipFree")
    assert translate(out).output == out


def test_crlf_files_keep_their_line_endings():
    src = "#include <cuda_runtime.h>\r\n__global__ void k();\r\ncudaFree(p);\r\n"
    assert translate(src).output == "#include <hip/hip_runtime.h>\r\n__global__ void k();\r\nhipFree(p);\r\n"
    src = "__global__ void k();\r\n"
    assert translate(src).output == "#include <hip/hip_runtime.h>\r\n__global__ void k();\r\n"


def test_every_lint_pattern_spells_a_needle_of_its_rule():
    """lint() runs a pattern only when a needle it spells is in the text: a pattern without one would never run."""
    from rocm_bridge.hipify import lint as lint_module

    for rule, needles, patterns in lint_module._PATTERNS:
        for pattern in patterns:
            assert any(n in pattern for n in needles), (rule, pattern)
    src = ("__global__ void k() { asm(\"nop\"); __asm__ volatile(\"nop\"); }\n"
           "void h() { cudaFuncSetCacheConfig(k, c); hipDeviceSetSharedMemConfig(x); cudaMallocManaged(&p, 4);\n"
           "  cudaMemAdvise(p, 4, a, d); }\n#if __CUDA_ARCH__ >= 700\n#endif\n")
    rules = {(f.rule, f.line) for f in lint(src)}
    assert {("inline_asm", 1), ("occupancy", 2), ("managed_memory", 2), ("managed_memory", 3),
            ("cuda_arch", 4)} <= rules
