"""Occupancy (waves per SIMD) of a kernel from its resource use and the per-target table.

This follows the model clang 15 uses for its own `Occupancy [waves/SIMD]` remark (LLVM 15's
GCNSubtarget::computeOccupancy), so the two agree (tests/test_compile_occupancy.py checks it on real compiler
output):

- waves: the target's limit per SIMD (8 on gfx90a, 10 on gfx908, 16 on gfx10.3 / gfx11);
- VGPRs: registers are handed out in granules; waves = VGPR budget per lane // rounded use. On gfx90a VGPRs and
  AGPRs share one file (AGPRs start at the next multiple of 4), on gfx908 they are separate files (max of the two);
- SGPRs (GCN / CDNA only): <= 80 -> 10, <= 88 -> 9, <= 100 -> 8, else 7 waves;
- LDS: how many workgroups fit in the CU's LDS, capped by the workgroup slots (40 waves, at most 16 groups),
  times the waves of one workgroup. LLVM 15 compares that per-CU wave count with the per-SIMD limit without
  spreading it over the SIMDs (its own FIXME); later LLVM divides by the SIMDs per CU. `spread_lds=True` gives
  that hardware-style estimate.

For clang 22 (`target(name, "clang22")`, the current LLVM) the LDS limit follows LLVM 22's
AMDGPUSubtarget::getOccupancyWithWorkGroupSizes: workgroups per CU are limited by LDS and by the barrier slots
(16, or 32 per WGP on RDNA), the waves of the largest and smallest allowed workgroup size are compared, and the
per-CU waves are spread over the SIMDs (rounded up). RDNA counts 128 KiB of LDS per WGP there. Checked against
the compiler's own `; Occupancy` figure on every example (tests/test_compile_clang22.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from rocm_bridge.compile.targets import Target

LIMITS = ("waves", "vgprs", "sgprs", "lds")


def _align(n: int, granule: int) -> int:
    return -(-n // granule) * granule


@dataclass(frozen=True)
class Occupancy:
    waves_per_simd: int
    by_limit: dict[str, int]  # limit -> waves per SIMD it alone allows
    binding: tuple[str, ...]  # the limits that give the minimum ("waves" when nothing else binds)
    vgprs_allocated: int  # registers per lane the hardware reserves for one wave

    def to_dict(self) -> dict[str, object]:
        return {"waves_per_simd": self.waves_per_simd, "by_limit": dict(self.by_limit),
                "binding": list(self.binding), "vgprs_allocated": self.vgprs_allocated}


def vgprs_for_occupancy(t: Target, vgprs: int, agprs: int = 0) -> int:
    """Registers per lane that count against the VGPR budget (unified file on gfx90a / gfx940)."""
    if t.unified_agprs and agprs:
        return _align(vgprs, 4) + agprs
    return max(vgprs, agprs)


def waves_by_vgprs(t: Target, wave: int, vgprs: int, agprs: int = 0) -> tuple[int, int]:
    """(waves per SIMD the VGPRs allow, registers allocated per lane)."""
    wave = t.wave(wave)
    granule, budget = t.vgpr_granule[wave], t.vgprs[wave]
    used = vgprs_for_occupancy(t, vgprs, agprs)
    allocated = _align(max(used, 1), granule)
    if used < granule:
        return t.max_waves_per_simd, allocated
    return min(max(budget // allocated, 1), t.max_waves_per_simd), allocated


def waves_by_sgprs(t: Target, sgprs: int) -> int:
    if not t.sgprs_limit_occupancy or sgprs <= 0:
        return t.max_waves_per_simd
    for limit, waves in ((80, 10), (88, 9), (100, 8)):
        if sgprs <= limit:
            return min(waves, t.max_waves_per_simd)
    return min(7, t.max_waves_per_simd)


def workgroups_per_cu_slots(waves_per_group: int) -> int:
    """Workgroup slots of a CU (LLVM 15 getMaxWorkGroupsPerCU): 40 waves, at most 16 groups of >1 wave."""
    if waves_per_group == 1:
        return 40
    return min(40 // waves_per_group, 16)


def _llvm22_waves_by_lds(t: Target, wave: int, lds_bytes: int, block_size: int, min_block: int = 1) -> int:
    groups_lds = t.lds_per_cu_bytes // max(lds_bytes, 1)
    if groups_lds == 0:
        return 1
    slots = t.max_waves_per_simd * t.simds_per_cu

    def props(size: int) -> tuple[int, int, int]:
        per_group = -(-size // wave)
        groups = min(slots if per_group == 1 else min(slots // per_group, t.barriers_per_cu), groups_lds)
        return per_group, groups, per_group * groups

    min_per_wg, max_wgs, max_waves = props(min_block)
    max_per_wg, min_wgs, min_waves = props(block_size)
    if min_waves >= max_waves:
        min_waves, max_waves = max_waves, min_waves
    else:
        leftover = slots - max_wgs * min_per_wg
        if leftover // max_wgs:
            max_waves += max_wgs * min(leftover // max_wgs, max_per_wg - min_per_wg)
    return min(max(-(-max_waves // t.simds_per_cu), 1), t.max_waves_per_simd)


def waves_by_lds(t: Target, wave: int, lds_bytes: int, block_size: int, spread_lds: bool = False) -> int:
    wave = t.wave(wave)
    if t.model == "clang22":
        return _llvm22_waves_by_lds(t, wave, lds_bytes, block_size)
    groups = t.lds_per_cu_bytes // (lds_bytes or 1)
    if groups == 0:
        return 1
    waves_per_group = -(-block_size // wave)
    slots = workgroups_per_cu_slots(waves_per_group)
    if slots == 0:
        return 0
    waves = min(groups, slots) * waves_per_group
    if spread_lds:
        waves = -(-waves // t.simds_per_cu)
    return min(waves, t.max_waves_per_simd)


def occupancy(t: Target, *, vgprs: int, sgprs: int = 0, agprs: int = 0, lds_bytes: int = 0,
              block_size: int = 1024, wave: int | None = None, spread_lds: bool = False) -> Occupancy:
    """Waves per SIMD and which limit binds.

    `block_size` is the largest workgroup the kernel may be launched with: its __launch_bounds__, else 1024
    (what the compiler assumes without one).

    >>> from rocm_bridge.compile.targets import target
    >>> occupancy(target("gfx90a"), vgprs=67, sgprs=6, block_size=256).waves_per_simd
    7
    >>> occupancy(target("gfx90a"), vgprs=8, lds_bytes=32768, block_size=64).binding
    ('lds',)
    """
    wave = t.wave(wave)
    by_vgprs, allocated = waves_by_vgprs(t, wave, vgprs, agprs)
    by_limit = {
        "waves": t.max_waves_per_simd,
        "vgprs": by_vgprs,
        "sgprs": waves_by_sgprs(t, sgprs),
        "lds": waves_by_lds(t, wave, lds_bytes, block_size, spread_lds),
    }
    best = min(by_limit.values())
    binding = tuple(k for k in LIMITS[1:] if by_limit[k] == best and best < t.max_waves_per_simd) or ("waves",)
    return Occupancy(best, by_limit, binding, allocated)
