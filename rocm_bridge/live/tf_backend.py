"""TensorFlow backend: the course's framework, and its honest environment check.

`with tf.device("/GPU:0")` silently falls back to the CPU when there is no GPU (soft placement), so the
check reports the device the result tensor actually lives on instead of claiming success.
"""

from __future__ import annotations

import contextlib
import gc
import os

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


def build_type(tf_module) -> str:
    if tf_module.test.is_built_with_rocm():
        return "ROCm"
    if tf_module.test.is_built_with_cuda():
        return "CUDA"
    return "CPU"


class TensorFlowBackend(Backend):
    name = "tensorflow"

    def __init__(self) -> None:
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
        import tensorflow as tf

        self.tf = tf
        self.gpus = tf.config.list_physical_devices("GPU")
        self.growth: dict[str, bool | None] = {}
        self.growth_error: str | None = None
        for gpu in self.gpus:
            # Memory growth must be set before the GPU is first used; afterwards TF raises RuntimeError and
            # keeps whatever was set, which we then report as it is.
            try:
                tf.config.experimental.set_memory_growth(gpu, True)
            except RuntimeError as exc:
                self.growth_error = str(exc)
            try:
                self.growth[gpu.name] = bool(tf.config.experimental.get_memory_growth(gpu))
            except (RuntimeError, ValueError):
                self.growth[gpu.name] = None
        self.dev = "/GPU:0" if self.gpus else "/CPU:0"
        self._info: BackendInfo | None = None
        self._tf32_saved: bool | None = None

    def info(self) -> BackendInfo:
        if self._info is None:
            tf = self.tf
            devices = []
            for gpu in self.gpus:
                details = {}
                with contextlib.suppress(RuntimeError, ValueError):
                    details = tf.config.experimental.get_device_details(gpu) or {}
                devices.append(DeviceInfo(str(details.get("device_name") or gpu.name), "gpu", None))
            devices.append(DeviceInfo(cpu_name(), "cpu"))
            build_info = {}
            with contextlib.suppress(Exception):  # optional detail
                build_info = dict(tf.sysconfig.get_build_info())
            from rocm_bridge.live.monitor import driver_version

            extra = {
                "cuda": build_info.get("cuda_version"),
                "cudnn": build_info.get("cudnn_version"),
                "rocm": build_info.get("rocm_version"),
                "keras": _keras_version(),
                "driver": driver_version(),
            }
            self._info = BackendInfo("tensorflow", tf.__version__, build_type(tf), devices, extra)
        return self._info

    def env_check(self) -> dict:
        """The course's check: list GPUs, memory growth, matmul on /GPU:0, and where it really ran."""
        import time

        tf = self.tf
        info = self.info()
        rng = np.random.default_rng(0)
        a_np = rng.standard_normal((512, 512), dtype=np.float32)
        t0 = time.perf_counter()
        with tf.device("/GPU:0"):
            a = tf.constant(a_np)
            c = tf.linalg.matmul(a, a)
        result = c.numpy()
        ran_on = c.device or "?"
        ref = a_np.astype(np.float64) @ a_np.astype(np.float64)
        return {
            "backend": "tensorflow",
            "version": info.version,
            "build": info.build,
            "gpus": [d.name for d in info.gpus],
            "memory_growth": (all(v for v in self.growth.values()) if self.growth else None),
            "memory_growth_note": self.growth_error or ("set_memory_growth(gpu, True)" if self.gpus else "no GPU"),
            "requested_device": "/GPU:0",
            "ran_on": ran_on,
            "on_gpu": "GPU" in ran_on.upper(),
            "seconds": time.perf_counter() - t0,
            **compare(result, ref, 1e-2),
        }

    def free_memory_bytes(self) -> int | None:
        if not self.gpus:
            return None
        from rocm_bridge.live.monitor import sample

        readings = sample()
        if readings and readings[0].mem_total_bytes is not None and readings[0].mem_used_bytes is not None:
            return readings[0].mem_total_bytes - readings[0].mem_used_bytes
        return None

    def sync(self, out: object) -> None:
        if not self.gpus:
            return  # eager ops on the CPU finish before they return
        sync_devices = getattr(getattr(self.tf.test, "experimental", None), "sync_devices", None)
        if sync_devices is not None:
            sync_devices()
        elif out is not None and hasattr(out, "numpy"):
            out.numpy()

    def is_oom(self, exc: BaseException) -> bool:
        return isinstance(exc, self.tf.errors.ResourceExhaustedError) or super().is_oom(exc)

    def release(self) -> None:
        if self._tf32_saved is not None:
            self.tf.config.experimental.enable_tensor_float_32_execution(self._tf32_saved)
            self._tf32_saved = None
        gc.collect()

    def supported_dtypes(self) -> tuple[str, ...]:
        return MATMUL_DTYPES if self.gpus else ("fp32", "bf16")

    def _dtype(self, dtype: str):
        tf = self.tf
        return {"fp32": tf.float32, "tf32": tf.float32, "fp16": tf.float16, "bf16": tf.bfloat16}[dtype]

    def _normal(self, shape, dtype=None, seed: int = 0):
        tf = self.tf
        with tf.device(self.dev):
            x = tf.random.stateless_normal(shape, seed=[seed, 1], dtype=tf.float32)
            return tf.cast(x, dtype) if dtype is not None and dtype != tf.float32 else x

    def make_matmul(self, n: int, dtype: str):
        tf = self.tf
        if dtype in ("fp32", "tf32"):
            if self._tf32_saved is None:
                self._tf32_saved = tf.config.experimental.tensor_float_32_execution_enabled()
            # TensorFlow turns TF32 on by default on Ampere and newer: fp32 here means TF32 off.
            tf.config.experimental.enable_tensor_float_32_execution(dtype == "tf32")
        a = self._normal((n, n), self._dtype(dtype), 1)
        b = self._normal((n, n), self._dtype(dtype), 2)

        def run():
            with tf.device(self.dev):
                return tf.linalg.matmul(a, b)

        return run

    def make_h2d(self, nbytes: int):
        tf = self.tf
        with tf.device("/CPU:0"):
            host = tf.constant(np.full((nbytes,), 7, dtype=np.uint8))

        def copy():
            with tf.device(self.dev):
                return tf.identity(host)

        # TensorFlow stages host->device copies through its own pinned buffers; it exposes no pageable/pinned
        # choice, so only one mode is measured.
        return {"pageable": copy, "pinned": None}

    def make_tiny_op(self):
        tf = self.tf
        x = self._normal((1,), seed=3)

        def run():
            with tf.device(self.dev):
                return tf.add(x, 1.0)

        return run

    def make_big_op(self, numel: int):
        tf = self.tf
        x = self._normal((numel,), seed=4)

        def run():
            with tf.device(self.dev):
                return tf.multiply(x, 2.0)

        return run

    def make_fusion(self, numel: int):
        tf = self.tf
        x = tf.abs(self._normal((numel,), seed=5)) + 0.1
        plain = tf.function(lambda v: fusion_chain(v, tf.math), jit_compile=False)
        xla = tf.function(lambda v: fusion_chain(v, tf.math), jit_compile=True)

        def run(fn):
            def inner():
                with tf.device(self.dev):
                    return fn(x)

            return inner

        plain_run = run(plain)
        plain_run()  # trace outside the timed region, as the fused variant's first call is reported apart
        return plain_run, run(xla), "tf.function(jit_compile=True) (XLA) vs jit_compile=False"

    def make_train_step(self, mixed: bool, batch: int, width: int):
        tf = self.tf
        import keras

        policy = ("mixed_float16" if self.gpus else "mixed_bfloat16") if mixed else "float32"
        keras.utils.set_random_seed(0)
        with tf.device(self.dev):
            inputs = keras.Input(shape=(width,))
            h = keras.layers.Dense(width, activation="relu", dtype=policy)(inputs)
            h = keras.layers.Dense(width, activation="relu", dtype=policy)(h)
            outputs = keras.layers.Dense(10, dtype="float32")(h)
            model = keras.Model(inputs, outputs)
            model.compile(
                optimizer=keras.optimizers.SGD(1e-3),
                loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                jit_compile=False,
            )
            x = self._normal((batch, width), seed=6)
            y = tf.random.stateless_uniform((batch,), seed=[7, 1], maxval=10, dtype=tf.int32)
        if not mixed:
            if self._tf32_saved is None:
                self._tf32_saved = tf.config.experimental.tensor_float_32_execution_enabled()
            tf.config.experimental.enable_tensor_float_32_execution(False)

        def step():
            with tf.device(self.dev):
                return model.train_on_batch(x, y)

        return step, ("Keras " + policy + (" (TF32 off)" if not mixed else ""))

    def _batch_fn(self, batch: int, features: int):
        tf = self.tf

        def make(i):
            x = tf.random.stateless_normal([batch, features], seed=tf.stack([tf.cast(i, tf.int32), 0]))
            x = x - tf.reduce_mean(x, axis=1, keepdims=True)
            x = x / (tf.math.reduce_std(x, axis=1, keepdims=True) + 1e-6)
            return tf.clip_by_value(x, -3.0, 3.0)

        return make

    def _step_fn(self, features: int):
        tf = self.tf
        w = self._normal((features, features), seed=8) / features**0.5

        @tf.function
        def step(x):
            with tf.device(self.dev):
                for _ in range(4):
                    x = tf.tanh(tf.linalg.matmul(x, w))
                return x

        return step

    def make_pipeline(self, n_batches: int, batch: int, features: int, prefetch: bool):
        tf = self.tf
        step = self._step_fn(features)
        ds = tf.data.Dataset.range(n_batches).map(
            self._batch_fn(batch, features), num_parallel_calls=tf.data.AUTOTUNE if prefetch else None
        )
        if prefetch:
            ds = ds.prefetch(tf.data.AUTOTUNE)

        def run():
            out = None
            for x in ds:
                out = step(x)
            self.sync(out)
            return n_batches

        return run

    def make_pipeline_parts(self, batch: int, features: int):
        tf = self.tf
        make = tf.function(self._batch_fn(batch, features))
        step = self._step_fn(features)
        with tf.device("/CPU:0"):
            ready = make(tf.constant(0, tf.int64))

        def produce():
            with tf.device("/CPU:0"):
                return make(tf.constant(1, tf.int64))

        return produce, (lambda: step(ready))

    def consistency(self) -> list[dict]:
        tf = self.tf
        inp = consistency_inputs()

        def run(dev):
            with tf.device(dev):
                a, b, v, lg = (tf.constant(inp[k]) for k in ("a", "b", "v", "logits"))
                res = {
                    "matmul": tf.linalg.matmul(a, b),
                    "sum": tf.reduce_sum(v),
                    "softmax": tf.nn.softmax(lg, axis=-1),
                    "exp": tf.exp(v),
                    "tanh": tf.tanh(v),
                }
            return {k: r.numpy() for k, r in res.items()}

        cpu = run("/CPU:0")
        dev = run(self.dev)
        note = f"TF32 enabled: {tf.config.experimental.tensor_float_32_execution_enabled()}"
        return [
            {"op": op, **compare(dev[op], cpu[op], CONSISTENCY_TOL[op]), "note": note if op == "matmul" else ""}
            for op in CONSISTENCY_TOL
        ]


def _keras_version() -> str | None:
    try:
        import keras

        return keras.__version__
    except ImportError:
        return None
