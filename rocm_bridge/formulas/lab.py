"""The models behind the Formula lab's charts: pure functions over the five formulas, with sourced presets.

- Per-op time: a list of ops on a timeline, and XLA-style fusion that merges the dispatch and sync of
  neighbouring fusible ops (the time saved is the dispatch + sync the fused ops no longer pay).
- Throughput: a step model t_compute(B) = overhead + B * FLOPs / (peak * efficiency) and
  t_transfer(B) = B * (bytes / link bandwidth + input-pipeline time per sample); prefetch overlaps the two (step = max instead of sum); mixed
  precision scales t_compute by the ratio of the preset's FP32-matrix/TF32 and FP16 peaks.
- Coverage: R over an example model's operator types, and what each uncovered op costs (a round trip over
  the host link plus a synchronisation).
- Speedup: before/after and an Amdahl view (which part was optimised, how far the whole can go).
- Compatible: installed driver / ROCm / TensorFlow against minimums read from data/tf_rocm_compat.csv
  (rocm_bridge.formulas.compat_model).

Hardware presets (rocm_bridge.formulas.presets) come from data/gpu_specs.csv (peak rates) with a named source for the host-link bandwidth;
op times come from data/formula_lab_recorded.json (measured on an H200 with bench/formula_lab_op_times.py);
"your machine" comes from a rocm_bridge.hardware.measured.HostMeasurement. No module-level streamlit or pandas.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from rocm_bridge import formulas
from rocm_bridge.data import data_path
from rocm_bridge.errors import InvalidInput

# re-exported: the pages and the handout use them as formula_lab.<name>
from rocm_bridge.formulas.compat_model import (  # noqa: F401
    CompatCheck,
    CompatGrid,
    compat_check,
    compat_choices,
    compat_grid,
)
from rocm_bridge.formulas.presets import (  # noqa: F401
    HOST_PRESET,
    PRESET_KEYS,
    HardwarePreset,
    hardware_preset,
    host_preset,
    link_quotes,
    presets,
)

RECORDED_OPS = "formula_lab_recorded.json"


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


def _number(x: float, digits: int, infinity: str, power: Callable[[str, int], str]) -> str:
    """0, infinity, an everyday number, or power(mantissa, exponent): the shape both formatters share."""
    if x == 0:
        return "0"
    if math.isinf(x):
        return infinity
    mantissa, exp = _parts(x, digits)
    return mantissa if exp is None else power(mantissa, exp)


def _g(x: float, digits: int = 4) -> str:
    r"""A number for LaTeX: 4 significant digits, powers of ten as 1.29 \times 10^{8} (never '1.290e+08').

    >>> _g(1.29e8), _g(2560.0), _g(2.5e-5)
    ('1.29 \\times 10^{8}', '2560', '2.5 \\times 10^{-5}')
    """
    return _number(x, digits, "\\infty", lambda mantissa, exp: rf"{mantissa} \times 10^{{{exp}}}")


def fmt(x: float, digits: int = 4) -> str:
    """A number for text (metrics, captions, messages): 1.29 × 10⁸ rather than 1.290e+08.

    >>> fmt(1.29e8), fmt(0.1505), fmt(0)
    ('1.29 × 10⁸', '0.1505', '0')
    """
    return _number(x, digits, "∞", lambda mantissa, exp: f"{mantissa} × 10{str(exp).translate(_SUPERSCRIPT)}")


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
