"""Which GEMM kernel does each framework launch for an 8192^3 fp16/bf16 matmul? Run under Nsight Compute:

    ncu --clock-control none --metrics gpu__time_duration.sum --csv python3 bench/gemm_kernels.py torch|jax

Explains why two frameworks' TFLOP/s for the "same" matmul differ: XLA autotunes among cuBLASLt algorithms
at compile time, PyTorch takes cuBLAS's heuristic choice. Random inputs (never zeros), three calls each.
"""

from __future__ import annotations

import os
import sys

N = 8192


def main(which: str) -> None:
    if which == "torch":
        import torch

        for dt in (torch.bfloat16, torch.float16):
            a = torch.randn(N, N, device="cuda", dtype=dt)
            b = torch.randn(N, N, device="cuda", dtype=dt)
            c = torch.empty(N, N, device="cuda", dtype=dt)
            for _ in range(3):
                torch.matmul(a, b, out=c)
            torch.cuda.synchronize()
    else:
        os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
        import jax
        import jax.numpy as jnp

        f = jax.jit(lambda x, y: jax.lax.dot(x, y))
        for i, dt in enumerate((jnp.bfloat16, jnp.float16)):
            a = jax.random.normal(jax.random.PRNGKey(2 * i), (N, N), dt)
            b = jax.random.normal(jax.random.PRNGKey(2 * i + 1), (N, N), dt)
            for _ in range(3):
                f(a, b).block_until_ready()
            text = f.lower(a, b).compile().as_text()
            print("\n".join(line.strip()[:400] for line in text.splitlines() if "custom_call_target" in line))


if __name__ == "__main__":
    main(sys.argv[1])
