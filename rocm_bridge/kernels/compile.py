"""The compile result of each step for an AMD target: memory instruction classes, registers, LDS, occupancy.

Two compilers, both on a machine without a GPU:
- gfx942 (MI300X / MI300A): clang 22 from PyPI's `ziglang` wheel with Debian's ROCm 5.2 HIP headers and device
  libraries (the recipe of /work/shared/compilers.md as the project's compile helper recorded it, 2026-12-06);
  clang 15 / hipcc 5.2 do not know gfx942;
- gfx90a (MI200): ROCm 5.2's hipcc through rocm_bridge.compile (the compile lab's engine).
tools/record_walkthrough.py writes the results to data/kernel_walkthrough/compile_<target>.json; the widget shows
those, labelled with compiler and date, and recompiles through rocm_bridge.kernels.live where a compiler is here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
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


# ---- gfx942 through clang 22 (ziglang) ------------------------------------------------------------------------

def ziglang_dir() -> Path | None:
    try:
        import ziglang  # noqa: PLC0415  (optional: only where the wheel is installed)
    except ImportError:
        return None
    return Path(ziglang.__file__).resolve().parent


def clang22_version() -> str | None:
    if ziglang_dir() is None:
        return None
    run = subprocess.run([sys.executable, "-m", "ziglang", "clang", "--version"], capture_output=True, text=True,
                         timeout=TIMEOUT_S)
    first = run.stdout.splitlines()[0] if run.returncode == 0 and run.stdout else ""
    return first.strip() or None


def _hip_wrappers(workdir: Path) -> Path:
    """A directory holding only clang 15's HIP / CUDA wrapper headers (zig ships clang's builtin headers but not
    these); the whole clang 15 resource directory would shadow clang 22's own stdint.h and friends."""
    found = sorted(CLANG15_RESOURCE.glob("*/include/__clang_hip_runtime_wrapper.h"))
    if not found:
        raise FileNotFoundError("clang 15's HIP wrapper headers (Debian clang-15) are not installed")
    src = found[-1].parent
    out = workdir / "hipwrap"
    out.mkdir()
    for p in [*src.glob("__clang_hip_*"), *src.glob("__clang_cuda_*"), src / "cuda_wrappers"]:
        (out / p.name).symlink_to(p)
    return out


def clang22_command(source: Path, asm: Path, wrappers: Path, devlibs: Path, zig: Path) -> list[str]:
    return [sys.executable, "-m", "ziglang", "clang", "-x", "hip", "--cuda-device-only", "-S", "-O3",
            "--offload-arch=gfx942", "-isystem", str(wrappers), "-isystem", str(zig / "lib" / "include"),
            "-I/usr/include", "-D__AMDGCN_WAVEFRONT_SIZE=64", "-mcode-object-version=5",
            f"--rocm-device-lib-path={devlibs}",
            # HIP 5.2's __syncthreads calls __atomic_work_item_fence, which lives in hip.bc; clang 22 no longer
            # links hip.bc by itself (ROCm 6 dropped it), so the kernel would call an unresolved function
            "-Xclang", "-mlink-builtin-bitcode", "-Xclang", str(devlibs / "hip.bc"),
            "-Rpass-analysis=kernel-resource-usage", "-o", str(asm), str(source)]


def compile_gfx942(s: kernels.Step) -> StepCompile:
    """One step for gfx942 with clang 22. Raises FileNotFoundError (no ziglang / headers) or RuntimeError."""
    from rocm_bridge.compile import toolchain

    zig = ziglang_dir()
    if zig is None:
        raise FileNotFoundError("ziglang is not installed (pip install ziglang)")
    devlibs = toolchain.device_lib_dir("gfx942")
    if devlibs is None:
        raise FileNotFoundError("ROCm device libraries (rocm-device-libs) are not installed")
    with tempfile.TemporaryDirectory(prefix="rb_walkthrough_") as tmp:
        work = Path(tmp)
        source, asm = work / s.file, work / "kernel.s"
        source.write_text(kernels.hip_source(s), encoding="utf-8")
        run = subprocess.run(clang22_command(source, asm, _hip_wrappers(work), devlibs, zig), capture_output=True,
                             text=True, timeout=TIMEOUT_S, env={**os.environ, "LC_ALL": "C"})
        if run.returncode != 0:
            raise RuntimeError(f"{s.file}: clang 22 failed:\n{run.stderr[-2000:]}")
        return from_asm(s.id, asm.read_text(encoding="utf-8"), run.stderr)


# ---- gfx90a (or any target hipcc 5.2 knows) through the compile lab ------------------------------------------------

def compile_hipcc(s: kernels.Step, target: str = "gfx90a") -> StepCompile:
    """One step through the compile lab's engine (hipcc 5.2), unsandboxed allowed: a recording tool's run."""
    from rocm_bridge.compile import engine

    result = engine.compile_code(kernels.hip_source(s), target, allow_unsandboxed=True)
    if not result.ok or not result.kernels:
        raise RuntimeError(f"{s.file}: hipcc failed for {target}: {[d.message for d in result.diagnostics]}")
    return from_result(s.id, result)


def from_result(step_id: str, result: object) -> StepCompile:
    """A rocm_bridge.compile.engine.CompileResult of one step as a StepCompile."""
    k = result.kernels[0]  # type: ignore[attr-defined]
    listing = result.kernel_asm()[0]  # type: ignore[attr-defined]
    return StepCompile(step_id, k.vgprs, k.sgprs, k.agprs, k.lds_bytes, k.scratch_bytes, k.wave, k.max_block,
                       k.compiler_occupancy, memory_classes([ln.text for ln in listing.lines]), listing.text())


def hipcc_version() -> str | None:
    from rocm_bridge.compile import toolchain

    return toolchain.version() if shutil.which("hipcc") or toolchain.hipcc() else None


def record(target: str) -> dict[str, object]:
    """Every step and the reference compiled for `target` now, in the recorded-file form."""
    if target == "gfx942":
        build, compiler = compile_gfx942, f"{clang22_version()} (PyPI ziglang wheel) with ROCm 5.2 HIP headers"
    else:
        build, compiler = (lambda s: compile_hipcc(s, target)), f"hipcc {hipcc_version()}"
    return {"target": target, "compiler": compiler, "recorded": str(date.today()),
            "steps": {s.id: build(s).to_dict() for s in kernels.ALL}}
