"""Datasheet peaks, ratios and rooflines for the GPUs in data/gpu_specs.csv, plus measured benchmarks.

Rules kept from the data README:
- an empty cell is "not published", never zero: figures are `float | None` and every computation passes
  None through;
- every tensor figure is DENSE (NVIDIA prints 2:4-sparsity values that are exactly 2x; they are not used);
- one MI250 / MI250X is two GCDs, i.e. two GPUs to software. The table's figures are per package; the
  per-GCD view divides by the number of GCDs stated in the row's notes;
- a figure the data marks DERIVED says so wherever it is shown.
Measured results (data/benchmarks_mi250_vs_a100.csv) stay apart from peaks, with who measured, when and
with what software.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache

from rocm_bridge.data import read_csv
from rocm_bridge.errors import InvalidInput

SPECS_CSV = "gpu_specs.csv"
BENCH_CSV = "benchmarks_mi250_vs_a100.csv"

# Precision -> (CSV column, unit). INT8 is integer ops, so its unit is TOPS and its roofline OP/byte.
PRECISIONS: dict[str, tuple[str, str]] = {
    "fp64": ("fp64_tflops", "TFLOP/s"),
    "fp64_matrix": ("fp64_matrix_tflops", "TFLOP/s"),
    "fp32": ("fp32_tflops", "TFLOP/s"),
    "fp32_matrix_or_tf32": ("fp32_matrix_or_tf32_tflops", "TFLOP/s"),
    "fp16": ("fp16_tflops", "TFLOP/s"),
    "bf16": ("bf16_tflops", "TFLOP/s"),
    "int8": ("int8_tops", "TOPS"),
}
MEMORY_METRICS: dict[str, tuple[str, str]] = {
    "memory_gb": ("memory_gb", "GB"),
    "memory_bandwidth_tbs": ("memory_bandwidth_tbs", "TB/s"),
}
# Figures that scale with the number of GCDs in the per-GCD view (clock, wavefront size, TDP do not).
PER_DEVICE_METRICS: tuple[str, ...] = (*PRECISIONS, *MEMORY_METRICS)
RATIO_METRICS: tuple[str, ...] = (*PRECISIONS, *MEMORY_METRICS, "tdp_w")
UNITS: dict[str, str] = {k: u for k, (_, u) in {**PRECISIONS, **MEMORY_METRICS}.items()} | {"tdp_w": "W"}

# The course compares MI250 with "the A100". All three A100 rows have the same compute peaks; the 80GB SXM4
# is the SXM module (like MI250's OAM module) with the most memory and bandwidth, so it is the default.
DEFAULT_GPUS: tuple[str, ...] = ("instinct-mi250", "a100-80gb-sxm4")

# Which HostMeasurement dtype stands for which datasheet precision.
HOST_DTYPE_TO_PRECISION: dict[str, str] = {
    "fp32": "fp32",
    "tf32": "fp32_matrix_or_tf32",
    "fp16": "fp16",
    "bf16": "bf16",
}

_ALL_PEAKS = set(PRECISIONS)
_DERIVED_TOKENS: dict[str, set[str]] = {
    "FP64": {"fp64"},
    "FP32": {"fp32"},
    "FP16": {"fp16"},
    "BF16": {"bf16"},
    "INT8": {"int8"},
    "TF32": {"fp32_matrix_or_tf32"},
    "peaks": _ALL_PEAKS,
    "FLOPS": _ALL_PEAKS,
}


def gpu_id(model: str) -> str:
    """'Instinct MI250' -> 'instinct-mi250'; 'A100 80GB SXM4' -> 'a100-80gb-sxm4'."""
    return re.sub(r"[^a-z0-9]+", "-", model.lower()).strip("-")


def parse_figure(cell: str) -> float | None:
    """A numeric cell: '' -> None (not published); '45.3' -> 45.3. Zero or negative is not a datasheet peak."""
    text = (cell or "").strip()
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    if not math.isfinite(value) or value <= 0:
        return None
    return value


def derived_metrics(notes: str) -> frozenset[str]:
    """Which figures the row's notes mark DERIVED ('BF16 DERIVED' -> bf16; 'DERIVED peaks' -> every peak)."""
    out: set[str] = set()
    for match in re.finditer(r"(\w+) DERIVED|DERIVED (\w+)", notes):
        token = match.group(1) or match.group(2)
        out |= _DERIVED_TOKENS.get(token, set())
    return frozenset(out)


def gcd_count(notes: str) -> int:
    """Number of GCDs one package shows to software, as the row's notes state it ('2 GCDs'); 1 otherwise."""
    match = re.search(r"(\d+) GCDs", notes)
    return int(match.group(1)) if match else 1


@dataclass(frozen=True)
class Gpu:
    id: str
    vendor: str
    model: str
    architecture: str
    year: str
    memory_type: str
    wavefront: str
    notes: str
    source: str
    gcds: int
    figures: dict[str, float | None]  # per package, as in the data
    derived: frozenset[str]
    raw: dict[str, str] = field(repr=False)

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(s.strip() for s in self.source.split(" | ") if s.strip())

    def value(self, metric: str, per_gcd: bool = False) -> float | None:
        """The figure for metric; with per_gcd, per-device figures of a multi-GCD package are divided by its
        GCD count (single-GCD GPUs are unchanged). None means 'not published'."""
        base = self.figures.get(metric)
        if base is None:
            return None
        if per_gcd and self.gcds > 1 and metric in PER_DEVICE_METRICS:
            return base / self.gcds
        return base

    def is_derived(self, metric: str, per_gcd: bool = False) -> bool:
        return metric in self.derived or (per_gcd and self.gcds > 1 and metric in PER_DEVICE_METRICS)


@lru_cache(maxsize=1)
def _gpus() -> dict[str, Gpu]:
    out: dict[str, Gpu] = {}
    for row in read_csv(SPECS_CSV):
        figures = {key: parse_figure(row[col]) for key, (col, _) in {**PRECISIONS, **MEMORY_METRICS}.items()}
        figures["tdp_w"] = parse_figure(row["tdp_w"])
        gid = gpu_id(row["model"])
        out[gid] = Gpu(
            id=gid,
            vendor=row["vendor"],
            model=row["model"],
            architecture=row["architecture"],
            year=row["year"],
            memory_type=row["memory_type"],
            wavefront=row["wavefront_or_warp_size"],
            notes=row["notes"],
            source=row["source"],
            gcds=gcd_count(row["notes"]),
            figures=figures,
            derived=derived_metrics(row["notes"]),
            raw=dict(row),
        )
    return out


def gpus() -> tuple[Gpu, ...]:
    return tuple(_gpus().values())


def gpu(gid: str) -> Gpu:
    try:
        return _gpus()[gid]
    except KeyError:
        raise InvalidInput("hardware.error.unknown_gpu", value=str(gid)[:80]) from None


def parse_gpu_list(text: str) -> tuple[str, ...]:
    """'instinct-mi250,a100-80gb-sxm4' from a URL -> known ids, in order, without duplicates.

    Raises InvalidInput naming the first unknown id so a bad deep link is explained, not ignored."""
    ids: list[str] = []
    for part in str(text).split(","):
        part = part.strip()
        if not part:
            continue
        gpu(part)
        if part not in ids:
            ids.append(part)
    if not ids:
        raise InvalidInput("hardware.error.no_gpu")
    return tuple(ids)


# --- ratios -----------------------------------------------------------------------------------------------


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    """numerator / denominator, or None when either is not published."""
    if numerator is None or denominator is None or denominator == 0:
        return None
    return numerator / denominator


def ratio_table(
    ids: tuple[str, ...] | list[str], baseline: str, per_gcd: bool = False, metrics: tuple[str, ...] = RATIO_METRICS
) -> list[dict[str, object]]:
    """One row per metric: {'metric', 'unit', <gpu id>: value / baseline value or None}."""
    base = gpu(baseline)
    rows = []
    for metric in metrics:
        row: dict[str, object] = {"metric": metric, "unit": UNITS[metric]}
        for gid in ids:
            row[gid] = ratio(gpu(gid).value(metric, per_gcd), base.value(metric, per_gcd))
        rows.append(row)
    return rows


# --- roofline ---------------------------------------------------------------------------------------------


def ridge_point(peak_tflops: float | None, bandwidth_tbs: float | None) -> float | None:
    """Arithmetic intensity (FLOP/byte) where the roofline bends: peak FLOP/s / bandwidth (byte/s).

    TFLOP/s over TB/s: the 1e12 factors cancel.
    >>> round(ridge_point(19.5, 1.555), 2)   # A100 40GB FP32
    12.54
    """
    if peak_tflops is None or bandwidth_tbs is None or bandwidth_tbs <= 0:
        return None
    return peak_tflops / bandwidth_tbs


def attainable_tflops(intensity_flop_per_byte: float, peak_tflops: float, bandwidth_tbs: float) -> float:
    """The roofline: min(peak, intensity x bandwidth), in TFLOP/s (TB/s x FLOP/byte = TFLOP/s).

    >>> attainable_tflops(1.0, 19.5, 1.555)
    1.555
    >>> attainable_tflops(100.0, 19.5, 1.555)
    19.5
    """
    if intensity_flop_per_byte < 0 or peak_tflops <= 0 or bandwidth_tbs <= 0:
        raise InvalidInput("hardware.error.bad_roofline")
    return min(peak_tflops, intensity_flop_per_byte * bandwidth_tbs)


@dataclass(frozen=True)
class Roofline:
    label: str
    peak_tflops: float
    bandwidth_tbs: float
    ridge: float
    intensities: tuple[float, ...]
    attainable: tuple[float, ...]


def intensity_grid(lo: float = 0.05, hi: float = 2000.0, points: int = 60) -> tuple[float, ...]:
    """Log-spaced arithmetic intensities for drawing the roof, plus nothing else (ridges are added per GPU)."""
    step = (math.log10(hi) - math.log10(lo)) / (points - 1)
    return tuple(10 ** (math.log10(lo) + i * step) for i in range(points))


def roofline(label: str, peak_tflops: float | None, bandwidth_tbs: float | None) -> Roofline | None:
    """The roof for one GPU and precision, with its ridge point inserted in the grid; None if either figure is
    not published."""
    ridge = ridge_point(peak_tflops, bandwidth_tbs)
    if ridge is None or peak_tflops is None or bandwidth_tbs is None:
        return None
    xs = sorted({*intensity_grid(), ridge})
    return Roofline(
        label=label,
        peak_tflops=peak_tflops,
        bandwidth_tbs=bandwidth_tbs,
        ridge=ridge,
        intensities=tuple(xs),
        attainable=tuple(attainable_tflops(x, peak_tflops, bandwidth_tbs) for x in xs),
    )


def gpu_roofline(gid: str, precision: str, per_gcd: bool = False) -> Roofline | None:
    if precision not in PRECISIONS:
        raise InvalidInput("hardware.error.unknown_precision", value=str(precision)[:40])
    g = gpu(gid)
    return roofline(g.model, g.value(precision, per_gcd), g.value("memory_bandwidth_tbs", per_gcd))


def host_point(measurement: object, precision: str) -> tuple[float, float] | None:
    """The measured ridge point (FLOP/byte, TFLOP/s) of a HostMeasurement for a datasheet precision: its best
    matmul rate over its device-copy bandwidth. None if it lacks that dtype or a bandwidth."""
    tflops = host_tflops(measurement, precision)
    bandwidth_gbs = getattr(measurement, "d2d_gbs", None)
    if tflops is None or not bandwidth_gbs or bandwidth_gbs <= 0:
        return None
    return (tflops / (bandwidth_gbs / 1000.0), tflops)


def host_tflops(measurement: object, precision: str) -> float | None:
    matmul = getattr(measurement, "matmul_tflops", None) or {}
    for dtype, prec in HOST_DTYPE_TO_PRECISION.items():
        if prec == precision and dtype in matmul:
            value = matmul[dtype]
            if isinstance(value, (int, float)) and math.isfinite(value) and value > 0:
                return float(value)
    return None


# --- measured benchmarks ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Benchmark:
    workload: str
    metric: str
    mi250: float | None
    a100: float | None
    unit: str
    ratio: float | None  # MI250 / A100 as the data gives it
    precision: str
    software: str
    who: str
    date: str
    source: str
    note: str


def benchmarks() -> tuple[Benchmark, ...]:
    out = []
    for row in read_csv(BENCH_CSV):
        out.append(
            Benchmark(
                workload=row["workload"],
                metric=row["metric"],
                mi250=parse_figure(row["mi250_value"]),
                a100=parse_figure(row["a100_value"]),
                unit=row["unit"],
                ratio=parse_figure(row["ratio_mi250_over_a100"]),
                precision=row["precision"],
                software=row["software_stack"],
                who=row["who_measured"],
                date=row["date"],
                source=row["source"],
                note=row["note"],
            )
        )
    return tuple(out)


def short_workload(bench: Benchmark) -> str:
    """A chart label: the model, tensor-parallel size, length and batch of a vLLM row, or the metric."""
    text = bench.workload
    m = re.search(r": ([\w./-]+), tensor-parallel size (\d+), input = output length (\d+) tokens, batch (\d+)", text)
    if m:
        model = m.group(1).split("/")[-1]
        return f"{model} TP{m.group(2)} len{m.group(3)} b{m.group(4)}"
    m = re.search(r"relative to (A100-\w+)", bench.metric)
    if m:
        return f"LLM Foundry training vs {m.group(1)}"
    tail = text.split(": ", 1)[-1]
    return tail if len(tail) <= 44 else tail[:43].rstrip() + "…"


SPECS_SOURCE = "data/gpu_specs.csv"
BENCH_SOURCE = "data/benchmarks_mi250_vs_a100.csv"
