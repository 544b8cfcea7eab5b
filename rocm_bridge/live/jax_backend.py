"""JAX backend. XLA preallocates 75 % of GPU memory by default; we turn that off before jax is imported
(XLA_PYTHON_CLIENT_PREALLOCATE=false), JAX's equivalent of TensorFlow's memory growth."""

from __future__ import annotations

import contextlib
import gc
import importlib.metadata
import os
import sys

import numpy as np

from rocm_bridge.live.base import (
    CONSISTENCY_TOL,
    MATMUL_DTYPES,
    Backend,
    BackendInfo,
    DeviceInfo,
    compare,
    consistency_inputs,
    cpu_name,
    fusion_chain,
)


def _plugin_build() -> str | None:
    """'CUDA' / 'ROCm' from the installed jax GPU plugin wheel, None when there is none."""
    for dist in importlib.metadata.distributions():
        name = (dist.metadata.get("Name") or "").lower()
        if name.startswith(("jax-cuda", "jax_cuda", "jaxlib-cuda")):
            return "CUDA"
        if name.startswith(("jax-rocm", "jax_rocm")):
            return "ROCm"
    return None


class JaxBackend(Backend):
    name = "jax"

    def __init__(self) -> None:
        already = "jax" in sys.modules
        os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
        import jax
        import jax.numpy as jnp

        self.jax, self.jnp = jax, jnp
        self.memory_growth = os.environ.get("XLA_PYTHON_CLIENT_PREALLOCATE", "").lower() == "false"
        self.growth_note = "XLA_PYTHON_CLIENT_PREALLOCATE=false" + (
            " (jax was already imported: may not apply)" if already else ""
        )
        try:
            self.gpus = list(jax.devices("gpu"))
        except RuntimeError:
            self.gpus = []
        self.cpu = jax.devices("cpu")[0]
        self.dev = self.gpus[0] if self.gpus else self.cpu
        self._info: BackendInfo | None = None

    def _put(self, x):
        return self.jax.device_put(x, self.dev)

    def info(self) -> BackendInfo:
        if self._info is None:
            devices = []
            for d in self.gpus:
                stats = {}
                with contextlib.suppress(Exception):  # not every platform reports memory
                    stats = d.memory_stats() or {}
                devices.append(DeviceInfo(d.device_kind, "gpu", stats.get("bytes_limit")))
            devices.append(DeviceInfo(cpu_name(), "cpu"))
            plugin = _plugin_build()
            platform_version = None
            with contextlib.suppress(Exception):  # the attribute moved between jax versions
                platform_version = self.dev.client.platform_version
            text = (platform_version or "").lower()
            build = "ROCm" if "rocm" in text else "CUDA" if "cuda" in text else (plugin or "CPU")
            import jaxlib

            from rocm_bridge.live.monitor import cuda_driver_version, driver_version

            extra = {
                "jaxlib": getattr(jaxlib, "__version__", None),
                "platform_version": platform_version,
                "default_backend": self.jax.default_backend(),
                "driver": driver_version(),
                "cuda_driver": cuda_driver_version(),
            }
            self._info = BackendInfo("jax", self.jax.__version__, build, devices, extra)
        return self._info

    def env_check(self) -> dict:
        import time

        info = self.info()
        rng = np.random.default_rng(0)
        a_np = rng.standard_normal((512, 512), dtype=np.float32)
        t0 = time.perf_counter()
        a = self._put(a_np)
        c = a @ a
        c.block_until_ready()
        ran_on = ", ".join(str(d) for d in c.devices())
        ref = a_np.astype(np.float64) @ a_np.astype(np.float64)
        return {
            "backend": "jax",
            "version": info.version,
            "build": info.build,
            "gpus": [d.name for d in info.gpus],
            "memory_growth": self.memory_growth if self.gpus else None,
            "memory_growth_note": self.growth_note if self.gpus else "no GPU",
            "requested_device": str(self.dev),
            "seconds": time.perf_counter() - t0,
            "ran_on": ran_on,
            "on_gpu": any(d.platform != "cpu" for d in c.devices()),
            **compare(np.asarray(c), ref, 1e-2),
        }

    def free_memory_bytes(self) -> int | None:
        if not self.gpus:
            return None
        try:
            stats = self.dev.memory_stats() or {}
            return int(stats["bytes_limit"] - stats.get("bytes_in_use", 0))
        except Exception:  # noqa: BLE001
            return None

    def sync(self, out: object) -> None:
        for leaf in self.jax.tree_util.tree_leaves(out):
            if hasattr(leaf, "block_until_ready"):
                leaf.block_until_ready()

    def release(self) -> None:
        gc.collect()

    def supported_dtypes(self) -> tuple[str, ...]:
        return MATMUL_DTYPES if self.gpus else ("fp32", "bf16")

    def _dtype(self, dtype: str):
        jnp = self.jnp
        return {"fp32": jnp.float32, "tf32": jnp.float32, "fp16": jnp.float16, "bf16": jnp.bfloat16}[dtype]

    def _precisions(self, dtype: str) -> list:
        lax = self.jax.lax
        presets = getattr(lax, "DotAlgorithmPreset", None)
        if dtype == "fp32":
            return ([presets.F32_F32_F32] if presets else []) + [lax.Precision.HIGHEST]
        if dtype == "tf32":
            return ([presets.TF32_TF32_F32] if presets else []) + [lax.Precision.DEFAULT]
        return [None]

    def _randn(self, shape, dtype, seed: int):
        jax = self.jax
        with jax.default_device(self.dev):
            return jax.random.normal(jax.random.PRNGKey(seed), shape, dtype=dtype)

    def make_matmul(self, n: int, dtype: str):
        jax = self.jax
        a = self._randn((n, n), self._dtype(dtype), 1)
        b = self._randn((n, n), self._dtype(dtype), 2) / float(n) ** 0.5  # chained products stay O(1); a Python float keeps the dtype
        last_exc: Exception | None = None
        k = matmuls_per_call(n) if self.gpus else 1
        for precision in self._precisions(dtype):
            f = jax.jit(lambda x, y, p=precision: _chained_dots(jax, x, y, p, k))
            try:
                f(a, b).block_until_ready()
            except Exception as exc:  # noqa: BLE001 - this jax/device lacks the preset: try the next form
                if self.is_oom(exc):
                    raise
                last_exc = exc
                continue
            run = lambda f=f: f(a, b)  # noqa: E731
            run.matmuls_per_call = k
            return run
        raise last_exc or RuntimeError("no matmul precision available")

    def make_h2d(self, nbytes: int):
        jax = self.jax
        host = np.full((nbytes,), 7, dtype=np.uint8)
        fns = {"pageable": lambda: jax.device_put(host, self.dev), "pinned": None}
        try:
            from jax.sharding import SingleDeviceSharding

            pinned = jax.device_put(host, SingleDeviceSharding(self.dev, memory_kind="pinned_host"))
            pinned.block_until_ready()
            on_dev = SingleDeviceSharding(self.dev, memory_kind="device")
            jax.device_put(pinned, on_dev).block_until_ready()
            fns["pinned"] = lambda: jax.device_put(pinned, on_dev)
        except Exception:  # noqa: BLE001 - memory kinds are not supported everywhere: report pinned as unsupported
            fns["pinned"] = None
        return fns

    def make_tiny_op(self):
        x = self._put(np.ones((1,), np.float32))
        f = self.jax.jit(lambda v: v + 1.0)
        return lambda: f(x)

    def make_big_op(self, numel: int):
        x = self._randn((numel,), self.jnp.float32, 5)
        f = self.jax.jit(lambda v: v * 2.0)
        return lambda: f(x)

    def make_fusion(self, numel: int):
        jnp = self.jnp
        x = self._randn((numel,), jnp.float32, 6)
        fused = self.jax.jit(lambda v: fusion_chain(v, jnp))
        return (lambda: fusion_chain(x, jnp)), (lambda: fused(x)), "jax.jit (XLA fusion) vs op-by-op dispatch"

    def make_train_step(self, mixed: bool, batch: int, width: int):
        jax, jnp = self.jax, self.jnp
        keys = jax.random.split(jax.random.PRNGKey(0), 4)
        with jax.default_device(self.dev):
            params = [
                jax.random.normal(keys[0], (width, width), jnp.float32) / width**0.5,
                jax.random.normal(keys[1], (width, width), jnp.float32) / width**0.5,
                jax.random.normal(keys[2], (width, 10), jnp.float32) / width**0.5,
            ]
            x = jax.random.normal(keys[3], (batch, width), jnp.float32)
            y = jnp.arange(batch) % 10
        compute = jnp.bfloat16 if mixed else jnp.float32
        precision = None if mixed else jax.lax.Precision.HIGHEST

        def loss(p, xb, yb):
            h = xb.astype(compute)
            for w in p[:-1]:
                h = jax.nn.relu(jnp.dot(h, w.astype(compute), precision=precision))
            logits = jnp.dot(h, p[-1].astype(compute), precision=precision).astype(jnp.float32)
            logp = jax.nn.log_softmax(logits)
            return -jnp.mean(jnp.take_along_axis(logp, yb[:, None], axis=1))

        @jax.jit
        def step(p, xb, yb):
            grads = jax.grad(loss)(p, xb, yb)
            return [w - 1e-3 * g for w, g in zip(p, grads, strict=True)]

        state = [params]

        def run():
            state[0] = step(state[0], x, y)
            return state[0]

        return run, ("bf16 compute, fp32 weights" if mixed else "fp32 (precision=HIGHEST)")

    def _pipeline_step(self, features: int):
        jax, jnp = self.jax, self.jnp
        w = self._randn((features, features), jnp.float32, 7) / features**0.5

        @jax.jit
        def step(x):
            for _ in range(4):
                x = jnp.tanh(x @ w)
            return x

        return lambda x_host: step(jax.device_put(x_host, self.dev))

    def consistency(self) -> list[dict]:
        jax, jnp = self.jax, self.jnp
        inp = consistency_inputs()

        def run(dev):
            a, b, v, lg = (jax.device_put(inp[k], dev) for k in ("a", "b", "v", "logits"))
            res = {
                "matmul": a @ b,
                "sum": jnp.sum(v),
                "softmax": jax.nn.softmax(lg, axis=-1),
                "exp": jnp.exp(v),
                "tanh": jnp.tanh(v),
            }
            return {k: np.asarray(r) for k, r in res.items()}

        cpu = run(self.cpu)
        dev = run(self.dev)
        note = f"jax_default_matmul_precision = {jax.config.jax_default_matmul_precision!r}"
        return [
            {"op": op, **compare(dev[op], cpu[op], CONSISTENCY_TOL[op]), "note": note if op == "matmul" else ""}
            for op in CONSISTENCY_TOL
        ]


def matmuls_per_call(n: int) -> int:
    """How many n x n products one jitted call runs on a GPU. A JAX call costs ~40 us to dispatch (measured on an
    H200), more than a 1024^3 product takes, so single calls would time dispatch, not the kernel; JAX's own way is
    to put more work in one jit. About 0.2 ms of kernels per call: 64 at n=1024, 8 at 2048, 1 from 4096."""
    return max(1, min(64, (4096 // max(n, 1)) ** 3))


def _chained_dots(jax, x, y, precision, k: int):
    """k dependent products in one XLA program: x @ y @ y ... Each product consumes the previous result, so XLA
    can neither merge identical products (CSE) nor drop them; y is scaled by 1/sqrt(n) (make_matmul) so the
    values stay of order one in fp16 too."""
    out = x
    for _ in range(k):
        out = jax.lax.dot(out, y, precision=precision)
    return out
