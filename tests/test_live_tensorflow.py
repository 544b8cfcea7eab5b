"""The TensorFlow path for real on the CPU (CI has tensorflow-cpu and no GPU). Few tests, tiny sizes:
importing TensorFlow alone costs seconds."""

from __future__ import annotations

import pytest

pytest.importorskip("tensorflow", reason="TensorFlow is not installed (requirements-dev.txt has tensorflow-cpu)")

from rocm_bridge.live import get_backend  # noqa: E402
from rocm_bridge.live.cli import format_text  # noqa: E402
from rocm_bridge.live.results import to_host_measurement, validate  # noqa: E402
from rocm_bridge.live.suite import SuiteOptions, run_suite  # noqa: E402

pytestmark = pytest.mark.tf


@pytest.fixture(scope="module")
def tf_backend():
    backend = get_backend("tensorflow")
    if backend.gpus:
        pytest.skip("these tests describe the CPU-only path; this machine has a GPU")
    return backend


def test_env_check_says_no_gpu_and_where_the_matmul_really_ran(tf_backend):
    check = tf_backend.env_check()
    assert check["build"] in ("CPU", "CUDA", "ROCm")  # tensorflow-cpu says CPU; a GPU wheel still has no GPU here
    assert check["gpus"] == []
    assert check["requested_device"] == "/GPU:0"
    assert "CPU" in check["ran_on"].upper()  # soft placement moved it: the check must say so
    assert check["on_gpu"] is False
    assert check["memory_growth"] is None
    assert check["ok"] and check["max_rel"] < 1e-5


def test_tiny_suite_runs_on_the_cpu_within_its_budget(tf_backend):
    opts = SuiteOptions(
        benchmarks=("matmul", "h2d", "dispatch", "fusion", "pipeline", "consistency"),
        small=True, budget_s=60, repeats=2, warmup=1, min_sample_s=0.0, sizes=(32, 64),
    )
    doc = run_suite(tf_backend, opts)
    assert validate(doc) == []
    bench = doc["benchmarks"]
    assert doc["device"]["kind"] == "cpu" and doc["spec"] is None
    assert doc["env_check"]["on_gpu"] is False
    assert bench["h2d"]["status"] == "unsupported"  # no device memory to copy to
    assert {(r["dtype"], r["n"]) for r in bench["matmul"]["rows"]} == {
        ("fp32", 32), ("fp32", 64), ("bf16", 32), ("bf16", 64)
    }
    for name in ("matmul", "dispatch", "fusion", "pipeline", "consistency"):
        assert bench[name]["status"] == "ok", bench[name]
    assert bench["fusion"]["how"].startswith("tf.function(jit_compile=True)")
    assert bench["consistency"]["same_device"] is True and bench["consistency"]["all_ok"]
    assert bench["pipeline"]["serial_items_per_s"] > 0 and bench["pipeline"]["prefetch_items_per_s"] > 0
    host = to_host_measurement(doc)
    assert host.vendor == "CPU" and host.backend == "tensorflow" and host.d2d_gbs is None
    assert "not in table" in format_text(doc)
