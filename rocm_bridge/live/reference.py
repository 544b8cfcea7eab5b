"""The reference a matmul figure is checked against: CUDA events around the same torch.matmul.

Events are recorded on the GPU's own stream, so no host clock enters the figure: this is the framework's own
best method. They bracket a run of back-to-back calls (one pair per call would also count the gap while the
host launches the kernel, which dominates at small n), after a warm-up long enough for the clocks to ramp up;
the median of the repeats is kept. The suite's own figure (host clock after a device sync) must land within
a few % of it.
"""

from __future__ import annotations

import math
import statistics


def event_matmul_tflops(
    n: int, dtype: str, repeats: int = 15, warmup_s: float = 0.2, min_sample_s: float = 0.05
) -> float | None:
    """Median TFLOP/s of torch.matmul(a, b, out=c) for n x n in dtype, timed with CUDA events.

    None when PyTorch or a GPU is missing."""
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    import time

    from rocm_bridge.live.torch_backend import matmul_precision, torch_dtype

    with matmul_precision(dtype):
        gen = torch.Generator(device="cuda").manual_seed(1234)
        a = torch.randn(n, n, device="cuda", dtype=torch_dtype(dtype), generator=gen)
        b = torch.randn(n, n, device="cuda", dtype=torch_dtype(dtype), generator=gen)
        c = torch.empty(n, n, device="cuda", dtype=torch_dtype(dtype))
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < warmup_s:
            torch.matmul(a, b, out=c)
            torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        torch.matmul(a, b, out=c)
        end.record()
        end.synchronize()
        inner = max(1, min(10_000, math.ceil(min_sample_s * 1e3 / max(start.elapsed_time(end), 1e-3))))
        per_call_ms = []
        for _ in range(repeats):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            for _ in range(inner):
                torch.matmul(a, b, out=c)
            end.record()
            end.synchronize()
            per_call_ms.append(start.elapsed_time(end) / inner)
        del a, b, c
        torch.cuda.empty_cache()
    return 2.0 * n**3 / (statistics.median(per_call_ms) / 1e3) / 1e12
