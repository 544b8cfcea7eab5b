"""The Formula lab's hardware presets: peak rates from data/gpu_specs.csv, host links with a named source, and
"your machine" from a rocm_bridge.hardware.measured.HostMeasurement (re-exported by rocm_bridge.formulas.lab)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rocm_bridge import hardware
from rocm_bridge.errors import InvalidInput
from rocm_bridge.hardware.measured import HostMeasurement

HOST_PRESET = "host"


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
