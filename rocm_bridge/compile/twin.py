"""The NVIDIA twin: one example, the CUDA original through nvcc for sm_90 beside its HIP translation through
clang 22 for gfx942, in one table (registers, shared memory / LDS, instruction classes, occupancy per vendor).

Occupancy is computed for the same block size on both sides: the kernel's __launch_bounds__ if it has one, else
`block` (256 by default, what the examples launch with): waves per SIMD of 8 on gfx942 (a CU has 4 SIMDs: 32
waves of 64 lanes), warps per SM of 64 on sm_90 (32 lanes each).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rocm_bridge.compile.nvidia import NvResult, compile_cuda, nv_occupancy, nv_target

AMD, NV = "gfx942", "sm_90"
CLASS_MAP = (("global", "global", "global"), ("lds", "lds", "shared"), ("matrix", "mfma", "mma"),
             ("barrier", "barrier", "barrier"), ("cross_lane", "cross_lane", "cross_lane"))


@dataclass
class TwinRow:
    kernel: str
    block: int
    amd: dict[str, object] = field(default_factory=dict)
    nv: dict[str, object] = field(default_factory=dict)


@dataclass
class Twin:
    example: str
    amd_compiler: str
    nv_compiler: str
    rows: list[TwinRow]
    amd_ok: bool
    nv_ok: bool
    nv_messages: str = ""
    amd_errors: list[str] = field(default_factory=list)


def cuda_source(example: str) -> str:
    from rocm_bridge.hipify.page_model import example_source
    return example_source(example[len("hipify_"):] if example.startswith("hipify_") else example)


def twin(example: str, block: int = 256, *, session: str | None = None) -> Twin:
    """example: a hipify example key ("tiled_gemm" or "hipify_tiled_gemm")."""
    from rocm_bridge.compile import examples
    from rocm_bridge.compile.engine import compile_code
    from rocm_bridge.compile.occupancy import occupancy
    from rocm_bridge.compile.targets import target
    key = example if example.startswith("hipify_") else f"hipify_{example}"
    hip = compile_code(examples.source(key), AMD, compiler="clang22", session=session, allow_unsandboxed=True)
    nvr: NvResult = compile_cuda(cuda_source(key), NV, session=session, allow_unsandboxed=True)
    amd_t, nv_t = target(AMD, "clang22"), nv_target(NV)
    amd_by = {k.display: (k, a) for k in hip.kernels for a in hip.kernel_asm() if a.name == k.name}
    rows = []
    for nk in nvr.kernels:
        hk, asm = amd_by.get(nk.display, (None, None))
        b = min(hk.max_block, block) if hk and hk.max_block < 1024 else block
        row = TwinRow(nk.display, b)
        occ_nv = nv_occupancy(nv_t, regs=nk.regs, smem_bytes=nk.smem_bytes, block_threads=b)
        row.nv = {"regs": nk.regs, "shared_bytes": nk.smem_bytes, "spill_bytes": nk.spill_bytes,
                  "occupancy": occ_nv.warps_per_sm, "occupancy_max": nv_t.max_warps_per_sm,
                  "occupancy_pct": round(100 * occ_nv.warps_per_sm / nv_t.max_warps_per_sm),
                  "binding": list(occ_nv.binding), **{c: nk.classes.get(n, 0) for c, _, n in CLASS_MAP}}
        if hk is not None:
            occ = occupancy(amd_t, vgprs=hk.vgprs, agprs=hk.agprs, sgprs=hk.sgprs, lds_bytes=hk.lds_bytes,
                            block_size=b, wave=hk.wave)
            counts = asm.counts() if asm else {}
            row.amd = {"vgprs": hk.vgprs, "agprs": hk.agprs, "sgprs": hk.sgprs, "lds_bytes": hk.lds_bytes,
                       "spill_bytes": hk.scratch_bytes, "occupancy": occ.waves_per_simd,
                       "occupancy_max": amd_t.max_waves_per_simd,
                       "occupancy_pct": round(100 * occ.waves_per_simd / amd_t.max_waves_per_simd),
                       "binding": list(occ.binding), **{c: counts.get(a, 0) for c, a, _ in CLASS_MAP}}
        rows.append(row)
    return Twin(key, hip.compiler, nvr.compiler, rows, hip.ok, nvr.ok, nvr.messages,
                [f"{d.line}: {d.message}" for d in hip.diagnostics if d.severity == "error"])
