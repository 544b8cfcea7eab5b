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
