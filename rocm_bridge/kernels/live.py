"""Recompile a walkthrough step on this machine through the compile lab's own API (rocm_bridge.compile), where it
can build for the target: the widget's "live" path. A small adapter on purpose: on this branch the compile lab
drives ROCm 5.2's hipcc (gfx90a and the other targets clang 15 knows, not gfx942); once it has clang 22
(rocm_bridge.compile.clang22, the compile helper's branch), supports("gfx942") turns true and the widget
recompiles gfx942 here through compile_code's own compiler choice, with no change on this side.

A live result is labelled live; the recorded one (rocm_bridge.kernels.recorded) keeps its compiler and date.
"""

from __future__ import annotations

from dataclasses import dataclass

from rocm_bridge import kernels
from rocm_bridge.kernels.compile import StepCompile, from_result


@dataclass(frozen=True)
class LiveCompile:
    result: StepCompile
    compiler: str
    seconds: float


def supports(target: str) -> bool:
    """True when rocm_bridge.compile is switched on here and one of its compilers builds `target`: hipcc 5.2
    (its toolchain), or clang 22 where the lab has it (rocm_bridge.compile.clang22, feature-detected)."""
    try:
        from rocm_bridge.compile import targets, toolchain
    except ImportError:  # a deployment without the compile lab
        return False
    try:
        if not toolchain.enabled() or target not in targets.targets():
            return False
        if target in toolchain.supported_targets():
            return True
        try:
            from rocm_bridge.compile import clang22
        except ImportError:  # a compile lab without clang 22
            return False
        return clang22.available() and target in clang22.supported_targets()
    except (OSError, ValueError):
        return False


def compile_step(s: kernels.Step, target: str) -> LiveCompile:
    """Compile one step here through rocm_bridge.compile.engine.compile_code (its sandbox, limits and lock).
    Raises the compile lab's own errors (CompilerMissing, CompileBusy, NoSandbox, ...), each with a catalog
    message, and RuntimeError if the step does not compile."""
    from rocm_bridge.compile import engine

    result = engine.compile_code(kernels.hip_source(s), target)
    if not result.ok or not result.kernels:
        raise RuntimeError(f"{s.file} did not compile for {target}")
    return LiveCompile(from_result(s.id, result), result.compiler, result.seconds)
