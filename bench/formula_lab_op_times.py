"""Measure per-op times (dispatch, kernel, sync) of a small MLP block with PyTorch on a CUDA/ROCm GPU.

Feeds the Formula lab's recorded per-op preset (data/formula_lab_recorded.json). Prints a table and, when
OUT is set, writes OUT/formula_lab_recorded.json. Run: python bench/formula_lab_op_times.py

Definitions used (the same as rocm_bridge.formulas.per_op_time):
- dispatch: host time to enqueue one tiny op without waiting (median over many launches);
- kernel:   device time of the op's kernel(s), from the profiler's kernel records (mean);
- sync:     host time of torch.cuda.synchronize() after one tiny op, minus its kernel time (median).
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from datetime import UTC, datetime

import torch
import torch.nn.functional as F


def median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def dispatch_and_sync_us(dev: torch.device, reps: int = 2000) -> tuple[float, float, float]:
    x = torch.zeros(1, device=dev)
    for _ in range(200):
        x.add_(1)
    torch.cuda.synchronize()
    # dispatch: enqueue batches of 100 tiny ops, host time / 100
    per = []
    for _ in range(reps // 100):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(100):
            x.add_(1)
        per.append((time.perf_counter() - t0) / 100)
    torch.cuda.synchronize()
    dispatch = median_us(per)
    # tiny kernel device time
    kernel_tiny = kernel_us(lambda: x.add_(1), reps=200)
    # launch one op then synchronize: sync part = wait time after the launch returned
    sync = []
    for _ in range(reps):
        x.add_(1)
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        sync.append(time.perf_counter() - t1)
    return dispatch, kernel_tiny, median_us(sync)


def kernel_us(fn, reps: int = 30) -> float:
    """Device time of fn's kernels per call, from the profiler's kernel records (CUPTI / roctracer).

    Events around a single small op would measure the host launch gap instead of the kernel.
    """
    from torch.profiler import ProfilerActivity, profile

    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(reps):
            fn()
        torch.cuda.synchronize()
    total_us = sum(e.self_device_time_total for e in prof.key_averages())
    return total_us / reps


def mlp_ops(dev: torch.device, tokens: int, d: int = 1024, hidden: int = 4096):
    g = torch.Generator(device=dev).manual_seed(0)
    x = torch.randn(tokens, d, device=dev, generator=g)
    w1 = torch.randn(d, hidden, device=dev, generator=g) / d**0.5
    b1 = torch.randn(hidden, device=dev, generator=g)
    w2 = torch.randn(hidden, d, device=dev, generator=g) / hidden**0.5
    b2 = torch.randn(d, device=dev, generator=g)
    h = x @ w1
    hb = h + b1
    a = F.gelu(hb)
    y = a @ w2
    yb = y + b2
    r = yb + x
    # (op name, TensorFlow op type it corresponds to, callable, fusible with its neighbours by XLA)
    return [
        ("MatMul 1", "MatMul", lambda: x @ w1, False),
        ("BiasAdd 1", "BiasAdd", lambda: h + b1, True),
        ("Gelu", "Gelu", lambda: F.gelu(hb), True),
        ("MatMul 2", "MatMul", lambda: a @ w2, False),
        ("BiasAdd 2", "BiasAdd", lambda: y + b2, True),
        ("Add (residual)", "AddV2", lambda: yb + x, True),
        ("LayerNorm", "LayerNorm", lambda: F.layer_norm(r, (d,)), True),
    ], (x, w1, b1, w2, b2)


def fused_tail_us(tensors, tokens: int) -> dict[str, float] | None:
    """Device time of the elementwise groups compiled into one kernel each by torch.compile (XLA-like fusion)."""
    x, w1, b1, w2, b2 = tensors
    try:
        f1 = torch.compile(lambda h: F.gelu(h + b1))
        f2 = torch.compile(lambda y: F.layer_norm(y + b2 + x, (x.shape[1],)))
        h = x @ w1
        y = F.gelu(h + b1) @ w2
        return {"BiasAdd 1 + Gelu": kernel_us(lambda: f1(h)), "BiasAdd 2 + Add (residual) + LayerNorm": kernel_us(lambda: f2(y))}
    except Exception as exc:  # noqa: BLE001 -- no Triton / compiler on the host: report and go on
        print("torch.compile unavailable:", type(exc).__name__, str(exc)[:200])
        return None


def main() -> None:
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda")
    name = torch.cuda.get_device_name(0)
    dispatch, kernel_tiny, sync = dispatch_and_sync_us(dev)
    print(f"device: {name}; torch {torch.__version__}; hip={torch.version.hip} cuda={torch.version.cuda}")
    print(f"tiny op: dispatch {dispatch:.2f} us, kernel {kernel_tiny:.2f} us, sync wait {sync:.2f} us")
    result = {
        "device": name,
        "backend": f"PyTorch {torch.__version__} ("
        + (f"HIP {torch.version.hip}" if torch.version.hip else f"CUDA {torch.version.cuda}") + ")",
        "python": platform.python_version(),
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "method": __doc__.strip(),
        "dtype": "fp32 (TF32 off)",
        "dispatch_us": round(dispatch, 2),
        "sync_us": round(max(sync - kernel_tiny, 0.0), 2),
        "sync_wait_raw_us": round(sync, 2),
        "tiny_kernel_us": round(kernel_tiny, 2),
        "op_lists": {},
    }
    for tokens in (64, 8192):
        ops, tensors = mlp_ops(dev, tokens)
        rows = []
        for op_name, tf_op, fn, fusible in ops:
            k = kernel_us(fn)
            rows.append({"name": op_name, "tf_op": tf_op, "kernel_us": round(k, 2), "fusible": fusible})
            print(f"tokens={tokens:5d} {op_name:16s} kernel {k:9.2f} us")
        fused = fused_tail_us(tensors, tokens)
        if fused:
            for k, v in fused.items():
                print(f"tokens={tokens:5d} fused {k:30s} {v:9.2f} us")
        result["op_lists"][f"mlp_{tokens}"] = {
            "shape": f"x[{tokens}, 1024] -> Dense(4096) -> Gelu -> Dense(1024) -> +x -> LayerNorm",
            "ops": rows,
            "fused_kernel_us": {k: round(v, 2) for k, v in (fused or {}).items()},
        }
    out = os.environ.get("OUT")
    if out:
        with open(os.path.join(out, "formula_lab_recorded.json"), "w") as fh:
            json.dump(result, fh, indent=1)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
