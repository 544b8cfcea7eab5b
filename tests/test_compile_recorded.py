"""The recorded results (data/compile_recorded/, written by tools/record_compile.py) cover every page example
for gfx90a and gfx1100, name their compiler and date, and match what the current compiler produces."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest

from rocm_bridge.compile import examples, recorded, toolchain
from rocm_bridge.compile.engine import compile_code

WORKERS = 2  # one compile at a time per process (the server's rule); two processes use both cores of CI


def _compile(job: tuple[str, str, int]) -> tuple[tuple[str, str], dict]:
    key, t, w = job
    return (key, t), recorded.comparable(compile_code(examples.source(key), t, w).to_dict())


@pytest.fixture(scope="module")
def current() -> dict[tuple[str, str], dict]:
    """Every example x target compiled now, in parallel processes."""
    jobs = [(k, t, w) for k in examples.all_keys() for t, w in recorded.TARGETS]
    with ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("spawn")) as pool:
        return dict(pool.map(_compile, jobs))


@pytest.mark.parametrize("key", examples.all_keys())
def test_every_example_is_recorded(key):
    rec = recorded.load(key)
    assert rec is not None, f"run python tools/record_compile.py {key}"
    assert rec["compiler"].startswith("HIP ") and "clang version" in rec["compiler"]
    assert rec["date"][:2] == "20" and set(rec["results"]) == {t for t, _ in recorded.TARGETS}
    assert rec["code_sha256"] == recorded.code_hash(examples.source(key)), "example changed: re-record it"
    for t, w in recorded.TARGETS:
        r = recorded.result(key, t)
        assert r.wave == w and r.recorded == rec["date"]
        assert r.ok == examples.expected_to_compile(key) or t == "gfx1100", (key, t)
        if r.ok:
            assert r.kernels and r.kernel_asm(), (key, t)


@pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc not installed (.ci/run installs it)")
@pytest.mark.parametrize("key", examples.all_keys())
def test_recorded_matches_the_current_compiler(key, current):
    rec = recorded.load(key)
    if rec["compiler"] != toolchain.version():
        pytest.skip(f"recorded with {rec['compiler']}, this machine has {toolchain.version()}: re-record")
    for t, _w in recorded.TARGETS:
        assert current[(key, t)] == recorded.comparable(rec["results"][t]), (key, t)


# --- issue 24: clang 22, Triton and the twin, recorded for servers without them --------------------------------

def test_triton_examples_are_recorded_with_compiler_and_date():
    from rocm_bridge.compile import triton_lab
    for key in triton_lab.EXAMPLES:
        rec = recorded.load_sub("triton", key)
        assert rec is not None, f"run python tools/record_compile.py --triton ({key})"
        assert rec["compiler"].startswith("Triton 3.") and rec["date"][:2] == "20"
        assert rec["code_sha256"] == recorded.code_hash(triton_lab.example_source(key)), "re-record it"
        r = recorded.triton_result(key)
        assert r.recorded == rec["date"] and {t.arch for t in r.targets} >= {"gfx942", "sm_90", "gfx950", "gfx1201"}
        assert all(t.ok and t.stages for t in r.targets)
    mm = recorded.triton_result("matmul_bf16")
    assert any(k.startswith("v_mfma") for k in mm.target("gfx942").matrix)
    assert any(k.startswith("v_mfma") for k in mm.target("gfx950").matrix)
    assert any(k.startswith("wgmma") for k in mm.target("sm_90").matrix)


def test_every_hipify_example_has_a_recorded_twin():
    for key in examples.hipify_examples():
        rec = recorded.load_sub("twin", key)
        assert rec is not None and rec["nvcc"].startswith("nvcc ") and "clang 22" in rec["compiler"]
        tw = rec["twin"]
        assert tw["example"] == key and (tw["rows"] or not tw["nv_ok"])
