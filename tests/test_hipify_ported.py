"""bench/hipify_ported.py's logic on two small CUDA programs with hand-written HIP ports (tests/hipify/ported/,
written for this test): the wrong-line classes and their counts, the first-error classes of real ROCm 5.2 hipcc
compiles, and the per-program summary of a run of this checkout's engine."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAIRS = ROOT / "tests" / "hipify" / "ported"


def _load():
    spec = importlib.util.spec_from_file_location("hipify_ported", ROOT / "bench" / "hipify_ported.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["hipify_ported"] = module
    spec.loader.exec_module(module)
    return module


hp = _load()


def _text(name: str, side: str) -> str:
    return (PAIRS / name / side / "main.cu").read_text(encoding="utf-8")


def _naive(cuda: str) -> str:
    """What a name-for-name translator writes: every cudaX -> hipX, the runtime header swapped, nothing else."""
    return re.sub(r"\bcuda(?=[A-Z])", "hip", cuda).replace("<cuda_runtime.h>", "<hip/hip_runtime.h>")


@pytest.fixture(scope="module")
def compiler(tmp_path_factory):
    if not Path(hp.HIPCC).exists() or not shutil.which("hipcc"):
        if os.environ.get("CI") == "true":
            pytest.fail("hipcc is missing but CI installs it (Debian hipcc, ROCm 5.2)")
        pytest.skip("hipcc (Debian's ROCm 5.2) is not installed")
    return hp.Compiler(tmp_path_factory.mktemp("compile-cache"))


def test_corpus_layout_is_read():
    programs = hp.load_corpus(PAIRS)
    assert [(p["name"], p["cuda"].name, p["hip"].name) for p in programs] == [
        ("simdmax", "main.cu", "main.cu"), ("warpsum", "main.cu", "main.cu")]


def test_wrong_lines_of_a_naive_translation():
    port = _text("warpsum", "hip")
    found = hp.wrong_lines(_naive(_text("warpsum", "cuda")), port)
    assert {k: [n for n, _ in v] for k, v in found.items()} == {
        "offset_16": [9], "mask_0xffffffff": [10], "lane_math_32": [11, 12], "hipHostAlloc": [25]}
    assert "__shfl_down_sync(0xffffffff, v, offset)" in found["mask_0xffffffff"][0][1]
    assert hp.wrong_lines(port, port) == {}


def test_cuda_left_in_code_and_in_strings():
    found = hp.wrong_lines(_text("warpsum", "cuda"), _text("warpsum", "hip"))
    assert [n for n, _ in found["cuda_in_string"]] == [26]  # printf("cudaHostAlloc failed\n")
    # the code lines naming a CUDA runtime API; comments never count
    assert [n for n, _ in found["cuda_name_left"]] == [25, 30, 31, 32, 33, 36, 38, 39, 40]
    src = "a // cudaFree\n/* 0xffffffff */ b \"cudaFree\""
    blanked = hp.strip_comments(src, strings=False)
    assert len(blanked) == len(src) and blanked.split() == ["a", "b", '"', '"']
    assert hp.strip_comments(src, strings=True).split() == ["a", "b", '"cudaFree"']


def test_first_error_classes_from_real_compiles(compiler):
    for name in ("warpsum", "simdmax"):
        assert compiler("main.cu", _text(name, "hip"))["ok"], name
    cases = {"warpsum": (_naive(_text("warpsum", "cuda")), "warp_sync", 10),
             "simdmax": (_naive(_text("simdmax", "cuda")), "simd_intrinsic", 8)}
    no_simd = cases["simdmax"][0].replace("__vmaxs4(a[i], b[i])", "a[i] > b[i] ? a[i] : b[i]")
    cases["ffsll"] = (no_simd, "ambiguous_overload", 9)
    # without the _sync shuffle, hipHostAlloc(&h, ...) with a float** is next: HIP 5.2 declares only void**
    no_sync = cases["warpsum"][0].replace("__shfl_down_sync(0xffffffff, v, offset)", "__shfl_down(v, offset)")
    cases["host_alloc"] = (no_sync.replace("hipHostAllocDefault", "hipHostMallocDefault"), "void_ptr_arg", 25)
    table = hp.load_table()
    for label, (text, cls, line) in cases.items():
        res = compiler("main.cu", text)
        assert not res["ok"], label
        assert hp.port_class(hp.diagnostics(res), text, table) == cls, (label, res["errors"][:2])
        file, _msg, at, src = hp.first_error(hp.diagnostics(res), text, "main.cu")
        assert (file, at) == ("main.cu", line), label
        assert src == text.splitlines()[line - 1].strip()


def test_a_run_is_summarised_consistently(compiler, tmp_path):
    engine = hp.parse_engine(f"engine:{ROOT}", tmp_path)
    result = hp.measure(PAIRS, [engine], "", 2, compiler.cache)
    rows, summary = result["programs"], hp.summary(result)
    assert result["tools"] == ["engine", "port"]
    assert [r["program"] for r in rows] == ["simdmax", "warpsum"]
    assert all(r["port"]["ok"] for r in rows)
    assert summary["compile"] == {"engine": sum(r["engine"]["ok"] for r in rows), "port": 2}
    failed = sorted(item.split("/")[0] for items in summary["failures"]["engine"].values() for item in items)
    assert failed == [r["program"] for r in rows if not r["engine"]["ok"]]
    assert summary["beats_port"]["engine"] == []  # both ports compile
    for r in rows:
        assert r["engine"]["wrong_counts"] == {k: len(v) for k, v in r["engine"]["wrong_lines"].items()}
        if not r["engine"]["ok"]:
            assert r["engine"]["cls"] in {*hp.PORT_CLASSES, *hp.REALWORLD_CLASS.values()}
