"""A numpy 'framework' for testing the suite's logic without TensorFlow, PyTorch or JAX (not a stub: it does
the real arithmetic on the CPU, so timings, bounds and consistency rows are real)."""

from __future__ import annotations

import numpy as np

from rocm_bridge.live.base import (
    CONSISTENCY_TOL,
    Backend,
    BackendInfo,
    DeviceInfo,
    compare,
    consistency_inputs,
    fusion_chain,
    host_batch,
    thread_pipeline,
)


class FakeOOM(RuntimeError):
    """What a framework raises when the device is full (message as PyTorch words it)."""

    def __init__(self) -> None:
        super().__init__("CUDA out of memory. Tried to allocate 2.00 GiB")


class NumpyBackend(Backend):
    name = "numpy"

    def __init__(self, gpu_name: str | None = None, free_bytes: int | None = None, oom_on: tuple[str, ...] = ()):
        self.gpu_name = gpu_name
        self.free = free_bytes
        self.oom_on = oom_on
        self.made: list[tuple] = []
        self.released = 0

    def info(self) -> BackendInfo:
        devices = [DeviceInfo(self.gpu_name, "gpu", 1 << 34)] if self.gpu_name else []
        return BackendInfo("numpy", np.__version__, "CPU", devices + [DeviceInfo("CPU: test", "cpu")])

    def env_check(self) -> dict:
        return {"backend": "numpy", "gpus": [], "ran_on": "cpu", "on_gpu": False, "ok": True}

    def free_memory_bytes(self):
        return self.free

    def sync(self, out):
        pass

    def release(self):
        self.released += 1

    def _maybe_oom(self, what):
        if what in self.oom_on:
            raise FakeOOM()

    def supported_dtypes(self):
        return ("fp32", "fp16")

    def make_matmul(self, n, dtype):
        self._maybe_oom("matmul")
        self.made.append(("matmul", n, dtype))
        dt = np.float32 if dtype == "fp32" else np.float16
        rng = np.random.default_rng(n)
        a, b = rng.standard_normal((n, n)).astype(dt), rng.standard_normal((n, n)).astype(dt)
        return lambda: a @ b

    def make_h2d(self, nbytes):
        self.made.append(("h2d", nbytes))
        src = np.full(nbytes, 7, np.uint8)
        dst = np.empty_like(src)
        return {"pageable": lambda: np.copyto(dst, src), "pinned": None}

    def make_tiny_op(self):
        x = np.ones(1, np.float32)
        return lambda: x + 1

    def make_big_op(self, numel):
        self._maybe_oom("big")
        x = np.ones(numel, np.float32)
        return lambda: x * 2

    def make_fusion(self, numel):
        x = np.linspace(0.1, 1, numel, dtype=np.float32)
        return (lambda: fusion_chain(x, np)), (lambda: np.exp(np.tanh(x))), "numpy (no fusion)"

    def make_train_step(self, mixed, batch, width):
        w = np.ones((width, width), np.float16 if mixed else np.float32)
        x = np.ones((batch, width), w.dtype)
        return (lambda: x @ w), ("fp16" if mixed else "fp32")

    def make_pipeline(self, n_batches, batch, features, prefetch):
        return lambda: thread_pipeline(
            lambda r: host_batch(r, batch, features), lambda x: x.sum(), self.sync, n_batches, prefetch
        )

    def make_pipeline_parts(self, batch, features):
        rng = np.random.default_rng(0)
        ready = host_batch(rng, batch, features)
        return (lambda: host_batch(rng, batch, features)), (lambda: ready.sum())

    def consistency(self):
        inp = consistency_inputs()
        ref = {
            "matmul": inp["a"] @ inp["b"],
            "sum": inp["v"].sum(),
            "softmax": np.exp(inp["logits"]),
            "exp": np.exp(inp["v"]),
            "tanh": np.tanh(inp["v"]),
        }
        return [{"op": op, **compare(ref[op], ref[op], CONSISTENCY_TOL[op]), "note": ""} for op in CONSISTENCY_TOL]
