"""What every framework backend provides to the benchmark suite.

A backend builds small callables (one matmul, one host->device copy, one training step...) and knows how to
wait for its device. The suite (rocm_bridge.live.suite) does the timing, the budget and the bookkeeping, so
the three frameworks are measured the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

MATMUL_DTYPES: tuple[str, ...] = ("fp32", "tf32", "fp16", "bf16")
BYTES_PER = {"fp32": 4, "tf32": 4, "fp16": 2, "bf16": 2}
FUSION_CHAIN_OPS = 8  # elementwise ops in the fusion benchmark's chain


@dataclass
class DeviceInfo:
    name: str
    kind: str  # "gpu" or "cpu"
    memory_total_bytes: int | None = None

    def as_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "memory_total_bytes": self.memory_total_bytes}


@dataclass
class BackendInfo:
    backend: str
    version: str
    build: str  # "ROCm" | "CUDA" | "CPU"
    devices: list[DeviceInfo] = field(default_factory=list)
    extra: dict = field(default_factory=dict)  # cuda / hip / driver versions, as the framework reports them

    @property
    def gpus(self) -> list[DeviceInfo]:
        return [d for d in self.devices if d.kind == "gpu"]

    def as_dict(self) -> dict:
        return {
            "backend": self.backend,
            "version": self.version,
            "build": self.build,
            "devices": [d.as_dict() for d in self.devices],
            "extra": dict(self.extra),
        }


def fusion_chain(x, ops):
    """The elementwise chain used by the fusion benchmark; `ops` is the framework's module (torch, jnp, tf.math).

    Eight ops, each reading and writing the whole tensor when run one by one; fused, one pass."""
    y = x * 1.5
    y = y + 0.5
    y = ops.sin(y)
    y = y * x
    y = ops.tanh(y)
    y = y - 0.25
    y = y * 0.5
    return ops.exp(y)


def consistency_inputs(seed: int = 7) -> dict[str, np.ndarray]:
    """Fixed random inputs for the CPU-vs-device check (never zeros: zeros hide wrong results)."""
    rng = np.random.default_rng(seed)
    return {
        "a": rng.standard_normal((256, 256)).astype(np.float32),
        "b": rng.standard_normal((256, 256)).astype(np.float32),
        "v": rng.standard_normal((1 << 20,)).astype(np.float32),
        "logits": (rng.standard_normal((64, 1000)) * 4).astype(np.float32),
    }


# Relative tolerances for float32 results of the same op on two devices (METHOD: fp32 lands far under 1e-3;
# tf32 near 3e-4, so a GPU that silently uses TF32 for matmul fails the 1e-4 matmul check, as it should).
CONSISTENCY_TOL = {"matmul": 1e-4, "sum": 1e-5, "softmax": 1e-5, "exp": 1e-5, "tanh": 1e-5}


def compare(device_out: np.ndarray, cpu_out: np.ndarray, tol: float) -> dict:
    device_out = np.asarray(device_out, dtype=np.float64)
    cpu_out = np.asarray(cpu_out, dtype=np.float64)
    finite = bool(np.all(np.isfinite(device_out)) and np.all(np.isfinite(cpu_out)))
    diff = np.abs(device_out - cpu_out)
    max_abs = float(diff.max()) if diff.size else 0.0
    scale = float(np.abs(cpu_out).max()) if cpu_out.size else 0.0
    max_rel = max_abs / scale if scale > 0 else max_abs
    return {"max_abs": max_abs, "max_rel": max_rel, "tol": tol, "ok": finite and max_rel <= tol}


class Backend:
    """Interface; see TorchBackend for the reference implementation."""

    name = "base"

    # --- environment -------------------------------------------------------------------------------
    def info(self) -> BackendInfo:
        raise NotImplementedError

    def env_check(self) -> dict:
        """List GPUs, memory growth, a matmul on the first GPU and the device it really ran on."""
        raise NotImplementedError

    @property
    def has_gpu(self) -> bool:
        return bool(self.info().gpus)

    def device(self) -> DeviceInfo:
        info = self.info()
        return (
            info.gpus[0] if info.gpus else next((d for d in info.devices if d.kind == "cpu"), DeviceInfo("CPU", "cpu"))
        )

    def free_memory_bytes(self) -> int | None:
        """Free memory on the benchmark device, None when unknown (CPU)."""
        return None

    def sync(self, out: object) -> None:
        raise NotImplementedError

    def is_oom(self, exc: BaseException) -> bool:
        return isinstance(exc, MemoryError) or "out of memory" in str(exc).lower() or "RESOURCE_EXHAUSTED" in str(exc)

    def release(self) -> None:
        """Give cached device memory back after a benchmark."""

    # --- benchmark building blocks -----------------------------------------------------------------
    def supported_dtypes(self) -> tuple[str, ...]:
        return MATMUL_DTYPES

    def make_matmul(self, n: int, dtype: str) -> Callable[[], object]:
        """One timed call: an n x n x n product (or `fn.matmuls_per_call` of them, when the backend batches
        small products to keep dispatch out of the measurement)."""
        raise NotImplementedError

    def make_h2d(self, nbytes: int) -> dict[str, Callable[[], object] | None]:
        """{"pageable": fn, "pinned": fn or None}; each fn copies nbytes from host to device."""
        raise NotImplementedError

    def make_tiny_op(self) -> Callable[[], object]:
        raise NotImplementedError

    def make_big_op(self, numel: int) -> Callable[[], object]:
        """y = x * 2 over numel float32 values: one read and one write per element."""
        raise NotImplementedError

    def make_fusion(self, numel: int) -> tuple[Callable[[], object], Callable[[], object], str]:
        """(unfused, fused, how it fuses)."""
        raise NotImplementedError

    def make_train_step(self, mixed: bool, batch: int, width: int) -> tuple[Callable[[], object], str]:
        """One optimizer step of a small MLP; returns (step, precision label)."""
        raise NotImplementedError

    def _pipeline_step(self, features: int) -> Callable[[np.ndarray], object]:
        """The small device step that consumes one host batch (copy to the device, a matmul, a reduction)."""
        raise NotImplementedError

    def make_pipeline(self, n_batches: int, batch: int, features: int, prefetch: bool) -> Callable[[], int]:
        """Consume n_batches from an input pipeline (each fed to a small device step); returns items seen.
        This is the plain-Python pipeline (a producer thread when prefetching); TensorFlow overrides it with tf.data."""
        consume = self._pipeline_step(features)
        return lambda: thread_pipeline(
            lambda r: host_batch(r, batch, features), consume, self.sync, n_batches, prefetch
        )

    def make_pipeline_parts(self, batch: int, features: int) -> tuple[Callable[[], object], Callable[[], object]]:
        """(produce one batch on the host, run the device step on a ready batch): the formula's two terms."""
        rng = np.random.default_rng(0)
        consume = self._pipeline_step(features)
        ready = host_batch(rng, batch, features)
        return (lambda: host_batch(rng, batch, features)), (lambda: consume(ready))

    def consistency(self) -> list[dict]:
        """The same ops on CPU and on the benchmark device; rows of compare() plus op and device."""
        raise NotImplementedError


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return "CPU: " + line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform

    return "CPU: " + (platform.processor() or platform.machine() or "unknown")


def host_batch(rng: np.random.Generator, batch: int, features: int) -> np.ndarray:
    """Host-side preprocessing of one synthetic batch (stands in for decode + normalise + augment)."""
    x = rng.standard_normal((batch, features), dtype=np.float32)
    x -= x.mean(axis=1, keepdims=True)
    x /= x.std(axis=1, keepdims=True) + 1e-6
    return np.clip(x, -3.0, 3.0)


def thread_pipeline(
    produce: Callable[[np.random.Generator], np.ndarray],
    consume: Callable[[np.ndarray], object],
    sync: Callable[[object], None],
    n_batches: int,
    prefetch: bool,
    workers: int = 2,
    depth: int = 4,
) -> int:
    """Feed n_batches through consume; with prefetch, `workers` threads produce ahead into a bounded queue
    (numpy releases the GIL while it works, so production overlaps the device step)."""
    import queue
    import threading

    if not prefetch:
        rng = np.random.default_rng(0)
        out = None
        for _ in range(n_batches):
            out = consume(produce(rng))
        sync(out)
        return n_batches
    q: queue.Queue = queue.Queue(maxsize=depth)
    lock = threading.Lock()
    remaining = [n_batches]
    errors: list[BaseException] = []

    def worker(seed: int) -> None:
        rng = np.random.default_rng(seed)
        while True:
            with lock:
                if remaining[0] <= 0:
                    return
                remaining[0] -= 1
            try:
                q.put(produce(rng))
            except BaseException as exc:  # surfaced to the consumer below
                errors.append(exc)
                q.put(None)
                return

    threads = [threading.Thread(target=worker, args=(i + 1,), daemon=True) for i in range(workers)]
    for th in threads:
        th.start()
    out = None
    for _ in range(n_batches):
        item = q.get()
        if item is None:
            break
        out = consume(item)
    for th in threads:
        th.join(timeout=30)
    if errors:
        raise errors[0]
    sync(out)
    return n_batches
