"""One kernel, optimised step by step (issue 25, item 7): a float32 matrix transpose in six steps.

The table STEPS drives everything: the chapter widget (rocm_bridge.ui.walkthrough_view), the handout, the CLI
(`python -m rocm_bridge walkthrough`), the recording tool (tools/record_walkthrough.py) and the tests. Each step
is a HIP file in rocm_bridge/kernels/transpose/; its CUDA twin is the same file with the CUDA header instead of
HIP's (the kernel language is the same in both: `__global__`, `__shared__`, `threadIdx`, `__syncthreads`,
`float4`), made by cuda_source(). Recorded results live in data/kernel_walkthrough/ (rocm_bridge.kernels.recorded).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

SOURCE_DIR = Path(__file__).resolve().parent / "transpose"
HIP_INCLUDE = "#include <hip/hip_runtime.h>"
CUDA_INCLUDE = "#include <cuda_runtime.h>"
ELEMENT_BYTES = 4  # float32
TILE = 32  # every kernel needs rows and cols to be multiples of this


@dataclass(frozen=True)
class Step:
    """One version of the kernel. grid: per axis, what the launch divides ("rows", "cols", "elements" = the
    number of floats, or "one") and by how much; block: threads per block (x, y)."""

    id: str
    number: int  # 1..6; 0 for the reference copy, which is not a step
    file: str
    kernel: str
    block: tuple[int, int]
    grid: tuple[tuple[str, int], tuple[str, int]]
    per_thread: int  # floats each thread moves
    transposes: bool = True

    @property
    def threads(self) -> int:
        return self.block[0] * self.block[1]

    def grid_dims(self, rows: int, cols: int) -> tuple[int, int]:
        size = {"rows": rows, "cols": cols, "elements": rows * cols, "one": 1}
        return tuple(size[axis] // div for axis, div in self.grid)  # type: ignore[return-value]

    def hip_source(self) -> str:
        return hip_source(self)

    def cuda_source(self) -> str:
        return cuda_source(self)


STEPS: tuple[Step, ...] = (
    Step("naive", 1, "step1_naive.hip", "transpose", (32, 8), (("cols", 32), ("rows", 8)), 1),
    Step("write_coalesced", 2, "step2_write_coalesced.hip", "transpose", (32, 8),
         (("rows", 32), ("cols", 8)), 1),
    Step("lds_tile", 3, "step3_lds_tile.hip", "transpose", (32, 32), (("cols", 32), ("rows", 32)), 1),
    Step("lds_padded", 4, "step4_lds_padded.hip", "transpose", (32, 32), (("cols", 32), ("rows", 32)), 1),
    Step("four_per_thread", 5, "step5_four_per_thread.hip", "transpose", (32, 8),
         (("cols", 32), ("rows", 32)), 4),
    Step("float4", 6, "step6_float4.hip", "transpose", (8, 32), (("cols", 32), ("rows", 32)), 4),
)
# The ceiling a transpose can approach: the same bytes copied with 16-byte accesses on both sides.
REFERENCE = Step("copy", 0, "copy_float4.hip", "copy_float4", (256, 1), (("elements", 1024), ("one", 1)), 4,
                 transposes=False)
ALL: tuple[Step, ...] = (*STEPS, REFERENCE)


def step(step_id: str) -> Step:
    for s in ALL:
        if s.id == step_id:
            return s
    raise KeyError(step_id)


def ids() -> tuple[str, ...]:
    return tuple(s.id for s in STEPS)


def previous(s: Step) -> Step | None:
    """The step before `s` (None for the first step and for the reference)."""
    return STEPS[s.number - 2] if s.number > 1 else None


@cache
def hip_source(s: Step) -> str:
    return (SOURCE_DIR / s.file).read_text(encoding="utf-8")


def cuda_source(s: Step) -> str:
    """The CUDA twin: HIP's header swapped for CUDA's; not one other character changes."""
    src = hip_source(s)
    if HIP_INCLUDE not in src:  # every step file starts with it (tests/test_walkthrough.py)
        raise ValueError(f"{s.file} does not include {HIP_INCLUDE}")
    return src.replace(HIP_INCLUDE, CUDA_INCLUDE, 1)


def cuda_name(s: Step) -> str:
    return s.file.removesuffix(".hip") + ".cu"


def diff(s: Step) -> str:
    """The unified diff of the HIP source from the previous step ("" for step 1 and the reference)."""
    before = previous(s)
    if before is None:
        return ""
    return "".join(difflib.unified_diff(hip_source(before).splitlines(keepends=True),
                                        hip_source(s).splitlines(keepends=True), before.file, s.file, n=2))


def bytes_moved(rows: int, cols: int) -> int:
    """The fewest bytes a transpose (or copy) moves through device memory: each float read once, written once."""
    return 2 * rows * cols * ELEMENT_BYTES


def bandwidth_gbs(rows: int, cols: int, time_ms: float) -> float:
    """Effective bandwidth in GB/s (10^9 bytes per second) for one run of `time_ms`.

    >>> round(bandwidth_gbs(8192, 8192, 0.2), 1)
    2684.4
    """
    return bytes_moved(rows, cols) / (time_ms * 1e-3) / 1e9
