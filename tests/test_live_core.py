"""The live lab's core without any framework: bounds, lock, budget, OOM handling, spec matching, schema."""

from __future__ import annotations

import json
import threading

import pytest

from rocm_bridge.data import read_csv
from rocm_bridge.errors import Busy, InvalidInput, OutOfMemory
from rocm_bridge.live import BACKENDS, available_backends, get_backend, is_installed, specs
from rocm_bridge.live.cli import format_text
from rocm_bridge.live.lock import bench_lock, is_busy
from rocm_bridge.live.results import recorded_results, to_host_measurement, validate
from rocm_bridge.live.suite import (
    BENCHMARKS,
    MAX_MATMUL_N,
    SuiteOptions,
    bounded_bytes,
    max_matmul_n,
    run_suite,
)
from rocm_bridge.live.timing import Deadline, measure
from tests.live_fakes import FakeOOM, NumpyBackend

SMALL = SuiteOptions(small=True, budget_s=30, repeats=2, warmup=1, min_sample_s=0.0)


# --- bounds -------------------------------------------------------------------------------------------
def test_max_matmul_n_fits_three_matrices_in_the_memory_fraction():
    free = 1 << 30
    n = max_matmul_n(free, 2, fraction=0.5)
    assert 3 * n * n * 2 <= 0.5 * free < 3 * (n + 1) ** 2 * 2
    assert max_matmul_n(None, 4) == MAX_MATMUL_N  # unknown (CPU): only the hard cap
    assert max_matmul_n(1 << 50, 2) == MAX_MATMUL_N
    assert max_matmul_n(0, 4) == 0


def test_bounded_bytes_shrinks_to_free_memory_but_keeps_a_floor():
    assert bounded_bytes(1 << 30, 1 << 20, fraction=0.5) == 1 << 19
    assert bounded_bytes(1 << 10, 1 << 40) == 1 << 10
    assert bounded_bytes(1 << 30, 10, fraction=0.5, floor=4096) == 4096
    assert bounded_bytes(123, None) == 123


def test_sizes_over_the_memory_cap_are_skipped_and_reported():
    backend = NumpyBackend("NVIDIA H200", free_bytes=3 * 100 * 100 * 4 * 3)  # n <= ~109 for fp32 at 40 %
    doc = run_suite(backend, SuiteOptions(**{**SMALL.__dict__, "benchmarks": ("matmul",), "sizes": (64, 256)}))
    mm = doc["benchmarks"]["matmul"]
    assert {(r["dtype"], r["n"]) for r in mm["rows"]} == {("fp32", 64), ("fp16", 64)}
    assert {(c["dtype"], c["n"]) for c in mm["capped"]} == {("fp32", 256), ("fp16", 256)}
    assert ("matmul", 256, "fp32") not in backend.made  # never allocated


@pytest.mark.parametrize(
    "change",
    [
        {"budget_s": 0},
        {"budget_s": 10_000},
        {"repeats": 0},
        {"repeats": 1000},
        {"sizes": (8,)},
        {"sizes": (MAX_MATMUL_N * 2,)},
        {"benchmarks": ("matmul", "nope")},
        {"benchmarks": ()},
        {"h2d_bytes": 1 << 40},
    ],
)
def test_options_out_of_bounds_are_refused_with_a_message(change):
    with pytest.raises(InvalidInput) as info:
        SuiteOptions(**change).validate()
    assert "live.errors" in info.value.key
    assert info.value.message("zh") != info.value.message("en")


# --- lock ---------------------------------------------------------------------------------------------
def test_second_session_gets_busy_while_a_benchmark_runs():
    inside, release, outcome = threading.Event(), threading.Event(), {}

    def first():
        with bench_lock("first"):
            inside.set()
            release.wait(5)

    def second():
        try:
            with bench_lock("second"):
                outcome["second"] = "ran"
        except Busy as err:
            outcome["second"] = err

    t1 = threading.Thread(target=first)
    t1.start()
    assert inside.wait(5)
    t2 = threading.Thread(target=second)
    t2.start()
    t2.join(5)
    release.set()
    t1.join(5)
    assert isinstance(outcome["second"], Busy)
    assert "Try again" in str(outcome["second"])
    assert not is_busy()
    with bench_lock("third"):  # free again afterwards
        assert is_busy()


def test_run_suite_refuses_while_locked():
    with bench_lock("someone else"), pytest.raises(Busy):
        run_suite(NumpyBackend(), SMALL)
    assert not is_busy()


# --- timing and budget --------------------------------------------------------------------------------
class FakeClock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_measure_takes_the_median_and_syncs_before_reading_the_clock():
    clock = FakeClock()
    durations = iter([0.5, 0.5, 0.5, 1.0, 3.0, 2.0, 1.5, 9.0])  # warm-up, calibration, then 5 samples
    pending = []
    synced = []

    def fn():
        pending.append(next(durations))

    def sync(_):
        # Asynchronous device: time passes only when we wait for it.
        clock.t += sum(pending)
        pending.clear()
        synced.append(clock.t)

    timing = measure(fn, sync, warmup=2, repeats=5, min_sample_s=0.0, clock=clock)
    assert timing.inner == 1
    assert timing.samples_s == [1.0, 3.0, 2.0, 1.5, 9.0]
    assert timing.median_s == 2.0
    assert timing.spread == pytest.approx((9.0 - 1.0) / 2.0)


def test_measure_batches_fast_calls_so_a_sample_lasts_min_sample_s():
    clock = FakeClock()

    def fn():
        clock.t += 1e-4

    timing = measure(fn, lambda _: None, warmup=1, repeats=3, min_sample_s=0.01, clock=clock)
    assert timing.inner == 100
    assert timing.median_s == pytest.approx(1e-4)


def test_deadline_stops_repeats_early_but_keeps_one_sample():
    clock = FakeClock()
    deadline = Deadline(1.0, clock=clock)

    def fn():
        clock.t += 0.6

    timing = measure(fn, lambda _: None, deadline=deadline, warmup=0, repeats=10, inner=1, clock=clock)
    assert 1 <= len(timing.samples_s) <= 2


def test_spent_budget_skips_the_remaining_benchmarks():
    class SlowBackend(NumpyBackend):
        def make_matmul(self, n, dtype):
            import time

            time.sleep(0.3)
            return super().make_matmul(n, dtype)

    opts = SuiteOptions(small=True, budget_s=0.2, repeats=1, warmup=0, min_sample_s=0.0)
    doc = run_suite(SlowBackend(), opts)
    statuses = {k: v["status"] for k, v in doc["benchmarks"].items()}
    assert statuses["matmul"] == "partial"
    assert all(statuses[k] == "skipped" for k in BENCHMARKS[1:])
    assert validate(doc) == []


# --- out of memory ------------------------------------------------------------------------------------
def test_simulated_oom_is_reported_and_the_other_benchmarks_still_run():
    backend = NumpyBackend("NVIDIA H200", free_bytes=1 << 30, oom_on=("matmul",))
    doc = run_suite(backend, SMALL)
    mm = doc["benchmarks"]["matmul"]
    assert mm["status"] == "oom"
    assert "ran out of memory" in mm["message"] and "matmul" in mm["message"]
    assert doc["benchmarks"]["fusion"]["status"] == "ok"
    assert backend.released >= len(BENCHMARKS)
    assert validate(doc) == []


def test_oom_guard_turns_framework_oom_into_out_of_memory():
    from rocm_bridge.live.suite import _Runner

    runner = _Runner(NumpyBackend(), SMALL, None)
    with pytest.raises(OutOfMemory) as info, runner.oom_guard("matmul bf16 n=65536"):
        raise FakeOOM()
    assert "n=65536" in info.value.message("en")
    with pytest.raises(ValueError), runner.oom_guard("x"):  # other errors pass through unchanged
        raise ValueError("not memory")


# --- results ------------------------------------------------------------------------------------------
def test_suite_document_validates_and_round_trips_through_json():
    doc = run_suite(NumpyBackend("NVIDIA H200", free_bytes=1 << 30), SMALL)
    assert {k: v["status"] for k, v in doc["benchmarks"].items()} == {
        "matmul": "ok",
        "h2d": "ok",
        "dispatch": "ok",
        "fusion": "ok",
        "mixed_precision": "ok",
        "pipeline": "ok",
        "consistency": "ok",
    }
    again = json.loads(json.dumps(doc))
    assert validate(again) == []
    mm = doc["benchmarks"]["matmul"]["rows"][0]
    assert mm["tflops"] == pytest.approx(2 * mm["n"] ** 3 / mm["seconds"] / 1e12)
    text = format_text(doc)
    assert "H200 SXM" in text and "[consistency] ok" in text


def test_validate_names_what_is_wrong():
    doc = run_suite(NumpyBackend(), SMALL)
    broken = json.loads(json.dumps(doc))
    del broken["env"]["build"]
    broken["benchmarks"]["matmul"]["rows"][0]["tflops"] = "fast"
    broken["benchmarks"]["fusion"]["status"] = "great"
    problems = validate(broken)
    assert "$.env.build: missing" in problems
    assert any("matmul.rows[0].tflops" in p for p in problems)
    assert any("fusion.status" in p for p in problems)
    assert validate([]) == ["$: expected an object"]


def test_recorded_h200_results_validate_and_are_labelled_recorded():
    docs = recorded_results()
    backends = {d["backend"] for d in docs}
    assert {"torch", "jax"} <= backends
    for doc in docs:
        assert validate(doc) == []
        assert doc["source"] == "recorded"
        assert doc["device"]["name"] == "NVIDIA H200" and doc["spec"]["model"] == "H200 SXM"
        assert doc["env"]["extra"]["driver"] and doc["env"]["extra"]["cuda_driver"]
        assert doc["date"].startswith("20")
        rows = doc["benchmarks"]["matmul"]["rows"]
        bf16 = next(r for r in rows if r["dtype"] == "bf16" and r["n"] == 8192)
        # The acceptance bar of the issue: bf16 at n=8192 reaches >= 90 % of the CUDA-event reference.
        assert bf16["tflops"] >= 0.9 * bf16["reference_tflops"]
        host = to_host_measurement(doc)
        assert host.recorded and host.vendor == "NVIDIA" and host.matched_model == "H200 SXM"
        assert host.matmul_tflops["bf16"] == max(r["tflops"] for r in rows if r["dtype"] == "bf16")
        assert host.h2d_pinned_gbs > host.h2d_pageable_gbs


def test_host_measurement_from_a_cpu_run_has_no_device_bandwidth():
    host = to_host_measurement(run_suite(NumpyBackend(), SMALL))
    assert host.vendor == "CPU" and not host.recorded
    assert host.d2d_gbs is None and host.h2d_pinned_gbs is None
    assert set(host.matmul_tflops) == {"fp32", "fp16"}


# --- spec matching ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("device", "model"),
    [
        ("NVIDIA H200", "H200 SXM"),
        ("NVIDIA H100 80GB HBM3", "H100 SXM5"),
        ("NVIDIA A100-SXM4-80GB", "A100 80GB SXM4"),
        ("NVIDIA A100-SXM4-40GB", "A100 40GB SXM4"),
        ("NVIDIA A100 80GB PCIe", "A100 80GB PCIe"),
        ("AMD Instinct MI250X", "Instinct MI250X"),
        ("AMD Instinct MI300X", "Instinct MI300X"),
        ("Tesla V100-SXM2-16GB", "Tesla V100 SXM2"),
        ("NVIDIA H100 PCIe", None),  # a PCIe H100 is not the SXM row
        ("NVIDIA A100-PCIE-40GB", None),  # the table's PCIe A100 is the 80 GB one
        ("NVIDIA GeForce RTX 4090", None),
        ("CPU: AMD EPYC", None),
        ("", None),
    ],
)
def test_device_names_match_the_right_table_row(device, model):
    spec = specs.lookup(device)
    assert (spec.model if spec else None) == model


def test_peaks_come_from_the_table_and_mi250_is_split_per_gcd():
    rows = {r["model"]: r for r in read_csv("gpu_specs.csv")}
    h200 = specs.lookup("NVIDIA H200")
    assert h200.peaks_tflops["bf16"] == float(rows["H200 SXM"]["bf16_tflops"])
    assert h200.peaks_tflops["tf32"] == float(rows["H200 SXM"]["fp32_matrix_or_tf32_tflops"])
    mi250 = specs.lookup("AMD Instinct MI250")
    assert mi250.peaks_tflops["fp16"] == pytest.approx(float(rows["Instinct MI250"]["fp16_tflops"]) / 2)
    assert mi250.peaks_tflops["tf32"] is None  # CDNA2 has no TF32
    assert specs.pct_of_peak(494.7, h200, "bf16") == pytest.approx(50.0)
    assert specs.pct_of_peak(100.0, None, "bf16") is None


# --- backends -----------------------------------------------------------------------------------------
def test_unknown_and_missing_backends_give_clear_errors(monkeypatch):
    with pytest.raises(InvalidInput):
        get_backend("mxnet")
    assert not is_installed("mxnet")
    monkeypatch.setattr("rocm_bridge.live.is_installed", lambda name: False)
    from rocm_bridge.errors import BackendUnavailable

    with pytest.raises(BackendUnavailable) as info:
        get_backend("torch")
    assert "PyTorch" in info.value.message("en")
    assert set(available_backends()) <= set(BACKENDS)


def test_monitor_history_builds_series_per_gpu():
    from rocm_bridge.live.monitor import GpuReading, History, sample

    history = History(maxlen=3)
    for i in range(5):
        history.add([GpuReading(100.0 + i, 0, "GPU", "NVIDIA", 10.0 * i, 2**30 * i, 2**34, 40.0, None)])
    assert len(history) == 3  # bounded
    xs, ys = history.series("util_pct")["0: GPU"]
    assert xs == [0.0, 1.0, 2.0] and ys == [20.0, 30.0, 40.0]
    assert history.series("mem_used_bytes")["0: GPU"][1] == [2.0, 3.0, 4.0]  # GiB
    assert history.series("power_w") == {}  # missing sensor: no series, no zeros
    assert isinstance(sample(), list)  # [] on a machine without a GPU


# --- command line -------------------------------------------------------------------------------------
def test_bench_cli_validates_before_loading_anything_heavy():
    import subprocess
    import sys
    from pathlib import Path

    probe = (
        "import sys\nfrom rocm_bridge.cli import main\n"
        "codes = [main(['bench', '--list']), main(['bench', '--budget', '0']), main(['bench', '--only', 'nope']),"
        " main(['bench', '--dtypes', 'fp8'])]\n"
        "print(codes, [m for m in ('streamlit', 'pandas', 'tensorflow', 'torch', 'jax') if m in sys.modules])\n"
    )
    root = Path(__file__).resolve().parent.parent
    out = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip().splitlines()[-1] == "[0, 3, 3, 3] []"
    assert "time budget must be more than 0" in out.stderr
    assert "Unknown benchmark 'nope'" in out.stderr and "Unknown dtype: fp8" in out.stderr
    assert "tensorflow" in out.stdout  # --list names every backend, installed or not


def test_large_gpu_matmuls_get_a_short_burst_figure_and_cpu_runs_do_not(monkeypatch):
    import rocm_bridge.live.suite as suite

    monkeypatch.setattr(suite, "BURST_MIN_N", 128)  # the numpy "GPU" is small: count 128 as large
    monkeypatch.setattr(suite, "BURST_REST_S", 0.0)
    opts = SuiteOptions(**{**SMALL.__dict__, "benchmarks": ("matmul",), "sizes": (64, 128)})
    rows = run_suite(NumpyBackend("NVIDIA H200", free_bytes=1 << 30), opts)["benchmarks"]["matmul"]["rows"]
    burst = {(r["dtype"], r["n"]): r.get("burst_tflops") for r in rows}
    assert burst[("fp32", 64)] is None and burst[("fp32", 128)] > 0  # the fastest single call, in TFLOP/s
    doc = run_suite(NumpyBackend(None), opts)
    assert all("burst_tflops" not in r for r in doc["benchmarks"]["matmul"]["rows"])  # no GPU: no burst
    from rocm_bridge.live.results import validate

    assert validate(doc) == []
