"""The compile lab's second compiler: clang 22 (PyPI's ziglang wheel) with the HIP 5.2 headers, in the sandbox.

Every lab and hipify example is compiled for gfx90a, gfx942, gfx950, gfx1100 and gfx1201 (one compiler process
per example for all five targets); the lab's occupancy equals the compiler's own figure on each kernel; the LDS
model matches LLVM 22's on synthetic kernels; the headless API reports MFMA and load widths; the agreement table
(data/compile_cases.csv) holds for both compilers and for hipify's lint."""

from __future__ import annotations

import csv
import json
import multiprocessing
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from rocm_bridge.compile import clang22, examples, toolchain
from rocm_bridge.compile.api import compile_hip, width_bits
from rocm_bridge.compile.engine import compile_batch, compile_code
from rocm_bridge.compile.occupancy import waves_by_lds
from rocm_bridge.compile.targets import target

CI = os.environ.get("CI") == "true"  # CI installs every part: a missing one fails there, never skips

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ["gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1201"]
needs_clang22 = pytest.mark.skipif(not clang22.available() and not CI,
                                   reason="ziglang wheel or clang-15 wrapper headers missing (.ci/run installs them)")
needs_hipcc = pytest.mark.skipif(toolchain.hipcc() is None and not CI, reason="hipcc not installed (.ci/run installs it)")


def _batch(key: str):
    return key, compile_batch(examples.source(key), TARGETS)


@pytest.fixture(scope="module")
def batches():
    """example -> target -> CompileResult: one clang 22 process per example for the five targets, two examples at a
    time (each worker process has its own line; CI's two cores are both used)."""
    if not clang22.available():
        return {}
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        return dict(pool.map(_batch, examples.all_keys()))


@needs_clang22
def test_clang22_knows_the_targets_of_the_issue():
    assert set(TARGETS) <= set(clang22.supported_targets())
    assert clang22.version().startswith("clang 22.")


@needs_clang22
def test_every_example_compiles_for_every_target(batches):
    for key, results in batches.items():
        for t, r in results.items():
            assert r.toolchain == "clang22" and r.target == t
            if examples.expected_to_compile(key):
                assert r.ok and r.kernels, (key, t, [d.message for d in r.diagnostics])
                for k in r.kernels:
                    assert k.vgprs > 0 and k.wave == target(t).default_wave
            elif key != "broken_warp_size":  # wave32 RDNA satisfies its static_assert (see compile_cases.csv)
                assert not r.ok and any(d.severity == "error" for d in r.diagnostics), (key, t)


@needs_clang22
def test_the_hip_mfma_example_uses_the_matrix_cores_of_cdna3_and_cdna4(batches):
    for t in TARGETS:
        counts = batches["mfma_tile"][t].kernel_asm()[0].counts()
        assert (counts.get("mfma", 0) > 0) == (t in ("gfx90a", "gfx942", "gfx950")), (t, counts)


@needs_clang22
def test_occupancy_equals_the_compilers_own_figure(batches):
    seen = 0
    for key, results in batches.items():
        for t, r in results.items():
            for k in r.kernels:
                assert k.compiler_occupancy is not None, (key, t, k.name)
                assert k.occupancy["waves_per_simd"] == k.compiler_occupancy, (key, t, k.display, k.to_dict())
                seen += 1
    compiling = sum(1 for key in batches if examples.expected_to_compile(key))
    assert seen >= compiling * len(TARGETS)  # at least one kernel per compiling example and target


@needs_clang22
def test_recorded_clang22_results_match(batches):
    """data/compile_recorded/clang22/ (tools/record_compile.py --clang22) holds what clang 22 produces now."""
    from rocm_bridge.compile import recorded
    for key, results in batches.items():
        rec = recorded.load_sub("clang22", key)
        assert rec is not None, f"run python tools/record_compile.py --clang22 {key}"
        assert rec["code_sha256"] == recorded.code_hash(examples.source(key)), "example changed: re-record it"
        if rec["compiler"] != clang22.version():
            pytest.skip(f"recorded with {rec['compiler']}: re-record")
        for t in recorded.TARGETS22:
            assert recorded.comparable(rec["results"][t]) == recorded.comparable(results[t].to_dict()), (key, t)
            assert recorded.result22(key, t).recorded == rec["date"]


@needs_clang22
def test_every_other_table_target_agrees_with_the_compiler():
    """The remaining rows of data/amdgpu_targets.csv clang 22 knows (gfx906, gfx908, gfx1030, gfx1101, gfx1102,
    gfx1200...): one process, the register-bound example, the lab's occupancy equal to the compiler's."""
    others = [t for t in clang22.supported_targets() if t not in TARGETS]
    assert {"gfx906", "gfx908", "gfx1030", "gfx1200"} <= set(others)
    for t, r in compile_batch(examples.source("register_heavy"), others).items():
        k = r.kernels[0]
        assert k.occupancy["waves_per_simd"] == k.compiler_occupancy, (t, k.to_dict())


_LDS_KERNELS = """#include <hip/hip_runtime.h>
#define K(N, B) __global__ void __launch_bounds__(B) k_##N##_##B(float* o) { __shared__ float s[N / 4]; \\
    s[threadIdx.x % (N / 4)] = o[threadIdx.x]; __syncthreads(); o[threadIdx.x] = s[(threadIdx.x + 1) % (N / 4)]; }
K(4096, 256) K(16384, 256) K(32768, 256) K(40000, 64) K(65536, 1024) K(20000, 1024) K(8192, 64) K(1024, 128)
K(49152, 512) K(1024, 1024) K(12288, 96)
__global__ void no_bounds(float* o) { o[threadIdx.x] = 1; }
"""


@needs_clang22
def test_lds_model_matches_llvm22():
    """Kernels that only LDS limits (a few VGPRs each): the compiler's own occupancy figure must equal the lab's LDS
    model (rocm_bridge.compile.occupancy, LLVM 22 branch) wherever LDS is what binds, for each LDS size."""
    results = compile_batch(_LDS_KERNELS, ["gfx942", "gfx950", "gfx1100", "gfx1201"])
    lds_bound = 0
    for t, r in results.items():
        assert r.ok, [d.message for d in r.diagnostics]
        model = target(t, "clang22")
        for k in r.kernels:
            assert k.occupancy["waves_per_simd"] == k.compiler_occupancy, (t, k.display)
            if "lds" in k.occupancy["binding"]:
                assert waves_by_lds(model, k.wave, k.lds_bytes, k.max_block) == k.compiler_occupancy, (t, k.display)
                lds_bound += 1
    assert lds_bound >= 4 * 5  # most of the eleven LDS sizes bind on every target
    gfx950 = {k.display: k.occupancy["waves_per_simd"] for k in results["gfx950"].kernels}
    gfx942 = {k.display: k.occupancy["waves_per_simd"] for k in results["gfx942"].kernels}
    assert gfx950["k_32768_256"] > gfx942["k_32768_256"]  # 160 KiB of LDS on CDNA 4 holds more workgroups


_MFMA = """#include <hip/hip_runtime.h>
typedef float float16v __attribute__((ext_vector_type(16)));
typedef short short4v __attribute__((ext_vector_type(4)));
__global__ void __launch_bounds__(64) mfma_bf16(const short4v* a, const short4v* b, float16v* c) {
    float16v acc = {0};
    for (int k = 0; k < 8; ++k)
        acc = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a[k * 64 + threadIdx.x], b[k * 64 + threadIdx.x], acc, 0, 0, 0);
    c[threadIdx.x] = acc;
}
__global__ void copy4(const float4* in, float4* out) {
    __shared__ float4 tile[256];
    tile[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}
"""


@needs_clang22
@pytest.mark.parametrize("gfx", ["gfx942", "gfx950"])
def test_api_reports_mfma_and_load_widths(gfx):
    rep = compile_hip(_MFMA, gfx)
    assert rep.ok and rep.toolchain == "clang22" and rep.target == gfx
    m = rep.kernel("mfma_bf16")
    assert sum(m.mfma.values()) >= 8 and all(x.startswith("v_mfma_f32_32x32x8") for x in m.mfma)
    assert m.classes["mfma"] == sum(m.mfma.values()) and m.agprs + m.vgprs > 16
    c = rep.kernel("copy4")
    assert c.memory["global_load"] == {128: 1} and c.memory["global_store"] == {128: 1}
    assert c.mnemonics["global_load_dwordx4"] == 1 and c.memory["lds_load"] == {128: 1}
    assert c.lds_bytes == 4096 and c.occupancy == c.compiler_occupancy
    d = rep.to_dict()
    assert json.loads(json.dumps(d))["kernels"][1]["memory"]["global_load"] == {"128": 1}


def test_width_bits():
    assert [width_bits(m) for m in ("global_load_dwordx4", "ds_read_b128", "ds_read2_b64", "global_load_b96",
                                    "buffer_store_short", "ds_write_b32", "global_load_ubyte", "v_add_f32")] == \
        [128, 128, 128, 96, 16, 32, 8, 0]


@needs_clang22
def test_wave64_on_rdna_and_its_register_budget():
    r32 = compile_code(examples.source("register_heavy"), "gfx1201", 32, compiler="clang22")
    r64 = compile_code(examples.source("register_heavy"), "gfx1201", 64, compiler="clang22")
    assert r32.wave == 32 and r64.wave == 64 and r32.kernels[0].wave == 32 and r64.kernels[0].wave == 64
    for r in (r32, r64):
        k = r.kernels[0]
        assert k.occupancy["waves_per_simd"] == k.compiler_occupancy


# --- one story with hipify's lint, the course and both compilers (data/compile_cases.csv) -----------------

def _cases() -> list[dict[str, str]]:
    with (ROOT / "data" / "compile_cases.csv").open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _said(r, line: int) -> str:
    for d in r.diagnostics:
        if d.line == line and d.explain:
            return f"{d.severity}:{d.explain}"
    return "ok" if r.ok else "error:other"


@needs_clang22
@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["case"])
def test_cases_agree_with_clang22(case):
    code = examples.source(case["lab_example"])
    for t in ("gfx942", "gfx1201"):
        r = compile_code(code, t, compiler="clang22")
        assert _said(r, int(case["line"])) == case[f"clang22_{t}"], (t, [(d.line, d.message) for d in r.diagnostics])


@needs_hipcc
@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["case"])
def test_cases_agree_with_hipcc_5_2(case):
    code = examples.source(case["lab_example"])
    for t in ("gfx90a", "gfx1100"):
        r = compile_code(code, t, compiler="hipcc")
        assert _said(r, int(case["line"])) == case[f"hipcc_5_2_{t}"], t


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["case"])
def test_cases_agree_with_hipify_lint(case):
    from rocm_bridge.hipify.lint import lint
    found = {(f.rule, f.line) for f in lint(examples.source(case["lab_example"]))}
    if case["lint_rule"]:
        assert (case["lint_rule"], int(case["lint_line"])) in found
    assert (ROOT / "content" / "en" / f"{case['chapter']}.md").is_file()
    from rocm_bridge.i18n import t
    assert t(f"compile.cases.r7.{case['case']}", "zh") and t(f"compile.cases.r7.{case['case']}", "en")


# --- CLI ---------------------------------------------------------------------------------------------------

@needs_clang22
def test_cli_json_for_gfx942(tmp_path):
    src = tmp_path / "k.hip"
    src.write_text(_MFMA)
    out = subprocess.run([sys.executable, "-m", "rocm_bridge", "compile", str(src), "--offload-arch", "gfx942",
                          "--json"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert d["toolchain"] == "clang22" and d["compiler"].startswith("clang 22.")
    k = {x["display"]: x for x in d["kernels"]}
    assert k["mfma_bf16"]["occupancy"]["waves_per_simd"] == k["mfma_bf16"]["compiler_occupancy"]
    assert any(m.startswith("v_mfma_") for m in k["mfma_bf16"]["mfma"])
    assert k["copy4"]["memory"]["global_load"] == {"128": 1}
