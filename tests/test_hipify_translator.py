"""Translator behaviours behind the golden cases that a golden file cannot show: notes and their positions,
the launch table, argument rules refusing calls they do not understand, the preprocessor evaluator of
--skip-excluded-preprocessor-conditional-blocks, and the command line's -D."""

from __future__ import annotations

import pytest

from rocm_bridge.cli import main
from rocm_bridge.hipify.args import RULES, pick
from rocm_bridge.hipify.lexer import lex
from rocm_bridge.hipify.messages import t
from rocm_bridge.hipify.ppeval import evaluate
from rocm_bridge.hipify.preproc import GUARD_MACROS, Conditionals
from rocm_bridge.hipify.translator import Options, translate


def _notes(result, key):
    return [(line, col) for k, line, col in result.notes if k == key]


def test_launch_table_names_come_from_the_original_text():
    # renames before the launch shift the output: the kernel name must still be read from the input
    src = "void f(cudaStream_t s, float* d) { cudaStreamSynchronize(s); ::ns::k<<<1, 2, 0, s>>>(d); }\n"
    [launch] = translate(src).launches
    assert (launch.kernel, launch.line, launch.col, launch.rewritten) == ("::ns::k", 1, 69, False)


def test_a_launch_inside_an_expression_stays_and_says_why():
    src = "__global__ void k() {}\nint f() { return (k<<<1, 1>>>(), 0); }\n"
    result = translate(src, Options(kernel_syntax=True))
    assert "k<<<1, 1>>>()" in result.output
    [launch] = result.launches
    assert launch.reason == "hipify.launch.expression" and not launch.rewritten


def test_argument_rules_leave_calls_with_an_unexpected_argument_count():
    src = "void f() { cudaFuncSetAttribute(k, attr); cudaFuncSetAttribute(k, attr, 1); }\n"
    out = translate(src).output
    assert "hipFuncSetAttribute(k, attr);" in out
    assert "hipFuncSetAttribute(reinterpret_cast<const void*>(k), attr, 1);" in out


def test_every_rule_names_a_call_the_table_knows_and_a_known_operation():
    from rocm_bridge.hipify.index import active_map

    names = set(active_map(True, True)) | set(active_map())
    for name, rules in RULES.items():
        assert name in names, name
        for rule in rules:
            assert rule.target in ("hip", "roc", "miopen")
            assert all(op in ("wrap", "insert", "replace", "remove", "copy", "datatype", "declare", "declare_addr",
                              "field", "drop_null")
                       for op, _i, _v in rule.ops)
    assert pick("cudaLaunchKernel", "hip", 6) is not None and pick("cudaLaunchKernel", "roc", 6) is None


def test_rocsparse_generic_calls_take_rocsparse_data_types_under_roc():
    """CUDA_R_32F's --roc name is rocBLAS's (HIPIFY's BLAS map); inside a rocSPARSE call it must be rocSPARSE's."""
    src = ("void f(cusparseDnVecDescr_t* v, float* x, cudaDataType t) {\n"
           "  cusparseCreateDnVec(v, 8, x, CUDA_R_64F);\n  cusparseCreateDnVec(v, 8, x, t);\n"
           "  cudaDataType u = CUDA_R_32F;\n}\n")
    out = translate(src, Options(roc=True)).output.splitlines()[1:]  # the first line: hip_runtime.h
    assert out[1] == "  rocsparse_create_dnvec_descr(v, 8, x, rocsparse_datatype_f64_r);"
    assert out[2] == "  rocsparse_create_dnvec_descr(v, 8, x, t);"  # a variable keeps its (rocBLAS) type
    assert out[3] == "  rocblas_datatype u = rocblas_datatype_f32_r;"  # outside a rocSPARSE call: the table's name
    assert translate(src).output.splitlines()[2] == "  hipsparseCreateDnVec(v, 8, x, HIP_R_64F);"


def test_b2d_callback_removal_is_reported_at_the_call():
    src = "void f(CUfunction fn, CUoccupancyB2DSize cb) {\n  int g, b;\n  cuOccupancyMaxPotentialBlockSize(&g, &b, fn, cb, 0, 0);\n}\n"
    result = translate(src)
    assert "hipModuleOccupancyMaxPotentialBlockSize(&g, &b, fn, 0, 0);" in result.output
    assert _notes(result, "hipify.tr.b2d_dropped") == [(3, 3)]


def test_shadowing_is_per_name_and_reported_once():
    src = "cudaError_t cudaError = cudaSuccess;\nint use() { return cudaError == cudaSuccess; }\ncudaStream_t s;\n"
    result = translate(src)
    assert "\nhipError_t cudaError = hipSuccess;\n" in result.output
    assert "return cudaError == hipSuccess;" in result.output and "hipStream_t s;" in result.output
    assert _notes(result, "hipify.tr.shadowed") == [(1, 13)]


@pytest.mark.parametrize("src", [
    "return cudaError;\n",  # a keyword before it
    "x = sizeof(cudaError);\n",  # no type before it
    "typedef enum cudaError cudaError_t;\n",  # elaborated type
])
def test_type_names_used_as_types_are_still_renamed(src):
    assert "cudaError" not in translate(src).output.replace("cudaError_t", "")


def test_guard_rewrite_is_reported_and_keeps_defines():
    src = "#define CUBLAS_API_H_\n#ifdef CUBLAS_API_H_ // CUBLAS_API_H_\nint x;\n#endif\n"
    result = translate(src)
    assert result.output == "#define CUBLAS_API_H_\n#ifdef HIPBLAS_H // CUBLAS_API_H_\nint x;\n#endif\n"
    assert _notes(result, "hipify.tr.guard_macro") == [(2, 8)]


def test_guard_macros_follow_the_roc_target():
    src = "#if defined(CURAND_H_) && defined(CUSPARSE_H_)\n#endif\n"
    assert "defined(ROCRAND_H_) && defined(_ROCSPARSE_H_)" in translate(src, Options(roc=True)).output
    assert "defined(HIPRAND_H_) && defined(_HIPSPARSE_H_)" in translate(src).output
    assert set(GUARD_MACROS) >= {"__CUDA_RUNTIME_H__", "__DRIVER_TYPES_H__", "__cuda_cuda_h__", "CUBLAS_API_H_",
                                 "_CUFFT_H_", "CURAND_H_", "CUSPARSE_H_"}


def test_include_guard_is_found_only_when_it_wraps_the_file():
    def guard(text):
        return Conditionals(lex(text).masked).guard

    assert guard("// c\n#ifndef A_H\n#define A_H\nint x;\n#endif /* A_H */\n") == (0, 2)
    assert guard("#ifndef A_H\n#define A_H\n#endif\nint x;\n") is None
    assert guard("#ifndef A_H\n#define B_H\nint x;\n#endif\n") is None


@pytest.mark.parametrize("expr, expected", [
    ("CUDA_VERSION >= 9000", True),
    ("CUDART_VERSION < 11000", False),
    ("defined(__CUDACC__) && !defined __CUDA_ARCH__", True),
    ("defined(_WIN32) || defined(__linux__)", True),
    ("UNKNOWN_MACRO", False),
    ("(1 ? 2 : 0) == 2 && (0x10 >> 4) == 1 && -3 / 2 == -1 && 7 % 3 == 1", True),
    ("FOO(1)", None),
    ("1 / 0", None),
    ("1 +", None),
    ("'a' == 97", None),
])
def test_preprocessor_expressions(expr, expected):
    from rocm_bridge.hipify.ppeval import BUILTIN

    assert evaluate(expr, dict(BUILTIN)) is expected


def test_skip_excluded_handles_nesting_undef_and_unknown_conditions():
    src = ("#define A 1\n#if A\n#undef A\n#if defined(A)\ncudaStream_t s1;\n#else\ncudaStream_t s2;\n#endif\n"
           "#else\ncudaStream_t s3;\n#endif\n#if F(2)\ncudaStream_t s4;\n#else\ncudaStream_t s5;\n#endif\n")
    out = translate(src, Options(skip_excluded=True)).output
    assert "cudaStream_t s1;" in out and "hipStream_t s2;" in out and "cudaStream_t s3;" in out
    assert "hipStream_t s4;" in out and "hipStream_t s5;" in out  # F(2) cannot be evaluated: both translated
    assert "cudaStream_t" not in translate(src).output  # without the option every branch is translated


def test_skip_excluded_and_defines_on_the_command_line(tmp_path, capsys):
    src = tmp_path / "a.cu"
    src.write_text("#ifdef USE_X\ncudaStream_t a;\n#else\ncudaEvent_t b;\n#endif\n")
    assert main(["hipify", "--lang", "en", "--skip-excluded-preprocessor-conditional-blocks", "-DUSE_X",
                 str(src)]) == 0
    out, err = capsys.readouterr()
    assert "hipStream_t a;" in out and "cudaEvent_t b;" in out
    assert f"{src}:3:1: --skip-excluded-preprocessor-conditional-blocks" in err
    assert main(["hipify", "--default-preprocessor", "-D", "OTHER=1", str(src)]) == 0
    out, _err = capsys.readouterr()
    assert "cudaStream_t a;" in out and "hipEvent_t b;" in out


def test_library_version_macros_exist_from_their_include_on_in_taken_branches_only():
    """CUSPARSE_VERSION & co. come from the library headers (CUDA 12.6.0's libraries, cuDNN 9.5.0), so an #if
    before the #include, or after an #include the compile skips, sees them undefined (0), as clang would."""
    src = ("#if CUSPARSE_VERSION >= 11300\ncudaStream_t before;\n#endif\n"
           "#include <cusparse.h>\n#if CUDA_VERSION >= 11010 && CUSPARSE_VERSION >= 11300\ncusparseSpMatDescr_t m;\n#endif\n"
           "#if 0\n#include <cudnn.h>\n#endif\n#if CUDNN_VERSION >= 8000\ncudaEvent_t dnn;\n#endif\n"
           "#include <cublas_v2.h>\n#if CUBLAS_VERSION >= 120600 && CUBLAS_VER_BUILD == 22\ncudaEvent_t blas;\n#endif\n"
           "#include <curand_kernel.h>\n#include <cufftXt.h>\n#include <cusolverDn.h>\n#include <cudnn.h>\n"
           "#if CURAND_VERSION == 10307 && CUFFT_VERSION == 11206 && CUSOLVER_VERSION == 11604 && CUDNN_VERSION == 90500\n"
           "cudaError_t all;\n#endif\n")
    out = translate(src, Options(skip_excluded=True)).output
    assert "cudaStream_t before;" in out and "hipsparseSpMatDescr_t m;" in out
    assert "cudaEvent_t dnn;" in out  # cudnn.h was included in a branch the compile skips
    assert "hipEvent_t blas;" in out and "hipError_t all;" in out


def test_library_versions_belong_to_the_cuda_release_the_evaluator_assumes():
    from rocm_bridge.hipify.ppeval import BUILTIN, LIBRARY_VERSIONS

    cuda = int(BUILTIN["CUDA_VERSION"])  # 12060
    blas = LIBRARY_VERSIONS["cublas_v2.h"]  # cuBLAS is versioned with the toolkit since CUDA 11
    assert (int(blas["CUBLAS_VER_MAJOR"]), int(blas["CUBLAS_VER_MINOR"])) == (cuda // 1000, cuda % 1000 // 10)
    for header, prefix in (("cusparse.h", "CUSPARSE"), ("cufft.h", "CUFFT"), ("curand.h", "CURAND"),
                           ("cusolverDn.h", "CUSOLVER"), ("cublas.h", "CUBLAS")):
        m = LIBRARY_VERSIONS[header]
        scale = 10000 if prefix == "CUBLAS" else 1000
        assert int(m[f"{prefix}_VERSION"]) == (int(m[f"{prefix}_VER_MAJOR"]) * scale + int(m[f"{prefix}_VER_MINOR"]) * 100
                                                + int(m[f"{prefix}_VER_PATCH"]))


def test_amap_renames_inside_skipped_branches_on_the_command_line(tmp_path, capsys):
    """--amap (HIPIFY PR #1302): with --skip-excluded..., the skipped branch's names are renamed all the same."""
    src = tmp_path / "a.cu"
    src.write_text("#ifdef USE_X\n#include <cufft.h>\ncudaStream_t a; cudaEventCreate(&e, 0);\n#else\n"
                   "cudaEvent_t b;\n#endif\n")
    assert main(["hipify", "--lang", "en", "--skip-excluded-preprocessor-conditional-blocks", "--amap", str(src)]) == 0
    out, err = capsys.readouterr()
    # renamed; the include and the argument-count overload (cudaEventCreate with flags) need the branch compiled
    assert "#include <cufft.h>\nhipStream_t a; hipEventCreate(&e, 0);" in out and "hipEvent_t b;" in out
    assert f"{src}:1:1: --amap:" in err
    assert main(["hipify", "-amap", "--lang", "en", str(src)]) == 0  # alone: every branch is translated anyway
    out, _err = capsys.readouterr()
    assert "#include <hipfft/hipfft.h>" in out and "hipEventCreateWithFlags(&e, 0);" in out


def test_every_translator_note_is_in_both_languages():
    import tomllib
    from pathlib import Path

    import rocm_bridge

    path = Path(rocm_bridge.__file__).parent / "locales" / "hipify_translator.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    keys = [f"hipify.tr.{k}" for k in data["hipify"]["tr"]] + ["hipify.launch.expression", "hipify.header.moved"]
    for key in keys:
        assert t(key, "en") and t(key, "zh") and t(key, "en") != t(key, "zh")


def test_template_kernel_arguments_are_one_argument_and_comparisons_are_not():
    out = translate("void f() { cudaOccupancyMaxPotentialBlockSize(&g, &b, kt<float, 4>); "
                    "cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, a < b, 0); }\n").output
    assert "hipOccupancyMaxPotentialBlockSize(&g, &b, reinterpret_cast<const void*>(kt<float, 4>));" in out
    assert "hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, reinterpret_cast<const void*>(k), a < b, 0);" in out


def test_catalog_cache_follows_the_toml_files(tmp_path, monkeypatch):
    import shutil

    from rocm_bridge.hipify import messages

    locales = tmp_path / "locales"
    shutil.copytree(messages.LOCALES, locales, ignore=shutil.ignore_patterns("[!h]*"))
    monkeypatch.setattr(messages, "LOCALES", locales)
    monkeypatch.setenv("ROCM_BRIDGE_CACHE", str(tmp_path / "cache"))
    messages._entries.cache_clear()
    try:
        assert messages.t("hipify.tr.shadowed", "en").startswith("a variable here")
        assert (tmp_path / "cache" / "rocm_bridge").is_dir()  # written on first use
        path = locales / "hipify_translator.toml"
        path.write_text(path.read_text(encoding="utf-8").replace("a variable here", "A VARIABLE HERE"),
                        encoding="utf-8")
        messages._entries.cache_clear()
        assert messages.t("hipify.tr.shadowed", "en").startswith("A VARIABLE HERE")
    finally:
        messages._entries.cache_clear()


def test_inserted_lines_never_land_inside_a_comment():
    # a call whose line starts inside a block comment: the declarations MIOpen needs go before the comment
    src = "void f() {\n  /* note\n   */ cudnnSetDropoutDescriptor(d, h, 0.5f, s, n, 1);\n}\n"
    out = translate(src, Options(miopen=True)).output
    lexed = lex(out)
    decl = out.index("bool hipify_use_mask")
    assert lexed.inside_opaque(decl) is None and decl < out.index("/* note")
    assert "/* note\n   */ miopenSetDropoutDescriptor(" in out  # the comment is left whole
    # and with the file's line endings and the call's indentation
    crlf = translate(src.replace("\n", "\r\n"), Options(miopen=True)).output
    assert "\r\n  bool hipify_use_mask = {};\r\n" in crlf


def test_template_kernels_are_found_by_their_declarations():
    from rocm_bridge.hipify.launch import template_kernels

    src = ("template <typename T, int N>\n__global__ void __launch_bounds__(256) scaleBy(T* x) {}\n"
           "__global__ void plainK(float* x) {}\n"
           "template<class T> __global__ void both(T) {}\n__global__ void both(int) {}\n"  # a plain one shares it
           "template <typename T>\nstatic __global__ void st(T* p) {}\n")
    assert template_kernels(lex(src).masked) == {"scaleBy", "st"}
