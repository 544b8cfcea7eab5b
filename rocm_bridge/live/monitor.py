"""GPU monitor: utilisation, memory, temperature and power via nvidia-ml-py (NVIDIA) or amdsmi (AMD).

`sample()` returns one reading per GPU, or [] when there is no GPU or no management library; the page then
says "no GPU". `History` keeps a bounded window of readings for the live chart.
"""

from __future__ import annotations

import collections
import threading
import time
from dataclasses import asdict, dataclass

_NVML_LOCK = threading.Lock()
_nvml_ready: bool | None = None


@dataclass(frozen=True)
class GpuReading:
    t: float  # time.time()
    index: int
    name: str
    vendor: str  # "NVIDIA" | "AMD"
    util_pct: float | None
    mem_used_bytes: int | None
    mem_total_bytes: int | None
    temp_c: float | None
    power_w: float | None

    def as_dict(self) -> dict:
        return asdict(self)


def _nvml():
    """The pynvml module, initialised once; None when the library or the driver is missing."""
    global _nvml_ready
    with _NVML_LOCK:
        if _nvml_ready is False:
            return None
        try:
            import pynvml
        except ImportError:
            _nvml_ready = False
            return None
        if not _nvml_ready:
            try:
                pynvml.nvmlInit()
            except Exception:  # NVMLError: no driver / no GPU
                _nvml_ready = False
                return None
            _nvml_ready = True
        return pynvml


def _safe(fn, *args, default=None):
    try:
        return fn(*args)
    except Exception:  # one sensor missing must not hide the others
        return default


def _sample_nvidia(now: float) -> list[GpuReading]:
    nv = _nvml()
    if nv is None:
        return []
    out = []
    count = _safe(nv.nvmlDeviceGetCount, default=0) or 0
    for i in range(count):
        h = _safe(nv.nvmlDeviceGetHandleByIndex, i)
        if h is None:
            continue
        name = _safe(nv.nvmlDeviceGetName, h, default="NVIDIA GPU")
        if isinstance(name, bytes):
            name = name.decode(errors="replace")
        util = _safe(nv.nvmlDeviceGetUtilizationRates, h)
        mem = _safe(nv.nvmlDeviceGetMemoryInfo, h)
        temp = _safe(nv.nvmlDeviceGetTemperature, h, getattr(nv, "NVML_TEMPERATURE_GPU", 0))
        power_mw = _safe(nv.nvmlDeviceGetPowerUsage, h)
        out.append(
            GpuReading(
                now,
                i,
                str(name),
                "NVIDIA",
                float(util.gpu) if util is not None else None,
                int(mem.used) if mem is not None else None,
                int(mem.total) if mem is not None else None,
                float(temp) if temp is not None else None,
                power_mw / 1000.0 if power_mw is not None else None,
            )
        )
    return out


def _sample_amd(now: float) -> list[GpuReading]:
    try:
        import amdsmi
    except ImportError:
        return []
    try:
        amdsmi.amdsmi_init()
        handles = amdsmi.amdsmi_get_processor_handles()
    except Exception:
        return []
    out = []
    for i, h in enumerate(handles):
        asic = _safe(amdsmi.amdsmi_get_gpu_asic_info, h, default={}) or {}
        act = _safe(amdsmi.amdsmi_get_gpu_activity, h, default={}) or {}
        vram = _safe(amdsmi.amdsmi_get_gpu_vram_usage, h, default={}) or {}
        power = _safe(amdsmi.amdsmi_get_power_info, h, default={}) or {}
        temp = _safe(
            amdsmi.amdsmi_get_temp_metric,
            h,
            amdsmi.AmdSmiTemperatureType.EDGE,
            amdsmi.AmdSmiTemperatureMetric.CURRENT,
        )

        def num(value):
            try:
                return float(value)
            except (TypeError, ValueError):
                return None

        used_mb, total_mb = num(vram.get("vram_used")), num(vram.get("vram_total"))
        out.append(
            GpuReading(
                now,
                i,
                str(asic.get("market_name") or "AMD GPU"),
                "AMD",
                num(act.get("gfx_activity")),
                int(used_mb * 2**20) if used_mb is not None else None,
                int(total_mb * 2**20) if total_mb is not None else None,
                num(temp),
                num(power.get("current_socket_power") or power.get("average_socket_power")),
            )
        )
    return out


def sample() -> list[GpuReading]:
    """One reading per visible GPU ([] means: no GPU, or no management library to read it)."""
    now = time.time()
    return _sample_nvidia(now) or _sample_amd(now)


def driver_version() -> str | None:
    nv = _nvml()
    if nv is not None:
        version = _safe(nv.nvmlSystemGetDriverVersion)
        if isinstance(version, bytes):
            version = version.decode()
        if version:
            return str(version)
    try:
        with open("/sys/module/amdgpu/version", encoding="ascii") as fh:
            return "amdgpu " + fh.read().strip()
    except OSError:
        return None


def cuda_driver_version() -> str | None:
    """The CUDA version the NVIDIA driver supports ("13.0"), as nvidia-smi prints it; None elsewhere."""
    nv = _nvml()
    if nv is None:
        return None
    value = _safe(nv.nvmlSystemGetCudaDriverVersion)
    if not value:
        return None
    return f"{value // 1000}.{value % 1000 // 10}"


class History:
    """A bounded window of readings (thread-safe: the monitor fragment and a benchmark may share it)."""

    def __init__(self, maxlen: int = 120) -> None:
        self._rows: collections.deque[GpuReading] = collections.deque(maxlen=maxlen)
        self._lock = threading.Lock()

    def add(self, readings: list[GpuReading]) -> None:
        with self._lock:
            self._rows.extend(readings)

    def rows(self) -> list[GpuReading]:
        with self._lock:
            return list(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def series(self, metric: str) -> dict[str, tuple[list[float], list[float]]]:
        """{"0: NVIDIA H200": ([seconds since first reading], [values])} for one metric, skipping missing values."""
        rows = self.rows()
        if not rows:
            return {}
        t0 = rows[0].t
        out: dict[str, tuple[list[float], list[float]]] = {}
        for r in rows:
            value = getattr(r, metric)
            if value is None:
                continue
            if metric.startswith("mem_") and isinstance(value, int):
                value = value / 2**30
            xs, ys = out.setdefault(f"{r.index}: {r.name}", ([], []))
            xs.append(r.t - t0)
            ys.append(float(value))
        return out
