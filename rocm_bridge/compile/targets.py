"""The per-target table (data/amdgpu_targets.csv): products, wave sizes and the register / LDS budgets the
occupancy formula needs. Which of these targets the installed compiler supports is asked of the compiler
(rocm_bridge.compile.toolchain.supported_targets).

Two occupancy models live in the table: the base columns are the one clang 15 (ROCm 5.2's hipcc) uses, the
`llvm22_*` columns the one of clang 22 (the current LLVM from PyPI's ziglang wheel), which counts RDNA 3 / 4's
1.5x register file and 128 KiB of LDS per WGP. `target(name, compiler)` gives the view a compiler uses."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from rocm_bridge.data import read_csv

TABLE = "amdgpu_targets.csv"


@dataclass(frozen=True)
class Target:
    name: str
    products: str
    architecture: str
    wave_sizes: tuple[int, ...]
    default_wave: int
    simds_per_cu: int
    max_waves_per_simd: int
    vgprs: dict[int, int]  # wave size -> VGPRs per lane one SIMD can hand out
    vgpr_granule: dict[int, int]  # wave size -> allocation granule
    agprs: int  # 0: none; == vgprs[64]: unified file (gfx90a); else a separate file (gfx908)
    sgprs_limit_occupancy: bool
    lds_per_cu_bytes: int
    lds_per_workgroup_bytes: int
    max_workgroup_size: int
    vgpr_file_kib_docs: str  # the ROCm docs figure (per CU on CDNA, per WGP on RDNA)
    lds_kib_docs: int
    source: str
    notes: str
    barriers_per_cu: int = 16  # workgroups of more than one wave a CU (WGP) can hold (LLVM getMaxWorkGroupsPerCU)
    model: str = "clang15"  # which compiler's occupancy model these budgets are ("clang15" | "clang22")
    llvm22: dict | None = None  # the clang 22 budgets (None: clang 22 row missing)

    @property
    def unified_agprs(self) -> bool:
        return self.agprs > 0 and self.agprs == self.vgprs.get(64)

    @property
    def clang15_known(self) -> bool:
        """Whether ROCm 5.2's clang 15 knows this target (the table's note says when it does not)."""
        return not self.notes.startswith("clang 15 (ROCm 5.2) does not know")

    def for_compiler(self, compiler: str) -> Target:
        """The budgets the given compiler's occupancy model uses ("hipcc"/"clang15" or "clang22")."""
        if compiler not in ("clang22",) or not self.llvm22 or self.model == "clang22":
            return self
        return replace(self, model="clang22", **self.llvm22)

    def wave(self, wave: int | None) -> int:
        """The wave size to use: the requested one if this target has it, else the default."""
        return wave if wave in self.wave_sizes else self.default_wave


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(";") if x)


def _by_wave(row: dict[str, str], stem: str) -> dict[int, int]:
    return {w: int(row[f"{stem}_wave{w}"]) for w in (64, 32) if row.get(f"{stem}_wave{w}")}


@cache
def targets() -> dict[str, Target]:
    out = {}
    for row in read_csv(TABLE):
        out[row["target"]] = Target(
            name=row["target"], products=row["products"], architecture=row["architecture"],
            wave_sizes=_ints(row["wave_sizes"]), default_wave=int(row["default_wave"]),
            simds_per_cu=int(row["simds_per_cu"]), max_waves_per_simd=int(row["max_waves_per_simd"]),
            vgprs=_by_wave(row, "vgprs"), vgpr_granule=_by_wave(row, "vgpr_granule"), agprs=int(row["agprs"]),
            sgprs_limit_occupancy=row["sgprs_limit_occupancy"] == "yes",
            lds_per_cu_bytes=int(row["lds_per_cu_bytes"]), lds_per_workgroup_bytes=int(row["lds_per_workgroup_bytes"]),
            max_workgroup_size=int(row["max_workgroup_size"]), vgpr_file_kib_docs=row["vgpr_file_kib_docs"],
            lds_kib_docs=int(row["lds_kib_docs"]),
            source=row["source"], notes=row["notes"], barriers_per_cu=int(row.get("barriers_per_cu") or 16),
            llvm22=_llvm22(row))
    return out


def _llvm22(row: dict[str, str]) -> dict | None:
    if not row.get("llvm22_vgprs_wave64"):
        return None
    return {"vgprs": _by_wave(row, "llvm22_vgprs"), "vgpr_granule": _by_wave(row, "llvm22_granule"),
            "lds_per_cu_bytes": int(row["llvm22_lds_occupancy_bytes"]),
            "lds_per_workgroup_bytes": int(row["llvm22_lds_per_workgroup_bytes"]), "source": row["llvm22_source"]}


def target(name: str, compiler: str = "clang15") -> Target:
    try:
        return targets()[name].for_compiler(compiler)
    except KeyError:
        from rocm_bridge.compile.errors import UnknownTarget
        raise UnknownTarget(target=name[:40], known=", ".join(targets())) from None
