"""The NVIDIA twin: the CUDA original through the real nvcc (sm_90) beside the HIP translation through clang 22
(gfx942), one row per kernel; and the occupancy models of both vendors."""

from __future__ import annotations

import os

import pytest

from rocm_bridge.compile import clang22, nvidia
from rocm_bridge.compile.twin import twin

CI = os.environ.get("CI") == "true"  # CI installs every part: a missing one fails there, never skips

needs_both = pytest.mark.skipif((nvidia.nvcc() is None or not clang22.available()) and not CI,
                                reason="nvcc or clang 22 missing (.ci/run and requirements.txt install them)")


@needs_both
def test_tiled_gemm_twin_has_both_vendors_in_one_row():
    t = twin("tiled_gemm")
    assert t.amd_ok and t.nv_ok and t.nv_compiler.startswith("nvcc ") and t.amd_compiler.startswith("clang 22")
    row = next(r for r in t.rows if r.kernel == "matmul_tiled")
    # the same 16x16 float tiles on both sides: 2 x 16 x 16 x 4 bytes of shared memory / LDS
    assert row.amd["lds_bytes"] == row.nv["shared_bytes"] == 2 * 16 * 16 * 4
    assert row.amd["vgprs"] > 0 and row.nv["regs"] > 0 and row.amd["lds"] > 0 and row.nv["lds"] > 0
    assert row.amd["barrier"] >= 1 and row.nv["barrier"] >= 1
    assert row.amd["occupancy_max"] == 8 and row.nv["occupancy_max"] == 64


@needs_both
def test_warp_reduce_compiles_for_nvidia_but_not_with_hip_5_2_headers():
    t = twin("warp_reduce")
    assert t.nv_ok and not t.amd_ok and any("__shfl_down_sync" in e for e in t.amd_errors)
    assert t.rows and t.rows[0].nv["cross_lane"] > 0 and not t.rows[0].amd


def test_nvidia_occupancy_limits():
    sm90 = nvidia.nv_target("sm_90")
    # registers: 128 per thread -> 4096 per warp -> 4 warps per sub-partition -> 16 warps -> 2 blocks of 256
    occ = nvidia.nv_occupancy(sm90, regs=128, smem_bytes=0, block_threads=256)
    assert occ.warps_per_sm == 16 and occ.binding == ("regs",)
    # shared memory: 100 KiB + 1 KiB reserved per block -> 2 blocks of 4 warps
    occ = nvidia.nv_occupancy(sm90, regs=32, smem_bytes=100 * 1024, block_threads=128)
    assert occ.blocks_per_sm == 2 and occ.binding == ("smem",)
    occ = nvidia.nv_occupancy(sm90, regs=16, smem_bytes=0, block_threads=32)
    assert occ.warps_per_sm == 32 and occ.binding == ("blocks",)  # 32 block slots of one warp each


def test_ptxas_and_sass_parsing():
    text = ("ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
            "ptxas info    : Function properties for _Z1kPf\n"
            "    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
            "ptxas info    : Used 40 registers, used 1 barriers, 4096 bytes smem\n")
    assert nvidia.parse_ptxas(text) == {"_Z1kPf": {"regs": 40, "smem": 4096, "frame": 8, "spills": 8}}
    sass = ("        .text._Z1kPf:\n        /*0000*/                   LDG.E R2, desc[UR4][R2.64] ;\n"
            "        /*0010*/                   HGMMA.64x128x16.F32.BF16 R24, gdesc[UR8], R24 ;\n"
            "        /*0020*/                   STS [R0], R2 ;\n")
    code = nvidia.classify(nvidia.split_sass(sass)["_Z1kPf"], "sass")
    assert code.classes == {"global": 1, "mma": 1, "shared": 1} and code.mma == {"HGMMA.64x128x16": 1}


@needs_both
def test_nvcc_timeout_is_remembered(monkeypatch):
    from rocm_bridge.compile import sandbox
    from rocm_bridge.compile.errors import CompileTimedOut, CompileTimedOutBefore
    from rocm_bridge.compile.twin import cuda_source
    code = cuda_source("vector_add") + "\n// timeout test\n"
    monkeypatch.setattr(sandbox, "WALL_S", 0.05)
    with pytest.raises(CompileTimedOut):
        nvidia.compile_cuda(code, "sm_90")
    monkeypatch.setattr(sandbox, "WALL_S", 60.0)
    with pytest.raises(CompileTimedOutBefore):
        nvidia.compile_cuda(code, "sm_90")
