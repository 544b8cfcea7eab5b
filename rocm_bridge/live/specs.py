"""Match a device name reported by a framework to a row of data/gpu_specs.csv, and read its datasheet peaks.

Framework names and table models differ ("NVIDIA H200" vs "H200 SXM", "NVIDIA A100-SXM4-80GB" vs
"A100 80GB SXM4"), so matching is by the model token (h200, a100, mi250x) plus form factor and memory size
when several rows share a token. An unknown device gives None: the page says "not in table" rather than guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rocm_bridge.data import read_csv
from rocm_bridge.hardware import gcd_count, parse_figure

SPEC_FILE = "gpu_specs.csv"
_TOKEN = re.compile(r"[a-z0-9]+")
_FORM_FACTORS = ("pcie", "sxm", "nvl", "oam")
DTYPE_COLUMNS = {
    "fp32": "fp32_tflops",
    "tf32": "fp32_matrix_or_tf32_tflops",
    "fp16": "fp16_tflops",
    "bf16": "bf16_tflops",
}


@dataclass(frozen=True)
class GpuSpec:
    vendor: str
    model: str
    memory_gb: float | None
    memory_bandwidth_tbs: float | None
    peaks_tflops: dict  # dtype -> datasheet peak per device (None: not sourced / not supported)
    per_device_note: str  # "" or why the table's package figure was divided (MI250: 2 GCDs)
    source: str


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower().replace("-", " ").replace("_", " "))


def _form_factor(tokens: list[str]) -> str | None:
    for tok in tokens:
        for ff in _FORM_FACTORS:
            if tok.startswith(ff):
                return ff
    return None


def _model_key(model: str) -> str:
    """The token that names the chip: 'H200 SXM' -> 'h200', 'Instinct MI250X' -> 'mi250x'."""
    toks = [
        t
        for t in _tokens(model)
        if any(c.isdigit() for c in t) and not t.endswith("gb") and not t.startswith(_FORM_FACTORS)
    ]
    return toks[0] if toks else ""


def match_row(device_name: str, memory_total_bytes: int | None = None) -> dict | None:
    """The gpu_specs.csv row for this device name, or None when the table does not have it."""
    if not device_name:
        return None
    dev_tokens = _tokens(device_name)
    candidates = [row for row in read_csv(SPEC_FILE) if _model_key(row["model"]) in dev_tokens]
    if not candidates:
        return None
    dev_ff = _form_factor(dev_tokens)
    if dev_ff:
        candidates = [r for r in candidates if _form_factor(_tokens(r["model"])) in (dev_ff, None)]
    else:
        # A plain name ("NVIDIA H200") is the SXM part by NVIDIA's naming; PCIe/NVL cards say so in the name.
        candidates = [r for r in candidates if _form_factor(_tokens(r["model"])) != "pcie"] or candidates
    named_gb = next((int(t[:-2]) for t in dev_tokens if t.endswith("gb") and t[:-2].isdigit()), None)
    if named_gb is not None:
        # "A100-PCIE-40GB" is not the 80 GB row: a memory size in the name must agree with the table.
        candidates = [r for r in candidates if parse_figure(r["memory_gb"]) in (None, float(named_gb))]
    if len(candidates) > 1:
        dev_gb = named_gb if named_gb is not None else (memory_total_bytes / 1e9 if memory_total_bytes else None)
        candidates.sort(
            key=lambda r: (
                -len(_model_key(r["model"])),
                abs((parse_figure(r["memory_gb"]) or 0) - dev_gb) if dev_gb is not None else 0,
            )
        )
    return candidates[0] if candidates else None


def lookup(device_name: str, memory_total_bytes: int | None = None) -> GpuSpec | None:
    row = match_row(device_name, memory_total_bytes)
    if row is None:
        return None
    # Software sees each GCD as one device, while the table gives the whole package (MI250: 2 GCDs).
    divisor = gcd_count(row["notes"])
    note = f"package figure / {divisor} GCDs" if divisor > 1 else ""
    peaks: dict[str, float | None] = {}
    for dtype, col in DTYPE_COLUMNS.items():
        value = parse_figure(row[col])
        if dtype == "tf32" and row["vendor"] == "AMD" and "CDNA3" not in row["architecture"]:
            value = None  # CDNA1/2 have no TF32: that column holds FP32 matrix there
        peaks[dtype] = value / divisor if value is not None else None
    mem = parse_figure(row["memory_gb"])
    bw = parse_figure(row["memory_bandwidth_tbs"])
    return GpuSpec(
        vendor=row["vendor"],
        model=row["model"],
        memory_gb=mem / divisor if mem is not None else None,
        memory_bandwidth_tbs=bw / divisor if bw is not None else None,
        peaks_tflops=peaks,
        per_device_note=note,
        source=row["source"],
    )


def pct_of_peak(tflops: float, spec: GpuSpec | None, dtype: str) -> float | None:
    if spec is None:
        return None
    peak = spec.peaks_tflops.get(dtype)
    return 100.0 * tflops / peak if peak else None
