"""The small record of what the live lab measured on the host GPU ("your machine").

The live lab writes one HostMeasurement into st.session_state[SESSION_KEY]; the hardware page puts it on the
roofline and the bars, and the formula lab offers it as a preset. `recorded=True` marks results shipped with
the app (measured on a real GPU elsewhere), which pages must label as recorded, not as this machine.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

SESSION_KEY = "host_measurement"
DTYPES: tuple[str, ...] = ("fp32", "tf32", "fp16", "bf16")


@dataclass(frozen=True)
class HostMeasurement:
    device_name: str  # as the framework reports it, e.g. "NVIDIA H200"
    vendor: str  # "AMD" | "NVIDIA" | "CPU"
    backend: str  # "tensorflow" | "torch" | "jax"
    backend_version: str
    measured_at: str  # ISO 8601 date-time
    recorded: bool = False  # True: shipped recorded results, not this machine
    matmul_tflops: dict[str, float] = field(default_factory=dict)  # best TFLOP/s per dtype in DTYPES
    h2d_pageable_gbs: float | None = None
    h2d_pinned_gbs: float | None = None
    d2d_gbs: float | None = None  # device-to-device copy bandwidth, the roofline's memory roof
    dispatch_us: float | None = None  # per-op dispatch + sync overhead of a tiny op
    matched_model: str | None = None  # the gpu_specs.csv model this device matched, if any
    software: dict[str, str] = field(default_factory=dict)  # driver, CUDA/ROCm, framework versions

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HostMeasurement:
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})

    @property
    def best_tflops(self) -> float | None:
        return max(self.matmul_tflops.values(), default=None)


def from_session(state: Any) -> HostMeasurement | None:
    """The measurement in a session-state mapping, accepting the record or its dict form."""
    value = state.get(SESSION_KEY) if hasattr(state, "get") else None
    if isinstance(value, HostMeasurement):
        return value
    if isinstance(value, dict):
        return HostMeasurement.from_dict(value)
    return None
