"""PyTorch and JAX paths (CPU builds come with requirements-dev.txt; on a machine without them these skip).
On a GPU machine this runs the same tiny suite there."""

from __future__ import annotations

import pytest

from rocm_bridge.live import get_backend
from rocm_bridge.live.results import validate
from rocm_bridge.live.suite import SuiteOptions, run_suite

TINY = SuiteOptions(small=True, budget_s=120, repeats=2, warmup=1, min_sample_s=0.0, sizes=(64,))


@pytest.mark.parametrize("name", ["torch", "jax"])
def test_framework_env_check_and_tiny_suite(name):
    pytest.importorskip(name, reason=f"{name} is not installed here (pip install -r requirements-dev.txt brings its CPU build)")
    backend = get_backend(name)
    check = backend.env_check()
    assert check["ok"]
    assert check["on_gpu"] == bool(check["gpus"])
    doc = run_suite(backend, TINY)
    assert validate(doc) == []
    assert doc["benchmarks"]["matmul"]["status"] == "ok"
    assert doc["benchmarks"]["consistency"]["status"] == "ok"
    assert all(r["status"] != "error" for r in doc["benchmarks"].values()), doc["benchmarks"]


def test_jax_small_products_are_batched_into_one_call_without_being_merged():
    jax = pytest.importorskip("jax", reason="jax is not installed here (pip install -r requirements-dev.txt brings it)")
    import numpy as np

    from rocm_bridge.live.jax_backend import _chained_dots, matmuls_per_call

    assert [matmuls_per_call(n) for n in (512, 1024, 2048, 4096, 8192)] == [64, 64, 8, 1, 1]
    rng = np.random.default_rng(0)
    x = rng.standard_normal((32, 32)).astype(np.float32)
    y = (rng.standard_normal((32, 32)) / np.sqrt(32)).astype(np.float32)
    f = jax.jit(lambda a, b: _chained_dots(jax, a, b, None, 4))
    np.testing.assert_allclose(np.asarray(f(x, y)), x @ y @ y @ y @ y, rtol=1e-4, atol=1e-5)
    # four real products survive XLA's simplifier (four identical x @ y would be merged into one)
    assert f.lower(x, y).compile().as_text().count(" dot(") == 4


def test_jax_matmul_keeps_the_requested_dtype():
    pytest.importorskip("jax", reason="jax is not installed here (pip install -r requirements-dev.txt brings it)")
    backend = get_backend("jax")
    for dtype, name in (("bf16", "bfloat16"), ("fp16", "float16"), ("fp32", "float32")):
        out = backend.make_matmul(16, dtype)()
        assert str(out.dtype) == name  # a float64 scale factor once promoted bf16 inputs to fp32: half the speed


def test_torch_compile_beside_tensorflow_does_not_abort_the_process():
    """TensorFlow and Triton each carry LLVM; both in one process abort it. The coverage lab loads TensorFlow in
    the server and torch.compile imports Triton: the torch backend hides Triton first (a child process, since the
    failure is an abort of the whole interpreter)."""
    import subprocess
    import sys

    pytest.importorskip("torch", reason="torch is not installed here (requirements-dev.txt brings its CPU build)")
    pytest.importorskip("tensorflow", reason="tensorflow is not installed here (requirements-dev.txt brings it)")
    code = ("import tensorflow as tf; tf.constant(1.0)\n"
            "from rocm_bridge.live import get_backend\n"
            "plain, fused, how = get_backend('torch').make_fusion(256)\n"
            "fused(); print('ok', how)")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and "ok torch.compile" in proc.stdout, proc.stderr[-2000:]
