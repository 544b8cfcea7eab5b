"""The models behind the Formula lab's charts: pure functions over the five formulas, with sourced presets.

- Per-op time: a list of ops on a timeline, and XLA-style fusion that merges the dispatch and sync of
  neighbouring fusible ops (the time saved is the dispatch + sync the fused ops no longer pay).
- Throughput: a step model t_compute(B) = overhead + B * FLOPs / (peak * efficiency) and
  t_transfer(B) = B * (bytes / link bandwidth + input-pipeline time per sample); prefetch overlaps the two (step = max instead of sum); mixed
  precision scales t_compute by the ratio of the preset's FP32-matrix/TF32 and FP16 peaks.
- Coverage: R over an example model's operator types, and what each uncovered op costs (a round trip over
  the host link plus a synchronisation).
- Speedup: before/after and an Amdahl view (which part was optimised, how far the whole can go).
- Compatible: installed driver / ROCm / TensorFlow against minimums read from data/tf_rocm_compat.csv.

Hardware presets come from data/gpu_specs.csv (peak rates) with a named source for the host-link bandwidth;
op times come from data/formula_lab_recorded.json (measured on an H200 with bench/formula_lab_op_times.py);
"your machine" comes from a rocm_bridge.measured.HostMeasurement. No module-level streamlit or pandas.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache

from rocm_bridge import formulas, hardware
from rocm_bridge.data import data_path
from rocm_bridge.errors import InvalidInput
from rocm_bridge.measured import HostMeasurement
from rocm_bridge.versions import parse_version

RECORDED_OPS = "formula_lab_recorded.json"
HOST_PRESET = "host"


# --- input validation (query parameters and widget values) ----------------------------------------------


def parse_number(raw: object, name: str, lo: float, hi: float) -> float:
    """A number from a URL query or a widget, checked against its widget range [lo, hi].

    >>> parse_number("2.5", "t_before_s", 0, 100)
    2.5
    >>> parse_number("nan", "t_before_s", 0, 100)
    Traceback (most recent call last):
    ...
    rocm_bridge.errors.InvalidInput: 't_before_s' must be a finite number (got 'nan').
    """
    try:
        value = float(str(raw).strip())
    except (TypeError, ValueError):
        raise InvalidInput("errors.not_a_number", name=name, value=str(raw)[:40]) from None
    if not math.isfinite(value):
        raise InvalidInput("errors.not_finite", name=name, value=str(raw)[:40])
    if value < 0 <= lo:
        raise InvalidInput("errors.negative", name=name, value=fmt(value))
    if value < lo or value > hi:
        raise InvalidInput("formula_lab.errors.out_of_range", name=name, value=fmt(value), lo=fmt(lo), hi=fmt(hi))
    return value


def parse_choice(raw: object, name: str, options: Sequence[str]) -> str:
    """One of the options (as text), else InvalidInput naming the field."""
    value = str(raw).strip()
    if value not in options:
        raise InvalidInput("formula_lab.errors.unknown_choice", name=name, value=value[:40])
    return value


def parse_bool(raw: object, name: str) -> bool:
    value = str(raw).strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise InvalidInput("formula_lab.errors.unknown_choice", name=name, value=value[:40])


def _parts(x: float, digits: int) -> tuple[str, int | None]:
    """(mantissa, exponent) at `digits` significant digits; exponent None for everyday sizes."""
    if 1e-3 <= abs(x) < 1e6:
        text = f"{x:.{digits}g}"
        if "e" not in text:
            return text, None
    mantissa, exp = f"{x:.{digits - 1}e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
    return mantissa, int(exp)


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _g(x: float, digits: int = 4) -> str:
    r"""A number for LaTeX: 4 significant digits, powers of ten as 1.29 \times 10^{8} (never '1.290e+08').

    >>> _g(1.29e8), _g(2560.0), _g(2.5e-5)
    ('1.29 \\times 10^{8}', '2560', '2.5 \\times 10^{-5}')
    """
    if x == 0:
        return "0"
    if math.isinf(x):
        return "\\infty"
    mantissa, exp = _parts(x, digits)
    return mantissa if exp is None else rf"{mantissa} \times 10^{{{exp}}}"


def fmt(x: float, digits: int = 4) -> str:
    """A number for text (metrics, captions, messages): 1.29 × 10⁸ rather than 1.290e+08.

    >>> fmt(1.29e8), fmt(0.1505), fmt(0)
    ('1.29 × 10⁸', '0.1505', '0')
    """
    if x == 0:
        return "0"
    if math.isinf(x):
        return "∞"
    mantissa, exp = _parts(x, digits)
    return mantissa if exp is None else f"{mantissa} × 10{str(exp).translate(_SUPERSCRIPT)}"


# --- hardware presets -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class HardwarePreset:
    """Peak rates of one GPU as the framework sees it, and its host link, each with a source.

    fp32_tflops is the FP32-matrix (CDNA) or TF32 (Ampere/Hopper) dense peak, the rate FP32 training uses
    by default; fp16_tflops the dense FP16 matrix peak that mixed precision uses.
    """

    key: str
    label: str
    vendor: str
    fp32_tflops: float
    fp16_tflops: float
    link_name: str
    link_gbs: float  # host-to-device GB/s, one direction
    sources: tuple[str, ...]
    note_key: str = ""  # catalog key of a caveat (e.g. "one GCD of an MI250")
    measured: bool = False  # True: from the user's HostMeasurement
    recorded: bool = False  # True: recorded results shipped with the app
    dispatch_us: float | None = None
    sync_us: float | None = None

    @property
    def mixed_factor(self) -> float:
        """How many times faster the FP16 peak is than the FP32-matrix/TF32 peak."""
        return self.fp16_tflops / self.fp32_tflops


@dataclass(frozen=True)
class _PresetSpec:
    key: str
    model: str  # gpu_specs.csv model
    share: float  # fraction of the package the framework sees as one GPU (an MI250 is 2 GCDs)
    link_name: str
    link_gbs: float
    link_source: str
    quotes: tuple[tuple[str, str], ...]  # (gpu_specs.csv model, text of its interconnect cell) behind link_gbs
    note_key: str = ""


# The host-link figures quote the interconnect column of gpu_specs.csv; a test checks each quote is there.
_PRESET_SPECS: tuple[_PresetSpec, ...] = (
    _PresetSpec(
        "mi250_gcd",
        "Instinct MI250",
        0.5,
        "PCIe 4.0 x16",
        32.0,
        "gpu_specs.csv: Instinct MI250 interconnect 'PCIe Gen4 x16 per GCD to host'; a PCIe 4.0 x16 link carries "
        "16 GT/s x 16 lanes / 8 bits = 32 GB/s per direction before 128b/130b encoding (PCI-SIG, PCI Express "
        "Base Specification 4.0)",
        (("Instinct MI250", "PCIe Gen4 x16 per GCD to host"),),
        "formula_lab.preset.note_gcd",
    ),
    _PresetSpec(
        "mi250x_frontier",
        "Instinct MI250X",
        0.5,
        "Infinity Fabric CPU-GCD",
        36.0,
        "gpu_specs.csv: Instinct MI250X interconnect 'CPU-GCD Infinity Fabric 36+36 GB/s (Frontier node)'",
        (("Instinct MI250X", "CPU-GCD Infinity Fabric 36+36 GB/s"),),
        "formula_lab.preset.note_gcd",
    ),
    _PresetSpec(
        "a100_40gb",
        "A100 40GB SXM4",
        1.0,
        "PCIe 4.0 x16",
        32.0,
        "gpu_specs.csv: A100 40GB SXM4 interconnect 'PCIe Gen4 32+32 GB/s'",
        (("A100 40GB SXM4", "PCIe Gen4 32+32 GB/s"),),
    ),
    _PresetSpec(
        "h200",
        "H200 SXM",
        1.0,
        "PCIe 5.0 x16",
        64.0,
        "gpu_specs.csv: H100 SXM5 interconnect 'PCIe Gen5 128 GB/s' (both directions, 64 GB/s each); the H200 "
        "row lists only NVLink and the H200 uses the same GH100 host platform",
        (("H100 SXM5", "PCIe Gen5 128 GB/s"),),
        "formula_lab.preset.note_h200_link",
    ),
)
PRESET_KEYS: tuple[str, ...] = tuple(p.key for p in _PRESET_SPECS)


def _peak(gpu: hardware.Gpu, metric: str) -> float:
    value = gpu.figures.get(metric)
    if value is None:  # "not published": a preset must not silently use 0
        raise KeyError(f"{gpu.model}: {metric} is not sourced")
    return value


@cache
def hardware_preset(key: str) -> HardwarePreset:
    """A sourced hardware preset by key (PRESET_KEYS); peaks from gpu_specs.csv, the link from its quote.

    >>> p = hardware_preset("mi250_gcd")
    >>> p.fp32_tflops, p.fp16_tflops, p.link_gbs   # half of the MI250 package's 90.5 / 362.1 TFLOP/s
    (45.25, 181.05, 32.0)
    """
    spec = next((p for p in _PRESET_SPECS if p.key == key), None)
    if spec is None:
        raise InvalidInput("formula_lab.errors.unknown_choice", name="preset", value=str(key)[:40])
    gpu = hardware.gpu(hardware.gpu_id(spec.model))
    label = f"{gpu.vendor} {gpu.model}"
    if spec.share != 1.0:
        label += " (1 GCD)"
    return HardwarePreset(
        key=spec.key,
        label=label,
        vendor=gpu.vendor,
        fp32_tflops=_peak(gpu, "fp32_matrix_or_tf32") * spec.share,
        fp16_tflops=_peak(gpu, "fp16") * spec.share,
        link_name=spec.link_name,
        link_gbs=spec.link_gbs,
        sources=(f"gpu_specs.csv ({gpu.model}): {gpu.source.split(' | ')[0]}", spec.link_source),
        note_key=spec.note_key,
    )


def link_quotes(key: str) -> tuple[tuple[str, str], ...]:
    """(gpu_specs.csv model, quoted interconnect text) pairs behind a preset's link figure."""
    return next(p for p in _PRESET_SPECS if p.key == key).quotes


def host_preset(measurement: HostMeasurement | None) -> HardwarePreset | None:
    """'Your machine' from a HostMeasurement: its best FP32/TF32 and FP16/BF16 matmul rates and H2D bandwidth.

    None when the measurement lacks a rate or a host-to-device bandwidth.
    """
    if measurement is None:
        return None
    rates = {k: v for k, v in measurement.matmul_tflops.items() if v and v > 0}
    base = rates.get("tf32") or rates.get("fp32")
    fast = rates.get("fp16") or rates.get("bf16")
    link = measurement.h2d_pinned_gbs or measurement.h2d_pageable_gbs
    if not base or not fast or not link:
        return None
    return HardwarePreset(
        key=HOST_PRESET,
        label=measurement.device_name,
        vendor=measurement.vendor,
        fp32_tflops=float(max(rates.get("tf32", 0.0), rates.get("fp32", 0.0))),
        fp16_tflops=float(max(rates.get("fp16", 0.0), rates.get("bf16", 0.0))),
        link_name="H2D pinned" if measurement.h2d_pinned_gbs else "H2D pageable",
        link_gbs=float(link),
        sources=(f"{measurement.backend} {measurement.backend_version}, {measurement.measured_at}",),
        measured=not measurement.recorded,
        recorded=measurement.recorded,
        dispatch_us=measurement.dispatch_us,
    )


def presets(measurement: HostMeasurement | None = None) -> dict[str, HardwarePreset]:
    """Every preset by key; 'host' first when a usable measurement is given."""
    out: dict[str, HardwarePreset] = {}
    host = host_preset(measurement)
    if host is not None:
        out[HOST_PRESET] = host
    out.update({k: hardware_preset(k) for k in PRESET_KEYS})
    return out


# --- per-op time and XLA fusion --------------------------------------------------------------------------


@dataclass(frozen=True)
class Op:
    name: str
    kernel_us: float
    fusible: bool = False  # element-wise / normalisation ops XLA fuses with their fusible neighbours


@dataclass(frozen=True)
class OpBar:
    """One bar of the stacked chart: an op or a fused group of ops."""

    name: str
    members: tuple[str, ...]
    time: formulas.OpTime  # seconds

    @property
    def fused(self) -> bool:
        return len(self.members) > 1


@dataclass(frozen=True)
class OpListResult:
    bars: tuple[OpBar, ...]
    unfused_total_s: float

    @property
    def total_s(self) -> float:
        return sum(b.time.total_s for b in self.bars)

    @property
    def saved_s(self) -> float:
        return self.unfused_total_s - self.total_s

    @property
    def launches(self) -> int:
        return len(self.bars)


def _groups(ops: Sequence[Op], fusion: bool) -> list[list[Op]]:
    groups: list[list[Op]] = []
    for op in ops:
        if fusion and op.fusible and groups and groups[-1][-1].fusible:
            groups[-1].append(op)
        else:
            groups.append([op])
    return groups


def op_list_times(ops: Sequence[Op], dispatch_us: float, sync_us: float, fusion: bool = False) -> OpListResult:
    """Per-op time of every op (or fused group) of a list.

    Fusion merges runs of consecutive fusible ops into one launch: the group pays one dispatch and one sync,
    and its kernel time is the sum of its members' (kept as is: the saving shown is dispatch + sync only).

    >>> ops = [Op("MatMul", 20.0), Op("BiasAdd", 2.0, True), Op("Relu", 1.0, True)]
    >>> plain = op_list_times(ops, dispatch_us=10, sync_us=5)
    >>> fused = op_list_times(ops, dispatch_us=10, sync_us=5, fusion=True)
    >>> round(plain.total_s * 1e6, 6), fused.launches, round(fused.saved_s * 1e6, 6)
    (68.0, 2, 15.0)
    """
    if not ops:
        raise InvalidInput("formula_lab.errors.no_ops")
    d = formulas.check_number("dispatch_us", dispatch_us) * 1e-6
    s = formulas.check_number("sync_us", sync_us) * 1e-6
    unfused = sum(formulas.per_op_time(d, formulas.check_number("kernel_us", op.kernel_us) * 1e-6, s).total_s for op in ops)
    bars = []
    for group in _groups(ops, fusion):
        kernel_s = sum(op.kernel_us for op in group) * 1e-6
        name = " + ".join(op.name for op in group)
        bars.append(OpBar(name, tuple(op.name for op in group), formulas.per_op_time(d, kernel_s, s)))
    return OpListResult(tuple(bars), unfused)


@dataclass(frozen=True)
class RecordedOpList:
    key: str
    shape: str
    ops: tuple[Op, ...]
    fused_kernel_us: dict[str, float]  # measured kernel time of each fused group (torch.compile)


@dataclass(frozen=True)
class RecordedOps:
    device: str
    backend: str
    measured_at: str
    source: str
    dispatch_us: float
    sync_us: float
    op_lists: dict[str, RecordedOpList]


@lru_cache(maxsize=1)
def recorded_ops() -> RecordedOps:
    """The op times recorded on an H200 (data/formula_lab_recorded.json)."""
    with data_path(RECORDED_OPS).open(encoding="utf-8") as fh:
        raw = json.load(fh)
    lists = {
        key: RecordedOpList(
            key,
            value["shape"],
            tuple(Op(o["name"], float(o["kernel_us"]), bool(o["fusible"])) for o in value["ops"]),
            {k: float(v) for k, v in value.get("fused_kernel_us", {}).items()},
        )
        for key, value in raw["op_lists"].items()
    }
    return RecordedOps(
        raw["device"], raw["backend"], raw["measured_at"], raw["source"],
        float(raw["dispatch_us"]), float(raw["sync_us"]), lists,
    )


def measured_fusion_kernels(op_list: RecordedOpList, fused: OpListResult) -> list[tuple[str, float, float]]:
    """For each fused group that was also measured fused: (name, sum of separate kernels, fused kernel) in µs."""
    out = []
    for bar in fused.bars:
        if bar.fused and bar.name in op_list.fused_kernel_us:
            out.append((bar.name, bar.time.kernel_s * 1e6, op_list.fused_kernel_us[bar.name]))
    return out


# --- throughput ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Workload:
    """What one training sample costs: FLOPs on the GPU and bytes over the host link."""

    gflop_per_sample: float
    mb_per_sample: float  # 1 MB = 1e6 bytes
    efficiency: float  # share of the peak the model reaches, (0, 1]
    overhead_ms: float  # per-step time that does not grow with the batch (launches, optimizer, Python)
    pipeline_us: float = 0.0  # input-pipeline (CPU) time per sample: decode, augment; part of t_transfer


@dataclass(frozen=True)
class WorkloadPreset:
    key: str
    gflop_per_sample: float
    mb_per_sample: float
    source_key: str  # catalog key explaining where the numbers come from


# ResNet-50: 3.8e9 multiply-adds per 224x224 forward pass (He et al. 2016, Table 1) -> 7.6 GFLOP forward,
# x3 for forward + backward = 22.8 GFLOP; input 224*224*3 uint8 = 150528 bytes.
# BERT-base: 110M parameters (Devlin et al. 2019); training ~6 FLOPs per parameter per token (Kaplan et al.
# 2020) x 128 tokens = 84.48 GFLOP; input 3 int32 arrays of 128 tokens = 1536 bytes.
WORKLOADS: dict[str, WorkloadPreset] = {
    w.key: w
    for w in (
        WorkloadPreset("resnet50", round(3 * 2 * 3.8, 6), 224 * 224 * 3 / 1e6, "formula_lab.tp.wl_source.resnet50"),
        WorkloadPreset("bert_base", round(6 * 110e6 * 128 / 1e9, 6), 3 * 4 * 128 / 1e6, "formula_lab.tp.wl_source.bert_base"),
    )
}


def step_times(batch: float, hw: HardwarePreset, wl: Workload, mixed: bool = False) -> tuple[float, float]:
    """(t_compute_s, t_transfer_s) of one step of `batch` samples.

    >>> hw = HardwarePreset("x", "x", "AMD", 100.0, 400.0, "link", 32.0, ())
    >>> wl = Workload(gflop_per_sample=10.0, mb_per_sample=1.0, efficiency=0.5, overhead_ms=0.0)
    >>> [round(t, 6) for t in step_times(64, hw, wl)]
    [0.0128, 0.002]
    >>> round(step_times(64, hw, wl, mixed=True)[0], 6)
    0.0032
    """
    batch = formulas.check_number("batch", batch, positive=True)
    gflop = formulas.check_number("gflop_per_sample", wl.gflop_per_sample)
    mb = formulas.check_number("mb_per_sample", wl.mb_per_sample)
    eff = formulas.check_number("efficiency", wl.efficiency, positive=True)
    if eff > 1:
        raise InvalidInput("errors.more_than_total", part=fmt(eff), total=1)
    overhead = formulas.check_number("overhead_ms", wl.overhead_ms) * 1e-3
    rate = formulas.check_number("peak_tflops", hw.fp16_tflops if mixed else hw.fp32_tflops, positive=True)
    link = formulas.check_number("link_gbs", hw.link_gbs, positive=True)
    pipeline = formulas.check_number("pipeline_us", wl.pipeline_us) * 1e-6
    t_compute = overhead + batch * gflop * 1e9 / (rate * 1e12 * eff)
    t_transfer = batch * (mb * 1e6 / (link * 1e9) + pipeline)
    return t_compute, t_transfer


def step_throughput(batch: float, t_compute_s: float, t_transfer_s: float, prefetch: bool = False) -> float:
    """Samples/s. Without prefetch the formula's B / (t_compute + t_transfer); with prefetch the next batch
    is copied while this one computes, so a step takes max(t_compute, t_transfer).

    >>> step_throughput(256, 0.08, 0.02), step_throughput(256, 0.08, 0.02, prefetch=True)
    (2560.0, 3200.0)
    """
    if not prefetch:
        return formulas.throughput(batch, t_compute_s, t_transfer_s)
    batch = formulas.check_number("batch", batch, positive=True)
    step = max(formulas.check_number("t_compute_s", t_compute_s), formulas.check_number("t_transfer_s", t_transfer_s))
    if step == 0:
        raise InvalidInput("errors.zero", name="max(t_compute_s, t_transfer_s)")
    return batch / step


@dataclass(frozen=True)
class CurvePoint:
    batch: int
    t_compute_s: float
    t_transfer_s: float
    throughput: float


BATCHES: tuple[int, ...] = tuple(2**i for i in range(0, 13))  # 1 ... 4096


def throughput_curve(
    hw: HardwarePreset, wl: Workload, *, mixed: bool = False, prefetch: bool = False,
    batches: Iterable[int] = BATCHES,
) -> list[CurvePoint]:
    """Throughput over batch sizes for one configuration."""
    out = []
    for b in batches:
        tc, tt = step_times(b, hw, wl, mixed)
        out.append(CurvePoint(int(b), tc, tt, step_throughput(b, tc, tt, prefetch)))
    return out


def throughput_ceiling(hw: HardwarePreset, wl: Workload, *, mixed: bool = False, prefetch: bool = False) -> float:
    """The limit of the curve for very large batches (the fixed overhead no longer counts)."""
    per_sample_c = formulas.check_number("gflop_per_sample", wl.gflop_per_sample) * 1e9 / (
        (hw.fp16_tflops if mixed else hw.fp32_tflops) * 1e12 * wl.efficiency
    )
    per_sample_t = wl.mb_per_sample * 1e6 / (hw.link_gbs * 1e9) + wl.pipeline_us * 1e-6
    per = max(per_sample_c, per_sample_t) if prefetch else per_sample_c + per_sample_t
    return math.inf if per == 0 else 1.0 / per


def bound_by(t_compute_s: float, t_transfer_s: float) -> str:
    """'compute' or 'transfer': the part that sets the step time."""
    return "transfer" if t_transfer_s > t_compute_s else "compute"


# --- coverage --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CoverageResult:
    op_types: tuple[str, ...]
    uncovered: tuple[str, ...]
    calls: dict[str, int] = field(default_factory=dict)  # op type -> nodes of that type in the graph
    statuses: dict[str, str] = field(default_factory=dict)  # uncovered op type -> why (registry status)

    @property
    def n_total(self) -> int:
        return len(self.op_types)

    @property
    def n_supported(self) -> int:
        return self.n_total - len(self.uncovered)

    @property
    def ratio(self) -> float:
        return formulas.coverage(self.n_supported, self.n_total)

    @property
    def uncovered_calls(self) -> int:
        """Nodes of uncovered types: each one is a CPU round trip per step."""
        return sum(self.calls.get(op, 1) for op in self.uncovered)


def coverage_of(
    op_types: Iterable[str], covered: Iterable[str], calls: dict[str, int] | None = None,
    statuses: dict[str, str] | None = None,
) -> CoverageResult:
    """R over the distinct op types (order kept), given the ones that have a kernel on the target.

    >>> r = coverage_of(["MatMul", "Relu", "MatMul", "StringSplit"], covered={"MatMul", "Relu"})
    >>> r.n_supported, r.n_total, round(r.ratio, 4), r.uncovered
    (2, 3, 0.6667, ('StringSplit',))
    """
    distinct = tuple(dict.fromkeys(str(o) for o in op_types))
    if not distinct:
        raise InvalidInput("formula_lab.errors.no_ops")
    covered_set = set(covered)
    return CoverageResult(
        distinct, tuple(o for o in distinct if o not in covered_set), dict(calls or {}), dict(statuses or {})
    )


@dataclass(frozen=True)
class FallbackCost:
    """What one call of an op without a GPU kernel costs: TensorFlow runs it on the CPU, so its input goes
    device -> host and its output host -> device, and the host must wait for the GPU before the copy."""

    copy_s: float
    sync_s: float
    calls: int

    @property
    def per_call_s(self) -> float:
        return self.copy_s + self.sync_s

    @property
    def per_step_s(self) -> float:
        return self.per_call_s * self.calls


def fallback_cost(tensor_mb: float, link_gbs: float, sync_us: float, calls: int) -> FallbackCost:
    """Cost of the uncovered ops in one step (CPU kernel time itself not counted).

    >>> c = fallback_cost(tensor_mb=32, link_gbs=32, sync_us=10, calls=3)
    >>> round(c.per_call_s * 1e3, 4), round(c.per_step_s * 1e3, 4)
    (2.01, 6.03)
    """
    mb = formulas.check_number("tensor_mb", tensor_mb)
    bw = formulas.check_number("link_gbs", link_gbs, positive=True)
    sync = formulas.check_number("sync_us", sync_us) * 1e-6
    n = int(formulas._count("calls", calls))
    return FallbackCost(2 * mb * 1e6 / (bw * 1e9), sync, n)


COVERAGE_TARGETS: tuple[str, ...] = ("rocm-2.14", "cuda-2.14")
_SNAPSHOTS = {"rocm-2.14": "tensorflow-rocm-2.14.0.600", "cuda-2.14": "tensorflow-2.14.0-cuda"}

# Used only when rocm_bridge.coverage (and its data/example_model_ops.json) is not available: the op types
# of a Keras Conv2D -> BatchNormalization -> ReLU -> MaxPool -> Dense -> Softmax classifier's training graph
# as TensorFlow names them (tf.raw_ops), plus ops a text input pipeline meets.
FALLBACK_OP_LISTS: dict[str, tuple[str, ...]] = {
    "small_cnn": (
        "Conv2D", "BiasAdd", "FusedBatchNormV3", "Relu", "MaxPool", "Reshape", "MatMul", "Softmax",
        "SparseSoftmaxCrossEntropyWithLogits", "Conv2DBackpropFilter", "Conv2DBackpropInput",
        "FusedBatchNormGradV3", "ReluGrad", "MaxPoolGrad", "BiasAddGrad", "ResourceApplyAdam",
    ),
    "text_pipeline": ("StringSplit", "StringToHashBucketFast", "ResourceGather", "MatMul", "Softmax"),
}
FALLBACK_SOURCE = "op names: TensorFlow raw ops (https://www.tensorflow.org/api_docs/python/tf/raw_ops)"


def _coverage_package():
    try:
        import rocm_bridge.coverage as cov  # noqa: PLC0415 - another part's package, optional here
    except ImportError:
        return None
    try:
        cov.example_op_lists()
    except (OSError, ValueError, KeyError):
        return None
    return cov


def example_models() -> tuple[tuple[str, ...], str]:
    """Keys of the example models and where their op lists come from."""
    cov = _coverage_package()
    if cov is None:
        return tuple(FALLBACK_OP_LISTS), FALLBACK_SOURCE
    prov = cov.example_provenance()
    return tuple(cov.example_op_lists()), (
        f"data/example_model_ops.json (traced with TensorFlow {prov.get('tensorflow', '?')}, "
        f"Keras {prov.get('keras', '?')}, {prov.get('tool', '')})"
    )


def _snapshot_gpu_ops(snapshot: str) -> set[str]:
    import gzip  # noqa: PLC0415

    path = data_path(f"tf_kernel_registry/{snapshot}.json.gz")
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        ops = json.load(fh)["ops"]
    return {op for op, devices in ops.items() if "GPU" in devices or "DEFAULT" in devices}


@lru_cache(maxsize=32)
def model_coverage(model: str, target: str = "rocm-2.14") -> CoverageResult:
    """R for an example model on a kernel-registry snapshot, with each uncovered op's node count and reason.

    Uses rocm_bridge.coverage (dtype-aware, per node) when available; otherwise FALLBACK_OP_LISTS checked
    against the snapshot by op name only.
    """
    if target not in COVERAGE_TARGETS:
        raise InvalidInput("formula_lab.errors.unknown_choice", name="target", value=str(target)[:40])
    cov = _coverage_package()
    if cov is None:
        if model not in FALLBACK_OP_LISTS:
            raise InvalidInput("formula_lab.errors.unknown_choice", name="model", value=str(model)[:40])
        ops = FALLBACK_OP_LISTS[model]
        gpu = _snapshot_gpu_ops(_SNAPSHOTS[target])
        return coverage_of(ops, {o for o in ops if o in gpu}, statuses={o: "no_gpu_kernel" for o in ops if o not in gpu})
    if model not in cov.example_op_lists():
        raise InvalidInput("formula_lab.errors.unknown_choice", name="model", value=str(model)[:40])
    report = cov.analyze(cov.example_nodes(model), cov.resolve(target), model=model)
    return coverage_of(
        [r.op for r in report.rows],
        [r.op for r in report.rows if r.covered],
        calls={r.op: r.nodes for r in report.rows},
        statuses={r.op: r.status for r in report.rows if not r.covered},
    )


# --- speedup and Amdahl ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class AmdahlView:
    speedup: float  # T_before / T_after
    fraction_optimised: float  # p: share of T_before spent in the part that was optimised
    untouched_s: float  # (1 - p) * T_before, the same before and after
    part_before_s: float
    part_after_s: float
    local_speedup: float  # how much faster the optimised part became
    ceiling: float  # 1 / (1 - p): the whole run's speedup if the part took no time at all


def amdahl_view(t_before_s: float, t_after_s: float, fraction_optimised: float) -> AmdahlView:
    """Read a measured before/after as Amdahl's law: which local speedup it implies and how far it can go.

    >>> v = amdahl_view(t_before_s=10.0, t_after_s=6.0, fraction_optimised=0.6)
    >>> round(v.speedup, 4), round(v.local_speedup, 4), round(v.ceiling, 4)
    (1.6667, 3.0, 2.5)
    """
    s = formulas.speedup(t_before_s, t_after_s)
    p = formulas.check_number("fraction_optimised", fraction_optimised)
    if p > 1:
        raise InvalidInput("errors.more_than_total", part=fmt(p), total=1)
    before, after = float(t_before_s), float(t_after_s)
    untouched = (1 - p) * before
    part_after = after - untouched
    if p == 0 or part_after <= 1e-12 * before:  # rounding: (1 - 0.8) * 10 is not exactly 2
        raise InvalidInput(
            "formula_lab.errors.after_below_untouched", after=fmt(after), untouched=fmt(untouched)
        )
    local = p * before / part_after
    ceiling = math.inf if p == 1 else 1 / (1 - p)
    return AmdahlView(s, p, untouched, p * before, part_after, local, ceiling)


def amdahl_curve(fraction_optimised: float, local_speedups: Iterable[float]) -> list[tuple[float, float]]:
    """(local speedup, whole-run speedup) pairs for one optimised fraction."""
    return [(float(s), formulas.amdahl_speedup(fraction_optimised, s)) for s in local_speedups]


LOCAL_SPEEDUPS: tuple[float, ...] = tuple(round(1.25**i, 4) for i in range(0, 32))  # 1 ... ~1000x


# --- compatible ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CompatCheck:
    """The Compatible formula for picked versions, with the minimums' sources and unsourced factors."""

    result: formulas.Compatibility
    minimums: dict[str, str | None]  # driver / rocm / tensorflow -> minimum (None: not in the data)
    sources: dict[str, str]
    listed_pair: bool  # whether some row of the matrix lists this ROCm line with this TF version

    @property
    def unsourced(self) -> tuple[str, ...]:
        return tuple(k for k, v in self.minimums.items() if v is None)


def _floor(version: str) -> str:
    return version[:-2] if version.endswith(".x") else version


def compat_choices() -> dict[str, list[str]]:
    """Real versions to pick from (newest first): amdgpu drivers, ROCm release lines, TensorFlow versions."""
    from rocm_bridge import compat  # noqa: PLC0415

    return {
        "driver": compat.choices("amdgpu_driver"),
        "rocm": compat.choices("rocm"),
        "tensorflow": compat.choices("tensorflow_rocm"),
    }


def compat_check(driver: str, rocm: str, tensorflow: str) -> CompatCheck:
    """Compatible = 1[v_D >= D_min] x 1[v_R >= R_min] x 1[v_T >= T_min], minimums from tf_rocm_compat.csv:

    - D_min: the oldest amdgpu driver the matrix lists as compatible with the installed ROCm line;
    - R_min: the oldest ROCm line whose row lists the installed TensorFlow version;
    - T_min: the oldest TensorFlow version listed for the installed ROCm line.
    A minimum the data does not give is left out of the product and reported in `unsourced`.

    >>> c = compat_check(driver="6.4", rocm="6.3.x", tensorflow="2.18.1")
    >>> c.result.value, [i.name for i in c.result.failing], c.minimums["rocm"]
    (0, ['rocm'], '6.4.x')
    """
    from rocm_bridge import compat  # noqa: PLC0415

    for name, value in (("driver", driver), ("rocm", rocm), ("tensorflow", tensorflow)):
        if not value or not str(value).strip():
            raise InvalidInput("errors.bad_version", value=f"{name}: {value!r}")
        parse_version(value)
    drivers = [_floor(d) for d in compat.drivers_for_rocm(rocm)]
    d_min = min(drivers, key=parse_version) if drivers else None
    release = compat.release_row(rocm)
    req = compat.requirements_for(tensorflow)
    r_min = req.rocm_min
    t_min = compat.tensorflow_min_for_rocm(rocm)
    minimums = {"driver": d_min, "rocm": r_min, "tensorflow": t_min}
    installed = {"driver": driver, "rocm": rocm, "tensorflow": tensorflow}
    components = {k: (installed[k], m) for k, m in minimums.items() if m is not None}
    if not components:
        raise InvalidInput("errors.no_components")
    sources = {
        "driver": release.source if (release and d_min) else "",
        "rocm": req.source,
        "tensorflow": release.source if (release and t_min) else "",
    }
    return CompatCheck(
        formulas.compatible(**components), minimums, sources, compat.pair_listed(rocm, tensorflow) is not None
    )


# --- the formulas with the user's numbers substituted ------------------------------------------------------


def latex_compatible(check: CompatCheck) -> str:
    parts = []
    for ind in check.result.indicators:
        sym = {"driver": "D", "rocm": "R", "tensorflow": "T"}.get(ind.name, ind.name)
        parts.append(
            rf"\underbrace{{\mathbb{{1}}[\texttt{{{ind.installed}}} \ge \texttt{{{ind.minimum}}}]}}_{{{sym}:\ {ind.value}}}"
        )
    return r"\mathrm{Compatible} = " + r" \times ".join(parts) + f" = {check.result.value}"


def latex_per_op(t: formulas.OpTime) -> str:
    us = 1e6
    return (
        rf"T_{{\mathrm{{ROCm}}}}(op_i) = {_g(t.dispatch_s * us)} + {_g(t.kernel_s * us)} + {_g(t.sync_s * us)}"
        rf" = {_g(t.total_s * us)}\ \mu\mathrm{{s}}"
    )


def latex_throughput(batch: float, t_compute_s: float, t_transfer_s: float, prefetch: bool, value: float) -> str:
    ms = 1e3
    denom = (
        rf"\max({_g(t_compute_s * ms)},\ {_g(t_transfer_s * ms)})\ \mathrm{{ms}}"
        if prefetch
        else rf"({_g(t_compute_s * ms)} + {_g(t_transfer_s * ms)})\ \mathrm{{ms}}"
    )
    return rf"\mathrm{{Throughput}} = \frac{{{_g(batch)}}}{{{denom}}} = {_g(value)}\ \mathrm{{samples/s}}"


def latex_coverage(result: CoverageResult) -> str:
    return (
        rf"R_{{\mathrm{{coverage}}}} = \frac{{{result.n_supported}}}{{{result.n_total}}} = {_g(result.ratio)}"
    )


def latex_speedup(t_before_s: float, t_after_s: float, value: float) -> str:
    return rf"S = \frac{{{_g(t_before_s)}\ \mathrm{{s}}}}{{{_g(t_after_s)}\ \mathrm{{s}}}} = {_g(value)}"


def latex_amdahl(view: AmdahlView) -> str:
    return (
        rf"S = \frac{{1}}{{(1 - {_g(view.fraction_optimised)}) + \frac{{{_g(view.fraction_optimised)}}}"
        rf"{{{_g(view.local_speedup)}}}}} = {_g(view.speedup)}"
        rf",\quad S_{{\max}} = \frac{{1}}{{1 - {_g(view.fraction_optimised)}}} = {_g(view.ceiling)}"
    )


@dataclass(frozen=True)
class CompatGrid:
    rocm: tuple[str, ...]  # rows, newest first
    tensorflow: tuple[str, ...]  # columns, oldest first
    values: tuple[tuple[int | None, ...], ...]  # Compatible per (rocm, tf); None where the data has no minimum


@lru_cache(maxsize=64)
def compat_grid(driver: str) -> CompatGrid:
    """Compatible over every ROCm release line x every TensorFlow version the release rows list, for a driver."""
    from rocm_bridge import compat  # noqa: PLC0415

    rocm_lines = tuple(compat.choices("rocm"))
    by_version: dict[tuple[int, ...], str] = {}
    for r in compat.rows("rocm_release"):
        for tf in r.tensorflow:
            by_version.setdefault(parse_version(tf), tf)
    tfs = tuple(by_version[k] for k in sorted(by_version))
    values = []
    for rocm in rocm_lines:
        row: list[int | None] = []
        for tf in tfs:
            try:
                row.append(compat_check(driver, rocm, tf).result.value)
            except InvalidInput:
                row.append(None)
        values.append(tuple(row))
    return CompatGrid(rocm_lines, tfs, tuple(values))
