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
    protocol: dict[str, int]  # warm-up launches, timed launches per round, rounds
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
                     d["protocol"], results, d["sass"])


def speedups(run: RunRecord, rows: int = SIZE[0], cols: int = SIZE[1]) -> dict[str, float]:
    """Each step's time over the previous step's (>1: the step made it faster); step 1 against itself."""
    out, before = {}, None
    for s in kernels.STEPS:
        t = run.timing(s.id, rows, cols).median_ms
        out[s.id] = (before / t) if before else 1.0
        before = t
    return out


# ---- hardware counters of the CUDA twins (ncu), where a run recorded them ----------------------------------------

@dataclass(frozen=True)
class Counters:
    """ncu's counters of one step's launch at rows x cols on the recorded GPU."""

    bank_conflicts_ld: float
    bank_conflicts_st: float
    sectors_per_request_ld: float  # 32-byte sectors per global load request: 4 when 32 lanes read 128 B in a row
    sectors_per_request_st: float
    dram_bytes: float  # read + written, as the memory controller counted them

    def dram_over_ideal(self, rows: int, cols: int) -> float:
        return self.dram_bytes / kernels.bytes_moved(rows, cols)


@dataclass(frozen=True)
class CounterRecord:
    gpu: str
    driver: str
    date: str
    ncu: str
    rows: int
    cols: int
    steps: dict[str, Counters]


@cache
def counter_record(name: str = RUNS[0]) -> CounterRecord | None:
    """None where no counters were recorded for this run."""
    path = DATA_DIR / f"ncu_{name}.json"
    if not path.exists():
        return None
    d = json.loads(path.read_text(encoding="utf-8"))
    steps = {}
    for sid, m in d["metrics"].items():
        steps[sid] = Counters(
            m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"],
            m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"],
            m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] / m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"],
            m["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] / m["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"],
            m["dram__bytes_read.sum"] + m["dram__bytes_write.sum"])
    return CounterRecord(d["gpu"], d["driver"], d["date"], d["ncu"], d["rows"], d["cols"], steps)


# ---- published figures (data/kernel_walkthrough/published.csv) -------------------------------------------------

DTYPE_BYTES = {"fp64": 8, "fp32": 4, "fp16": 2, "bf16": 2}


@dataclass(frozen=True)
class Published:
    id: str
    publisher: str
    gpu: str
    datasheet_gpu: str  # an id of rocm_bridge.hardware (data/gpu_specs.csv)
    kernel: str
    like_step: str  # a step id, or "" where no step matches
    dtype: str
    rows: int
    cols: int
    time_us: float
    software: str
    source: str
    note: str

    @property
    def gbs(self) -> float:
        """Effective bandwidth from the published time: each element read once and written once."""
        return 2 * self.rows * self.cols * DTYPE_BYTES[self.dtype] / (self.time_us * 1e-6) / 1e9

    def peak_gbs(self) -> float | None:
        from rocm_bridge import hardware

        tbs = hardware.gpu(self.datasheet_gpu).value("memory_bandwidth_tbs")
        return tbs * 1000 if tbs else None


@cache
def published() -> tuple[Published, ...]:
    from rocm_bridge.data import read_csv

    out = []
    for r in read_csv(str(Path("kernel_walkthrough") / "published.csv")):
        out.append(Published(r["id"], r["publisher"], r["gpu"], r["datasheet_gpu"], r["kernel"], r["like_step"],
                             r["dtype"], int(r["rows"]), int(r["cols"]), float(r["time_us"]), r["software"],
                             r["source"], r["note"]))
    return tuple(out)


# the datasheet row (rocm_bridge.hardware id) of each recorded run's GPU
RUN_DATASHEET = {"h100": "h100-sxm5"}  # "NVIDIA H100 80GB HBM3" (81559 MiB, HBM3): the SXM5 card
