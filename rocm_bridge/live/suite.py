"""The benchmark suite: seven measurements that put numbers into the course's formulas.

Every benchmark warms up, syncs the device before reading the clock, takes the median of repeats, sizes
itself from the device's free memory and stops when the run's time budget is spent. An out-of-memory error
in one benchmark is reported as such (status "oom") and the others still run.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import math
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rocm_bridge.errors import InvalidInput, OutOfMemory
from rocm_bridge.live import specs
from rocm_bridge.live.lock import bench_lock
from rocm_bridge.live.timing import Deadline, measure

SCHEMA_ID = "rocm_bridge.bench/1"
BENCHMARKS: tuple[str, ...] = (
    "matmul",
    "h2d",
    "dispatch",
    "fusion",
    "mixed_precision",
    "pipeline",
    "consistency",
)
# Which formula each benchmark feeds (rocm_bridge.formulas ids).
FORMULA_OF = {
    "matmul": "roofline",
    "h2d": "throughput",
    "dispatch": "per_op_time",
    "fusion": "speedup",
    "mixed_precision": "speedup",
    "pipeline": "throughput",
    "consistency": "migration_check",
}

# Caps: nothing a user picks can ask for more than this, whatever the device has free.
MAX_MATMUL_N = 16384
MAX_H2D_BYTES = 1 << 30
MAX_BUDGET_S = 600.0
MAX_REPEATS = 50
GPU_SIZES = (1024, 2048, 4096, 8192)
BURST_MIN_N = 4096  # a short-burst figure for matmuls this large (smaller ones are launch-bound anyway)
BURST_CALLS = 20
BURST_REST_S = 0.5
CPU_SIZES = (128, 256, 512)
MEMORY_FRACTION = 0.4  # of free device memory any one benchmark may use
BIG_OP_BYTES_GPU = 1 << 30  # the kernel-time op: large enough to be bandwidth-bound, several times any L2
BIG_OP_BYTES_CPU = 1 << 24


class Unsupported(Exception):
    """The framework or device cannot do this benchmark (e.g. pinned memory in JAX); reported, not an error."""


@dataclass
class SuiteOptions:
    benchmarks: tuple[str, ...] = BENCHMARKS
    sizes: tuple[int, ...] | None = None  # matmul n; None: GPU_SIZES or CPU_SIZES
    dtypes: tuple[str, ...] | None = None
    budget_s: float = 120.0
    repeats: int = 7
    warmup: int = 2
    min_sample_s: float = 0.02
    warmup_s: float = 0.0  # None-like 0: chosen per device (0.2 s on a GPU, so its clocks ramp up)
    h2d_bytes: int | None = None
    small: bool = False  # tiny shapes everywhere (tests, classroom demo on a laptop CPU)
    reference: bool = False  # also time each matmul with torch CUDA events (needs PyTorch with a GPU)
    env_check: bool = True  # run the environment check first and include it
    extra: dict = field(default_factory=dict)

    def validate(self) -> SuiteOptions:
        unknown = [b for b in self.benchmarks if b not in BENCHMARKS]
        if unknown or not self.benchmarks:
            raise InvalidInput(
                "live.errors.unknown_benchmark", name=", ".join(unknown) or "-", known=", ".join(BENCHMARKS)
            )
        if not (0 < self.budget_s <= MAX_BUDGET_S):
            raise InvalidInput("live.errors.bad_budget", value=self.budget_s, limit=MAX_BUDGET_S)
        if not (1 <= self.repeats <= MAX_REPEATS):
            raise InvalidInput("live.errors.bad_repeats", value=self.repeats, limit=MAX_REPEATS)
        for n in self.sizes or ():
            if not (16 <= n <= MAX_MATMUL_N):
                raise InvalidInput("live.errors.bad_size", value=n, limit=MAX_MATMUL_N)
        if self.h2d_bytes is not None and not (1 << 10 <= self.h2d_bytes <= MAX_H2D_BYTES):
            raise InvalidInput("live.errors.bad_h2d", value=self.h2d_bytes, limit=MAX_H2D_BYTES)
        return self


def max_matmul_n(free_bytes: int | None, bytes_per_elem: int, fraction: float = MEMORY_FRACTION) -> int:
    """Largest n whose three n x n matrices (A, B, C) fit in fraction of the free memory, capped at MAX_MATMUL_N."""
    if free_bytes is None:
        return MAX_MATMUL_N
    if free_bytes <= 0:
        return 0
    n = int(math.sqrt(fraction * free_bytes / (3 * bytes_per_elem)))
    return min(MAX_MATMUL_N, n)


def bounded_bytes(wanted: int, free_bytes: int | None, fraction: float = MEMORY_FRACTION, floor: int = 1 << 16) -> int:
    """wanted, shrunk to fraction of free memory (device or host), never below floor."""
    if free_bytes is None:
        return wanted
    return min(wanted, max(floor, int(fraction * free_bytes)))


def host_available_bytes() -> int | None:
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()


def _spec_dict(spec: specs.GpuSpec | None) -> dict | None:
    if spec is None:
        return None
    return {
        "model": spec.model,
        "vendor": spec.vendor,
        "peaks_tflops": spec.peaks_tflops,
        "memory_bandwidth_tbs": spec.memory_bandwidth_tbs,
        "per_device_note": spec.per_device_note,
        "source": spec.source,
    }


class _Runner:
    def __init__(self, backend, options: SuiteOptions, progress: Callable[[float, str], None] | None) -> None:
        self.b = backend
        self.o = options
        self.progress = progress or (lambda fraction, name: None)
        self.deadline = Deadline(options.budget_s)
        self.device = backend.device()
        self.gpu = self.device.kind == "gpu"
        self.spec = specs.lookup(self.device.name, self.device.memory_total_bytes) if self.gpu else None

    def time(self, fn, **kw):
        kw.setdefault("warmup", self.o.warmup)
        kw.setdefault("repeats", self.o.repeats)
        kw.setdefault("min_sample_s", self.o.min_sample_s)
        kw.setdefault("warmup_s", self.o.warmup_s or (0.0 if self.o.small or not self.gpu else 0.2))
        return measure(fn, self.b.sync, deadline=self.deadline, **kw)

    def burst(self, fn, n: int) -> float | None:
        """Seconds of the fastest of BURST_CALLS single calls after a rest, on a GPU at large n: what a short job
        sees at boost clocks. The sustained figure (the median under continuous load) is lower once power and
        temperature pull the clocks down (on an H200, bf16 n=8192: about 780 against 685 TFLOP/s)."""
        if not self.gpu or n < BURST_MIN_N or self.deadline.expired():
            return None
        time.sleep(BURST_REST_S)
        timing = measure(fn, self.b.sync, warmup=1, repeats=BURST_CALLS, inner=1, deadline=self.deadline)
        return min(timing.samples_s)

    # 1 ---------------------------------------------------------------------------------------------
    def matmul(self) -> dict:
        supported = self.b.supported_dtypes()
        dtypes = [d for d in (self.o.dtypes or supported) if d in supported]
        sizes = list(self.o.sizes or ((64, 128) if self.o.small else GPU_SIZES if self.gpu else CPU_SIZES))
        free = self.b.free_memory_bytes()
        rows, capped = [], []
        reference = None
        if self.o.reference:
            from rocm_bridge.live import reference as reference_mod

            reference = reference_mod
        for dtype in dtypes:
            cap = max_matmul_n(free, 4 if dtype in ("fp32", "tf32") else 2)
            for n in sizes:
                if n > cap:
                    capped.append({"dtype": dtype, "n": n, "cap": cap})
                    continue
                if self.deadline.expired():
                    return {"rows": rows, "capped": capped, "partial": True}
                with self.oom_guard(f"matmul {dtype} n={n}"):
                    fn = self.b.make_matmul(n, dtype)
                    per_call = getattr(fn, "matmuls_per_call", 1)  # JAX batches small products into one call
                    flops = 2.0 * n**3 * per_call
                    burst = self.burst(fn, n)
                    timing = self.time(
                        fn, min_sample_s=max(self.o.min_sample_s, 0.05 if self.gpu and not self.o.small else 0.0)
                    )
                del fn
                tflops = flops / timing.median_s / 1e12
                row = {
                    "dtype": dtype,
                    "n": n,
                    "seconds": timing.median_s,
                    "tflops": tflops,
                    "spread": timing.spread,
                    "pct_peak": specs.pct_of_peak(tflops, self.spec, dtype),
                }
                if burst is not None:
                    row["burst_tflops"] = flops / burst / 1e12
                if reference is not None:
                    ref = reference.event_matmul_tflops(n, dtype, repeats=max(self.o.repeats, 10), min_sample_s=0.05)
                    row["reference_tflops"] = ref
                    row["ratio"] = tflops / ref if ref else None
                rows.append(row)
                self.b.release()
        return {"rows": rows, "capped": capped, "partial": False}

    # 2 ---------------------------------------------------------------------------------------------
    def h2d(self) -> dict:
        if not self.gpu:
            raise Unsupported("no GPU: host and device memory are the same")
        wanted = self.o.h2d_bytes or (1 << 20 if self.o.small else 256 << 20)
        nbytes = bounded_bytes(wanted, self.b.free_memory_bytes())
        nbytes = bounded_bytes(nbytes, host_available_bytes(), fraction=0.1)
        rows = []
        with self.oom_guard(f"host->device {nbytes} bytes"):
            fns = self.b.make_h2d(nbytes)
            for mode in ("pageable", "pinned"):
                fn = fns.get(mode)
                if fn is None:
                    rows.append({"mode": mode, "bytes": nbytes, "seconds": None, "gbs": None, "status": "unsupported"})
                    continue
                timing = self.time(fn, min_sample_s=0.0, inner=1)
                rows.append(
                    {
                        "mode": mode,
                        "bytes": nbytes,
                        "seconds": timing.median_s,
                        "gbs": nbytes / timing.median_s / 1e9,
                        "status": "ok",
                    }
                )
            del fns
        return {"rows": rows, "bytes": nbytes}

    # 3 ---------------------------------------------------------------------------------------------
    def dispatch(self) -> dict:
        tiny = self.b.make_tiny_op()
        # (a) one tiny op, then wait: dispatch + (tiny) kernel + sync, the cost every small op pays.
        synced = self.time(
            tiny, inner=1, repeats=max(self.o.repeats, 50) if not self.o.small else self.o.repeats, min_sample_s=0.0
        )
        # (b) many tiny ops back to back, one wait at the end: the host's dispatch rate.
        n_back = 200 if self.o.small else 2000
        back = self.time(tiny, inner=n_back, min_sample_s=0.0)
        wanted = (1 << 20) if self.o.small else (BIG_OP_BYTES_GPU if self.gpu else BIG_OP_BYTES_CPU)
        nbytes = bounded_bytes(wanted, self.b.free_memory_bytes(), fraction=MEMORY_FRACTION / 2)
        numel = nbytes // 4
        with self.oom_guard(f"elementwise op over {numel} floats"):
            big = self.b.make_big_op(numel)
            kernel = self.time(big)
            del big
        dispatch_s = back.median_s
        sync_s = max(0.0, synced.median_s - dispatch_s)
        return {
            "tiny_synced_us": synced.median_s * 1e6,
            "dispatch_us": dispatch_s * 1e6,
            "sync_us": sync_s * 1e6,
            "big_numel": numel,
            "kernel_us": kernel.median_s * 1e6,
            "kernel_gbs": 2 * numel * 4 / kernel.median_s / 1e9,  # one read + one write per element
        }

    # 4 ---------------------------------------------------------------------------------------------
    def fusion(self) -> dict:
        numel = (1 << 16) if self.o.small else ((1 << 24) if self.gpu else (1 << 20))
        with self.oom_guard(f"fusion over {numel} floats"):
            unfused, fused, how = self.b.make_fusion(numel)
            t0 = time.perf_counter()
            out = fused()
            self.b.sync(out)
            compile_s = time.perf_counter() - t0
            t_unfused = self.time(unfused)
            t_fused = self.time(fused)
        return {
            "numel": numel,
            "ops": 8,
            "how": how,
            "unfused_s": t_unfused.median_s,
            "fused_s": t_fused.median_s,
            "first_call_s": compile_s,
            "speedup": t_unfused.median_s / t_fused.median_s,
        }

    # 5 ---------------------------------------------------------------------------------------------
    def mixed_precision(self) -> dict:
        batch, width = (32, 64) if self.o.small else ((512, 4096) if self.gpu else (64, 256))
        with self.oom_guard(f"training step batch={batch} width={width}"):
            step32, label32 = self.b.make_train_step(False, batch, width)
            t32 = self.time(step32, min_sample_s=self.o.min_sample_s)
            del step32
            stepmp, labelmp = self.b.make_train_step(True, batch, width)
            tmp = self.time(stepmp, min_sample_s=self.o.min_sample_s)
            del stepmp
        return {
            "batch": batch,
            "width": width,
            "fp32_label": label32,
            "mixed_label": labelmp,
            "fp32_s": t32.median_s,
            "mixed_s": tmp.median_s,
            "speedup": t32.median_s / tmp.median_s,
        }

    # 6 ---------------------------------------------------------------------------------------------
    def pipeline(self) -> dict:
        batch, features = (16, 64) if self.o.small else ((256, 4096) if self.gpu else (64, 512))
        n_batches = 8 if self.o.small else 32
        produce, step = self.b.make_pipeline_parts(batch, features)
        t_produce = self.time(produce, repeats=3, min_sample_s=0.0, inner=1)
        t_step = self.time(step, repeats=3, min_sample_s=0.0, inner=1)
        out = {
            "batch": batch,
            "features": features,
            "n_batches": n_batches,
            "t_produce_s": t_produce.median_s,
            "t_compute_s": t_step.median_s,
        }
        for mode, prefetch in (("serial", False), ("prefetch", True)):
            run = self.b.make_pipeline(n_batches, batch, features, prefetch)
            timing = self.time(run, warmup=1, repeats=3, min_sample_s=0.0, inner=1)
            out[f"{mode}_s"] = timing.median_s
            out[f"{mode}_items_per_s"] = n_batches * batch / timing.median_s
        out["predicted_serial_items_per_s"] = batch / (t_produce.median_s + t_step.median_s)
        workers = 2  # producer threads in the prefetch run (see base.thread_pipeline)
        out["workers"] = workers
        out["predicted_overlap_items_per_s"] = batch / max(t_produce.median_s / workers, t_step.median_s)
        out["speedup"] = out["serial_s"] / out["prefetch_s"]
        return out

    # 7 ---------------------------------------------------------------------------------------------
    def consistency(self) -> dict:
        rows = self.b.consistency()
        return {
            "rows": rows,
            "device": self.device.name,
            "all_ok": all(r["ok"] for r in rows),
            "same_device": not self.gpu,
        }

    # ---------------------------------------------------------------------------------------------
    def oom_guard(self, what: str):
        backend = self.b

        class _Guard:
            def __enter__(self_inner):
                return self_inner

            def __exit__(self_inner, exc_type, exc, tb):
                if exc is not None and not isinstance(exc, OutOfMemory) and backend.is_oom(exc):
                    backend.release()
                    raise OutOfMemory(detail=what) from exc
                return False

        return _Guard()

    def run_one(self, name: str) -> dict:
        if self.deadline.expired():
            return {"status": "skipped", "reason": "time budget spent"}
        t0 = time.perf_counter()
        try:
            body = getattr(self, name)()
            status = "partial" if body.pop("partial", False) else "ok"
            result = {"status": status, **body}
        except OutOfMemory as err:
            result = {"status": "oom", "message": str(err)}
        except Unsupported as exc:
            result = {"status": "unsupported", "reason": str(exc)}
        except Exception as exc:  # a benchmark must never take the page down; the row says what broke
            if self.b.is_oom(exc):
                result = {"status": "oom", "message": str(OutOfMemory(detail=name))}
            else:
                result = {"status": "error", "message": f"{type(exc).__name__}: {exc}"[:500]}
        finally:
            with contextlib.suppress(Exception):  # releasing cached memory is best effort
                self.b.release()
        result["elapsed_s"] = time.perf_counter() - t0
        result["formula"] = FORMULA_OF[name]
        return result


def run_suite(
    backend, options: SuiteOptions | None = None, progress: Callable[[float, str], None] | None = None
) -> dict:
    """Run the chosen benchmarks on backend (holding the server-wide lock) and return the result document."""
    options = (options or SuiteOptions()).validate()
    with bench_lock(f"bench:{getattr(backend, 'name', '?')}"):
        started = _now_iso()
        info = backend.info()
        runner = _Runner(backend, options, progress)
        env_check = None
        if options.env_check:
            try:
                env_check = backend.env_check()
            except Exception as exc:  # the check reports failures; it must not stop the suite
                env_check = {"error": f"{type(exc).__name__}: {exc}"[:500]}
        results = {}
        for i, name in enumerate(options.benchmarks):
            runner.progress(i / len(options.benchmarks), name)
            results[name] = runner.run_one(name)
        runner.progress(1.0, "done")
        return {
            "schema": SCHEMA_ID,
            "source": "measured",
            "date": started,
            "backend": backend.name,
            "env": info.as_dict(),
            "device": runner.device.as_dict(),
            "spec": _spec_dict(runner.spec),
            "host": {
                "python": sys.version.split()[0],
                "platform": platform.platform(terse=True),
                "machine": platform.machine(),
                "cpu_count": os.cpu_count(),
            },
            "options": {
                "budget_s": options.budget_s,
                "repeats": options.repeats,
                "warmup": options.warmup,
                "small": options.small,
                "reference": options.reference,
            },
            "env_check": env_check,
            "elapsed_s": runner.deadline.elapsed(),
            "benchmarks": results,
        }
