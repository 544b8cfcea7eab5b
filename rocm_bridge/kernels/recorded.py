"""The recorded results of the walkthrough (data/kernel_walkthrough/, written by tools/record_walkthrough.py):
compile results per AMD target (compile_<target>.json) and timed runs per GPU (run_<name>.json). Read-only,
cached. Every figure the widget, the handout and the CLI show comes from here or from a live compile, and says
which."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rocm_bridge import kernels
from rocm_bridge.kernels.compile import StepCompile

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "kernel_walkthrough"
TARGETS: tuple[str, ...] = ("gfx942", "gfx90a")  # the recorded AMD targets, the first is the walkthrough's own
RUNS: tuple[str, ...] = ("h100",)  # the recorded GPU runs
SIZE = (8192, 8192)  # the size the walkthrough shows; the run files also hold 16384 x 16384


@dataclass(frozen=True)
class CompileRecord:
    target: str
    compiler: str
    recorded: str  # ISO date
    steps: dict[str, StepCompile]


@dataclass(frozen=True)
class Timing:
    step: str
    rows: int
    cols: int
    median_ms: float
    min_ms: float
    round_medians_ms: tuple[float, ...]
    gbs: float
    samples: int

    @property
    def spread(self) -> float:
        """(slowest - fastest) / fastest over the rounds' medians: how far to trust a difference."""
        lo, hi = min(self.round_medians_ms), max(self.round_medians_ms)
        return (hi - lo) / lo


@dataclass(frozen=True)
class RunRecord:
    name: str
    gpu: str
    date: str  # ISO timestamp, UTC
    driver: str
    cuda_runtime: int
    nvcc: str
    sm_clock_mhz: str  # nvidia-smi after the run (the clock the kernels ran at), and its maximum
    max_sm_clock_mhz: str
    memory_clock_mhz: str
    all_correct: bool
    method: dict[str, str]
    results: tuple[Timing, ...]
    sass: dict[str, dict[str, int]]

    def timing(self, step_id: str, rows: int = SIZE[0], cols: int = SIZE[1]) -> Timing:
        for t in self.results:
            if t.step == step_id and (t.rows, t.cols) == (rows, cols):
                return t
        raise KeyError((step_id, rows, cols))

    def sizes(self) -> list[tuple[int, int]]:
        return sorted({(t.rows, t.cols) for t in self.results})


def _read(name: str) -> dict:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


@cache
def compile_record(target: str = TARGETS[0]) -> CompileRecord:
    d = _read(f"compile_{target}.json")
    return CompileRecord(d["target"], d["compiler"], d["recorded"],
                         {k: StepCompile.from_dict(v) for k, v in d["steps"].items()})


def _mhz(value: str) -> str:
    return value.replace("MHz", "").strip()


@cache
def run_record(name: str = RUNS[0]) -> RunRecord:
    d = _read(f"run_{name}.json")
    after = d.get("nvidia_smi_after") or d["nvidia_smi_before"]
    results = tuple(Timing(r["step"], r["rows"], r["cols"], r["median_ms"], r["min_ms"],
                           tuple(r["round_medians_ms"]), r["gbs"], r["samples"]) for r in d["results"])
    return RunRecord(name, d["gpu"], d["date"], d["driver"], d["cuda_runtime"], d["nvcc"],
                     _mhz(after.get("clocks.current.sm [MHz]", "")), _mhz(after.get("clocks.max.sm [MHz]", "")),
                     _mhz(after.get("clocks.current.memory [MHz]", "")), bool(d["all_correct"]), d["method"],
                     results, d["sass"])


def speedups(run: RunRecord, rows: int = SIZE[0], cols: int = SIZE[1]) -> dict[str, float]:
    """Each step's time over the previous step's (>1: the step made it faster); step 1 against itself."""
    out, before = {}, None
    for s in kernels.STEPS:
        t = run.timing(s.id, rows, cols).median_ms
        out[s.id] = (before / t) if before else 1.0
        before = t
    return out
