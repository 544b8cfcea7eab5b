"""The compile result of each step for an AMD target: memory instruction classes, registers, LDS, occupancy.

Both through the compile lab's engine (rocm_bridge.compile), on a machine without a GPU:
- gfx942 (MI300X / MI300A): its clang 22 (PyPI's `ziglang` wheel with Debian's ROCm 5.2 HIP headers and device
  libraries, rocm_bridge.compile.clang22); clang 15 / hipcc 5.2 do not know gfx942;
- gfx90a (MI200): ROCm 5.2's hipcc.
tools/record_walkthrough.py writes the results to data/kernel_walkthrough/compile_<target>.json; the widget shows
those, labelled with compiler and date, and recompiles through rocm_bridge.kernels.live where a compiler is here.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path

from rocm_bridge import kernels

CLANG15_RESOURCE = Path("/usr/lib/llvm-15/lib/clang")
MEMORY = re.compile(r"^(?:(?:global|buffer|flat)_(?:load|store)\w*|ds_(?:read|write)\w*|s_barrier)$")
TIMEOUT_S = 120


@dataclass
class StepCompile:
    """One step's kernel as one compiler built it for one target."""

    step: str
    vgprs: int
    sgprs: int
    agprs: int
    lds_bytes: int
    scratch_bytes: int
    wave: int
    max_block: int
    occupancy: int | None  # waves per SIMD, the compiler's own figure (-Rpass-analysis=kernel-resource-usage)
    memory: dict[str, int] = field(default_factory=dict)  # mnemonic -> count, global / LDS / barrier only
    isa: str = ""

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> StepCompile:
        return cls(**d)

    def global_classes(self) -> list[str]:
        return sorted(m for m in self.memory if not m.startswith(("ds_", "s_")))

    def lds_classes(self) -> list[str]:
        return sorted(m for m in self.memory if m.startswith("ds_"))


def memory_classes(isa_lines: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for line in isa_lines:
        parts = line.split(None, 1)
        if parts and MEMORY.match(parts[0]):
            out[parts[0]] = out.get(parts[0], 0) + 1
    return dict(sorted(out.items()))


def from_asm(step_id: str, asm: str, remarks: str) -> StepCompile:
    """Parse one step's assembly and resource remarks (rocm_bridge.compile's parsers) into a StepCompile."""
    from rocm_bridge.compile import isa, resources

    ks = resources.kernels(asm, remarks)
    if len(ks) != 1:
        raise ValueError(f"{step_id}: expected one kernel, found {len(ks)}")
    k = ks[0]
    listing = isa.split_kernels(asm, [k.name])[0]
    return StepCompile(step_id, k.vgprs, k.sgprs, k.agprs, k.lds_bytes, k.scratch_bytes, k.wave, k.max_block,
                       k.compiler_occupancy, memory_classes([ln.text for ln in listing.lines]), listing.text())


# ---- through the compile lab's engine: clang 22 for gfx942, hipcc 5.2 for the targets clang 15 knows ---------------

def compiler_for(target: str) -> str:
    """The compile lab's compiler for a walkthrough target: clang 22 for gfx942 (clang 15 does not know it)."""
    return "clang22" if target == "gfx942" else "hipcc"


def compile_step(s: kernels.Step, target: str = "gfx942") -> StepCompile:
    """One step through the compile lab's engine (its toolchains, parsers and line), unsandboxed allowed: a
    recording tool's or a test's run. Raises the lab's errors (CompilerMissing, ...) or RuntimeError."""
    from rocm_bridge.compile import engine

    result = engine.compile_code(kernels.hip_source(s), target, compiler=compiler_for(target),
                                 allow_unsandboxed=True)
    if not result.ok or not result.kernels:
        raise RuntimeError(f"{s.file}: {compiler_for(target)} failed for {target}: "
                           f"{[d.message for d in result.diagnostics]}")
    return from_result(s.id, result)


def compiler_version(target: str) -> str:
    """The compiler a target's results come from, as the recorded files name it ('' if it is not here)."""
    from rocm_bridge.compile import clang22, toolchain

    if compiler_for(target) == "clang22":
        v = clang22.version()
        return f"{v} with ROCm 5.2 HIP headers" if v else ""
    return f"hipcc {toolchain.version()}" if shutil.which("hipcc") or toolchain.hipcc() else ""


def from_result(step_id: str, result: object) -> StepCompile:
    """A rocm_bridge.compile.engine.CompileResult of one step as a StepCompile."""
    k = result.kernels[0]  # type: ignore[attr-defined]
    listing = result.kernel_asm()[0]  # type: ignore[attr-defined]
    return StepCompile(step_id, k.vgprs, k.sgprs, k.agprs, k.lds_bytes, k.scratch_bytes, k.wave, k.max_block,
                       k.compiler_occupancy, memory_classes([ln.text for ln in listing.lines]), listing.text())


def record(target: str) -> dict[str, object]:
    """Every step and the reference compiled for `target` now, in the recorded-file form."""
    return {"target": target, "compiler": compiler_version(target), "recorded": str(date.today()),
            "steps": {s.id: compile_step(s, target).to_dict() for s in kernels.ALL}}
