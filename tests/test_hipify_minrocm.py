"""Minimum ROCm of a translated file (rocm_bridge.hipify.minrocm) and `--rocm-version` on the command line."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

from rocm_bridge.hipify import report
from rocm_bridge.hipify.minrocm import FLOOR, minimum_rocm, short, valid_version
from rocm_bridge.hipify.translator import Options, translate

ROOT = Path(__file__).resolve().parent.parent


def _hip_added() -> dict[str, str]:
    with (ROOT / "data" / "hipify_mappings.csv").open(newline="", encoding="utf-8") as fh:
        return {r["cuda_name"]: r["hip_added"] for r in csv.DictReader(fh) if r["variant"] == "hip" and r["hip_name"]}


SRC = "cudaMalloc(&p, 4);\ncudaMallocAsync(&p, 4, s);\ncudaDataType t;\ncudaMemPool_t pool;\n"


def test_minimum_is_the_newest_added_version_and_lists_the_apis_that_raise_it():
    added = _hip_added()
    m = minimum_rocm(translate(SRC))
    assert m.version == short(added["cudaDataType"]) == "5.7"
    assert [r.hip_name for r in m.raising] == ["hipDataType", "hipMallocAsync", "hipMemPool_t"]
    assert [r.added for r in m.raising] == [added["cudaDataType"], added["cudaMallocAsync"], added["cudaMemPool_t"]]
    assert m.raising[0].line == 3 and m.too_new == ()


def test_dated_hip_headers_raise_the_minimum_and_are_flagged():
    """cooperative_groups/reduce.h and scan.h map to HIP headers of ROCm 7.13 and 10.0 (data/hipify_headers.csv;
    ROCm/rocm-systems projects/clr/CHANGELOG.md); the report counts them like APIs."""
    src = ("#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n"
           "#include <cooperative_groups/scan.h>\n__global__ void k(int* p) { p[threadIdx.x] = 0; }\n")
    m = minimum_rocm(translate(src), "7.13")
    assert m.version == "10.0"
    assert [(r.hip_name, r.cuda_name, short(r.added), r.line) for r in m.raising] == [
        ("hip/cooperative_groups/hip_scan.h", "cooperative_groups/scan.h", "10.0", 3),
        ("hip/cooperative_groups/hip_reduce.h", "cooperative_groups/reduce.h", "7.13", 2)]
    assert [r.hip_name for r in m.too_new] == ["hip/cooperative_groups/hip_scan.h"]
    assert minimum_rocm(translate(src.replace("#include <cooperative_groups/scan.h>\n", ""))).version == "7.13"
    assert minimum_rocm(translate("#include <cooperative_groups.h>\n")).version == FLOOR  # undated: no raise


def test_target_version_flags_every_newer_api():
    m = minimum_rocm(translate(SRC), "5.2")
    assert [r.hip_name for r in m.too_new] == ["hipDataType"]
    assert [r.hip_name for r in minimum_rocm(translate(SRC), "5.1").too_new] == [
        "hipDataType", "hipMallocAsync", "hipMemPool_t"]
    assert minimum_rocm(translate(SRC), "6.0").too_new == ()
    rows = report.minimum_rows(m, "en")
    assert [(r["hip_name"], r["too_new"]) for r in rows] == [
        ("hipDataType", True), ("hipMallocAsync", False), ("hipMemPool_t", False)]


def test_old_apis_only_give_the_floor_and_no_api_gives_nothing():
    assert minimum_rocm(translate("cudaMalloc(&p, 4);\n")).version == FLOOR
    assert minimum_rocm(translate("int main() { return 0; }\n")).version == ""
    assert report.minimum_rocm_lines(minimum_rocm(translate("int x;\n")), "a.cu", "en") == []


def test_roc_target_uses_the_roc_rows_versions():
    src = "cuComplex c; __nv_bfloat16 b;\n"
    m = minimum_rocm(translate(src, Options(roc=True)))
    assert {r.hip_name: r.added for r in m.requirements}["rocblas_bfloat16"] == "3.5.0"


def test_valid_version():
    assert [valid_version(v) for v in ("5.2", "6.1.2", "6", "5.x", "", "1.2.3.4")] == [
        True, True, True, False, False, False]


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rocm_bridge", "hipify", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=60, env={"PATH": "/usr/bin:/bin", "LANG": "C"})


def test_cli_reports_the_minimum_and_flags_apis_newer_than_rocm_version():
    done = _cli("--rocm-version", "5.2", "-", stdin=SRC)
    assert done.returncode == 0
    assert "<stdin>: needs ROCm 5.7 or later (newest HIP APIs used: hipDataType 5.7, hipMallocAsync 5.2" in done.stderr
    assert "<stdin>:3:1: warning: hipDataType (for cudaDataType) was added in ROCm 5.7, after ROCm 5.2" in done.stderr
    assert done.stderr.count("will not compile there") == 1
    bad = _cli("--rocm-version", "five", "-", stdin=SRC)
    assert bad.returncode == 2 and "--rocm-version wants a release number" in bad.stderr


def test_warp_sync_builtins_are_kept_and_need_rocm_6_2():
    """HIPIFY lists __shfl_down_sync as unsupported and __any_sync not at all; HIP has both since ROCm 6.2
    (data/hipify_corrections.csv): the name stays, nothing is 'left for you', and the report says which ROCm."""
    src = ("__global__ void k(int *o, int v) {\n"
           "  v += __shfl_down_sync(0xffffffffffffffffull, v, 1);\n"
           "  o[0] = __any_sync(__activemask(), v > 0);\n}\n")
    result = translate(src)
    assert result.output.endswith(src)  # only hip_runtime.h is added
    m = minimum_rocm(result, "5.2")
    assert m.version == "6.2"
    assert sorted(r.hip_name for r in m.too_new) == ["__activemask", "__any_sync", "__shfl_down_sync"]
    summary = report.summarize(result)
    assert (summary.converted, summary.unsupported) == (3, 0)
