"""PyTorch backend (CUDA and ROCm builds; ROCm builds reuse the torch.cuda API, torch.version.hip tells them apart)."""

from __future__ import annotations

import gc
import sys
from contextlib import contextmanager

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

_PRECISION = {"fp32": "highest", "tf32": "high"}



def hide_triton_beside_tensorflow() -> bool:
    """TensorFlow and Triton each carry their own LLVM; once both are loaded in one process, LLVM aborts it
    ("Option 'bitcode-mdindex-threshold' registered more than once"), and torch.compile imports Triton. Where
    TensorFlow is already loaded (the coverage lab runs in the same server), `import triton` is made to fail
    first: TorchInductor then takes its C++ path on the CPU, and on a GPU the fusion benchmark reports an error
    instead of the server dying. Returns whether Triton was hidden."""
    if "tensorflow" in sys.modules and "triton" not in sys.modules:
        sys.modules["triton"] = None  # type: ignore[assignment]  # `import triton` now raises ImportError
        return True
    return False

def torch_dtype(dtype: str):
    import torch

    return {"fp32": torch.float32, "tf32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}[dtype]


@contextmanager
def matmul_precision(dtype: str):
    """fp32 means IEEE float32 (TF32 off); tf32 turns the tensor-core float32 mode on; restored on exit."""
    import torch

    old = torch.get_float32_matmul_precision()
    if dtype in _PRECISION:
        torch.set_float32_matmul_precision(_PRECISION[dtype])
    try:
        yield
    finally:
        torch.set_float32_matmul_precision(old)


def build_type(torch_module) -> str:
    if getattr(torch_module.version, "hip", None):
        return "ROCm"
    if getattr(torch_module.version, "cuda", None):
        return "CUDA"
    return "CPU"


class TorchBackend(Backend):
    name = "torch"

    def __init__(self) -> None:
        import torch

        self.torch = torch
        self.cuda = bool(torch.cuda.is_available())
        self.dev = torch.device("cuda:0" if self.cuda else "cpu")
        self._info: BackendInfo | None = None
        self._saved_precision: str | None = None

    def info(self) -> BackendInfo:
        if self._info is None:
            t = self.torch
            devices = []
            if self.cuda:
                for i in range(t.cuda.device_count()):
                    props = t.cuda.get_device_properties(i)
                    devices.append(DeviceInfo(props.name, "gpu", int(props.total_memory)))
            devices.append(DeviceInfo(cpu_name(), "cpu"))
            extra = {"cuda": t.version.cuda, "hip": getattr(t.version, "hip", None)}
            try:
                extra["cudnn"] = str(t.backends.cudnn.version()) if t.backends.cudnn.is_available() else None
            except Exception:  # noqa: BLE001 - optional detail
                extra["cudnn"] = None
            from rocm_bridge.live.monitor import cuda_driver_version, driver_version

            extra["driver"] = driver_version()
            extra["cuda_driver"] = cuda_driver_version()
            if self.cuda:
                props = t.cuda.get_device_properties(0)
                extra["compute_capability"] = f"{props.major}.{props.minor}"
                if extra["hip"]:
                    extra["gcn_arch"] = getattr(props, "gcnArchName", None)
            self._info = BackendInfo("torch", t.__version__, build_type(t), devices, extra)
        return self._info

    def env_check(self) -> dict:
        import time

        t = self.torch
        info = self.info()
        out = {
            "backend": "torch",
            "version": info.version,
            "build": info.build,
            "gpus": [d.name for d in info.gpus],
            "memory_growth": True if self.cuda else None,
            "memory_growth_note": "caching allocator: memory is taken on demand" if self.cuda else "no GPU",
            "requested_device": "cuda:0",
        }
        rng = np.random.default_rng(0)
        a_np = rng.standard_normal((512, 512), dtype=np.float32)
        t0 = time.perf_counter()
        a = t.from_numpy(a_np).to(self.dev)
        c = a @ a
        self.sync(c)
        out["seconds"] = time.perf_counter() - t0
        out["ran_on"] = str(c.device)
        out["on_gpu"] = c.device.type == "cuda"
        ref = a_np.astype(np.float64) @ a_np.astype(np.float64)
        out.update(compare(c.cpu().numpy(), ref, 1e-2))
        return out

    def free_memory_bytes(self) -> int | None:
        if not self.cuda:
            return None
        free, _total = self.torch.cuda.mem_get_info()
        return int(free)

    def sync(self, out: object) -> None:
        if self.cuda:
            self.torch.cuda.synchronize()

    def is_oom(self, exc: BaseException) -> bool:
        return isinstance(exc, self.torch.cuda.OutOfMemoryError) or super().is_oom(exc)

    def release(self) -> None:
        if self._saved_precision is not None:
            self.torch.set_float32_matmul_precision(self._saved_precision)
            self._saved_precision = None
        gc.collect()
        if self.cuda:
            self.torch.cuda.empty_cache()

    def supported_dtypes(self) -> tuple[str, ...]:
        return MATMUL_DTYPES if self.cuda else ("fp32", "bf16")

    def _randn(self, *shape, dtype=None, seed: int = 0):
        gen = self.torch.Generator(device=self.dev).manual_seed(seed)
        return self.torch.randn(*shape, device=self.dev, dtype=dtype or self.torch.float32, generator=gen)

    def make_matmul(self, n: int, dtype: str):
        t = self.torch
        if dtype in _PRECISION:
            if self._saved_precision is None:
                self._saved_precision = t.get_float32_matmul_precision()
            t.set_float32_matmul_precision(_PRECISION[dtype])
        a = self._randn(n, n, dtype=torch_dtype(dtype), seed=1)
        b = self._randn(n, n, dtype=torch_dtype(dtype), seed=2)
        c = t.empty(n, n, device=self.dev, dtype=torch_dtype(dtype))
        return lambda: t.matmul(a, b, out=c)

    def make_h2d(self, nbytes: int):
        t = self.torch
        src = t.full((nbytes,), 7, dtype=t.uint8)
        dst = t.empty(nbytes, dtype=t.uint8, device=self.dev)
        fns = {"pageable": lambda: dst.copy_(src)}
        try:
            pinned = src.pin_memory()
            fns["pinned"] = lambda: dst.copy_(pinned, non_blocking=True)
        except RuntimeError:
            fns["pinned"] = None
        return fns

    def make_tiny_op(self):
        t = self.torch
        x = t.ones(1, device=self.dev)
        y = t.empty_like(x)
        return lambda: t.add(x, 1.0, out=y)

    def make_big_op(self, numel: int):
        t = self.torch
        x = t.rand(numel, device=self.dev)
        y = t.empty_like(x)
        return lambda: t.mul(x, 2.0, out=y)

    def make_fusion(self, numel: int):
        t = self.torch
        x = t.rand(numel, device=self.dev) + 0.1
        hide_triton_beside_tensorflow()
        compiled = t.compile(lambda v: fusion_chain(v, t))
        return (lambda: fusion_chain(x, t)), (lambda: compiled(x)), "torch.compile (TorchInductor)"

    def make_train_step(self, mixed: bool, batch: int, width: int):
        t = self.torch
        nn = t.nn
        t.manual_seed(0)
        model = nn.Sequential(
            nn.Linear(width, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(), nn.Linear(width, 10)
        ).to(self.dev)
        opt = t.optim.SGD(model.parameters(), lr=1e-3)
        x = self._randn(batch, width, seed=3)
        y = t.randint(0, 10, (batch,), device=self.dev)
        loss_fn = nn.CrossEntropyLoss()
        if not mixed and self._saved_precision is None:
            self._saved_precision = t.get_float32_matmul_precision()
        if not mixed:
            t.set_float32_matmul_precision("highest")
        amp_dtype = t.bfloat16

        def step():
            opt.zero_grad(set_to_none=True)
            if mixed:
                with t.autocast(device_type=self.dev.type, dtype=amp_dtype):
                    logits = model(x)
                loss = loss_fn(logits.float(), y)
            else:
                loss = loss_fn(model(x), y)
            loss.backward()
            opt.step()
            return loss

        return step, ("autocast bf16" if mixed else "fp32 (TF32 off)")

    def _pipeline_step(self, features: int):
        t = self.torch
        w = self._randn(features, features, seed=4) / features**0.5

        def consume(x_host: np.ndarray):
            x = t.from_numpy(x_host).to(self.dev, non_blocking=False)
            for _ in range(4):
                x = t.tanh(x @ w)
            return x

        return consume

    def consistency(self) -> list[dict]:
        t = self.torch
        inp = consistency_inputs()

        def run(dev):
            a, b, v, lg = (t.from_numpy(inp[k]).to(dev) for k in ("a", "b", "v", "logits"))
            res = {
                "matmul": a @ b,
                "sum": v.sum(),
                "softmax": t.softmax(lg, dim=-1),
                "exp": t.exp(v),
                "tanh": t.tanh(v),
            }
            return {k: r.detach().cpu().numpy() for k, r in res.items()}

        cpu = run(t.device("cpu"))
        dev = run(self.dev)
        note = f"torch.get_float32_matmul_precision() = {t.get_float32_matmul_precision()!r}"
        return [
            {"op": op, **compare(dev[op], cpu[op], CONSISTENCY_TOL[op]), "note": note if op == "matmul" else ""}
            for op in CONSISTENCY_TOL
        ]
