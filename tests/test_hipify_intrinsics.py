"""Type-exact intrinsic calls (issue 28, item 5): data/hipify_intrinsic_casts.csv, found by compiling
(tools/probe_hipify_overloads.py), lists the intrinsics HIP overloads where CUDA declares one; the translator casts
their arguments to CUDA's parameter type. Checked here with ROCm 5.2's hipcc: every argument type the table says is
ambiguous fails without the cast and compiles with it."""

from __future__ import annotations

import csv
import os
import subprocess
from pathlib import Path

import compilers

from rocm_bridge.hipify.translator import Options, translate

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "data" / "hipify_intrinsic_casts.csv"


def _rows() -> list[dict[str, str]]:
    with open(TABLE, newline="") as fh:
        return list(csv.DictReader(fh))


def _program(rows) -> str:
    lines = ["#include <cstdint>", "#include <cstddef>"]
    k = 0
    for row in rows:
        arity = len(row["cuda_params"].split("|"))
        for t in row["ambiguous_in_hip_5_2"].split("|"):
            args = ", ".join(f"a[{i}]" for i in range(arity))
            lines.append(f"__global__ void k{k}({t}* a, long long* o) {{ o[0] = {row['cuda_name']}({args}); }}")
            k += 1
    return "\n".join(lines) + "\n"


def test_table_names_the_issue_s_case():
    rows = {r["cuda_name"]: r for r in _rows()}
    assert "long" in rows["__ffsll"]["ambiguous_in_hip_5_2"].split("|")  # int64_t on LP64 Linux
    assert rows["__ffsll"]["cuda_params"] == "long long int"


def test_calls_are_cast_to_cuda_s_parameter_type():
    out = translate("__global__ void k(long* p, int* o) { o[0] = __ffsll(p[0]); o[1] = __ffs(p[1]); }\n",
                    Options()).output
    assert "__ffsll(static_cast<long long int>(p[0]))" in out and "__ffs(static_cast<int>(p[1]))" in out
    again = translate(out, Options()).output
    assert again.count("static_cast") == 2  # not cast twice


def test_ambiguous_calls_fail_without_the_cast_and_compile_with_it(tmp_path):
    hipcc = compilers.hipcc()
    src = _program(_rows())
    plain = tmp_path / "plain.hip"
    plain.write_text("#include <hip/hip_runtime.h>\n" + src)
    cast = tmp_path / "cast.hip"
    cast.write_text(translate("#include <cuda_runtime.h>\n" + src, Options()).output)

    def run(path):
        return subprocess.run([hipcc, "--offload-arch=gfx90a", "-fsyntax-only", "-std=c++17", "-x", "hip", str(path)],
                              capture_output=True, text=True, env={**os.environ, "HIP_PLATFORM": "amd"}, timeout=300)

    failed = run(plain)
    assert failed.returncode != 0 and failed.stderr.count("is ambiguous") == src.count("__global__")
    ok = run(cast)
    assert ok.returncode == 0, ok.stderr[-3000:]
