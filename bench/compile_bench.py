"""Compile lab timings: one compile per compiler (hipcc 5.2, clang 22, a clang 22 batch of five targets in one
process, Triton AMD + NVIDIA, nvcc), every example with clang 22 on gfx90a / gfx942 / gfx950 / gfx1100 / gfx1201
(VGPRs, LDS, occupancy, seconds), the Triton examples, the hipcc per-example table; then another session's rerun
latency on a page while compiles of every compiler run one after another.

    python bench/compile_bench.py [--targets gfx90a,gfx1100] [--reruns 20] [--page ch3]
                                  [--skip-compile-table] [--skip-clang22-table] [--skip-triton-table]

The compile load in the second table comes from this process, one compile after another: in the server a
compile is a child process the session thread waits for (no GIL held), so the load another session sees is the
compiler's CPU use, which is the same whoever starts it.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from startup import _rerun_times  # noqa: E402

from rocm_bridge.compile import clang22, examples, sandbox, toolchain, triton_lab  # noqa: E402
from rocm_bridge.compile.engine import compile_batch, compile_code  # noqa: E402

TARGETS22 = ["gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1201"]
from rocm_bridge.pages import page  # noqa: E402
from rocm_bridge.serve import start_server, stop_server  # noqa: E402


def _timed(code: str, target: str, mode: str, cache: bool, compiler: str = "auto") -> float:
    t0 = time.perf_counter()
    compile_code(code, target, mode=mode, use_cache=cache, allow_unsandboxed=True, compiler=compiler)
    return time.perf_counter() - t0


def _clock(fn) -> tuple[float, object]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def _header(title: str, columns: list[str], right_from: int) -> None:
    """A markdown table's title, header and separator (columns from `right_from` on are right-aligned)."""
    print(f"\n## {title}\n")
    print("| " + " | ".join(columns) + " |")
    print("|" + "|".join("---:" if i >= right_from else "---" for i in range(len(columns))) + "|")


def per_compiler_table() -> None:
    """One cold compile per compiler (a fresh comment makes each source new to the caches)."""
    from rocm_bridge.compile.nvidia import compile_cuda, nvcc_version
    from rocm_bridge.compile.twin import cuda_source
    tag = f"\n// bench {time.time()}\n"
    heavy = examples.source("register_heavy") + tag
    rows = []
    if toolchain.available():
        s, r = _clock(lambda: compile_code(heavy, "gfx90a", compiler="hipcc", use_cache=False, allow_unsandboxed=True))
        rows.append(("hipcc 5.2 (" + toolchain.version() + ")", "register_heavy", "gfx90a", s, r.ok))
    if clang22.available():
        s, r = _clock(lambda: compile_code(heavy, "gfx942", compiler="clang22", use_cache=False,
                                           allow_unsandboxed=True))
        rows.append((clang22.version(), "register_heavy", "gfx942", s, r.ok))
        s, rs = _clock(lambda: compile_batch(heavy + "// batch\n", TARGETS22, use_cache=False))
        rows.append((clang22.version() + ", one process", "register_heavy", "+".join(TARGETS22), s,
                     all(x.ok for x in rs.values())))
        seq = 0.0
        for t in TARGETS22:
            seq += _timed(heavy + "// seq\n", t, "full", cache=False, compiler="clang22")
        rows.append((clang22.version() + ", five processes", "register_heavy", "+".join(TARGETS22), seq, True))
    if triton_lab.available():
        code = triton_lab.example_source("matmul_bf16") + tag.replace("//", "#")
        s, r = _clock(lambda: triton_lab.compile_triton(code, "gfx942", "sm_90", use_cache=False,
                                                        allow_unsandboxed=True))
        rows.append((f"Triton {r.triton}", "matmul_bf16", "gfx942+sm_90", s, not r.error))
    if nvcc_version():
        s, r = _clock(lambda: compile_cuda(cuda_source("tiled_gemm") + tag, "sm_90", allow_unsandboxed=True))
        rows.append((nvcc_version(), "tiled_gemm (CUDA)", "sm_90", s, r.ok))
    _header(f"one compile per compiler (cold, s), sandboxed={sandbox.sandbox_works()}",
            ["compiler", "example", "target", "seconds", "ok"], 3)
    for c, ex, t, s, ok in rows:
        print(f"| {c} | {ex} | {t} | {s:.2f} | {'yes' if ok else 'no'} |")


def clang22_table() -> None:
    _header(f"clang 22, every example x target ({clang22.version()}; seconds: one target, cold)",
            ["example", "target", "kernel", "VGPR", "AGPR", "LDS B", "occupancy (waves/SIMD)", "compiler's", "s"], 3)
    for key in examples.all_keys():
        code = examples.source(key)
        for t in TARGETS22:
            s, r = _clock(lambda c=code, tt=t: compile_code(c, tt, compiler="clang22", use_cache=False,
                                                            allow_unsandboxed=True))
            if not r.kernels:
                err = next((d.explain or "error" for d in r.diagnostics if d.severity == "error"), "no kernel")
                print(f"| {key} | {t} | ({err}) | | | | | | {s:.2f} |")
            for k in r.kernels:
                print(f"| {key} | {t} | {k.display} | {k.vgprs} | {k.agprs} | {k.lds_bytes} | "
                      f"{k.occupancy['waves_per_simd']} | {k.compiler_occupancy} | {s:.2f} |")


def triton_table() -> None:
    _header("Triton examples, gfx942 and sm_90 (one sandboxed child for both; s = that child's run)",
            ["example", "target", "VGPR / regs", "AGPR", "LDS / shared B", "occupancy", "matrix instructions", "s"], 2)
    for key in triton_lab.EXAMPLES:
        s, r = _clock(lambda k=key: triton_lab.compile_triton(triton_lab.example_source(k), "gfx942", "sm_90",
                                                              use_cache=False, allow_unsandboxed=True))
        for t in r.targets:
            regs = t.vgprs if t.backend == "hip" else t.regs
            unit = "waves/SIMD" if t.backend == "hip" else "warps/SM"
            mx = ", ".join(f"{m} x{n}" for m, n in t.matrix.items()) or "-"
            print(f"| {key} | {t.arch} | {regs} | {t.agprs if t.backend == 'hip' else '-'} | {t.shared_bytes} | "
                  f"{t.occupancy}/{t.occupancy_max} {unit} | {mx} | {s:.2f} |")


def compile_table(targets: list[str]) -> None:
    _header(f"time per example (s), {toolchain.version()}, sandboxed={sandbox.sandbox_works()}",
            ["example", "target", "diagnostics cold", "resources + ISA cold", "resources warm (cache)", "ok"], 2)
    for key in examples.all_keys():
        code = examples.source(key)
        for t in targets:
            diag = _timed(code, t, "syntax", cache=False)
            full = _timed(code, t, "full", cache=False)
            compile_code(code, t, allow_unsandboxed=True)  # fill the cache
            warm = _timed(code, t, "full", cache=True)
            ok = compile_code(code, t, allow_unsandboxed=True).ok
            print(f"| {key} | {t} | {diag:.2f} | {full:.2f} | {warm * 1000:.2f} ms | {'yes' if ok else 'no'} |")


def rerun_table(route: str, reruns: int) -> None:
    proc, url = start_server()
    stop = threading.Event()
    compiles: list[float] = []

    def load() -> None:  # every compiler in turn, each source new to the caches
        code = examples.source("register_heavy")
        tri = triton_lab.example_source("softmax")
        while not stop.is_set():
            n = len(compiles)
            t0 = time.perf_counter()
            if n % 3 == 0 and toolchain.available():
                compile_code(code + f"\n// {n}\n", "gfx90a", compiler="hipcc", use_cache=False,
                             allow_unsandboxed=True)
            elif n % 3 == 1 and clang22.available():
                compile_code(code + f"\n// {n}\n", "gfx942", compiler="clang22", use_cache=False,
                             allow_unsandboxed=True)
            elif triton_lab.available():
                triton_lab.compile_triton(tri + f"\n# {n}\n", "gfx942", "sm_90", use_cache=False,
                                          allow_unsandboxed=True)
            compiles.append(time.perf_counter() - t0)

    try:
        quiet = asyncio.run(_rerun_times(url, route, reruns))
        worker = threading.Thread(target=load, daemon=True)
        worker.start()
        time.sleep(1.0)  # the first compile is under way
        busy = asyncio.run(_rerun_times(url, route, reruns * 15))  # long enough to span several compiles
        stop.set()
        worker.join(timeout=120)
    finally:
        stop_server(proc)
    print(f"\n## another session's rerun of {route or 'home'} (ms), {reruns} reruns\n")
    print("| while | p50 | p95 | max |")
    print("|---|---:|---:|---:|")
    for label, times in (("no compile", quiet), (f"compiles running ({len(compiles)} done)", busy)):
        ms = sorted(x * 1000 for x in times)
        print(f"| {label} | {statistics.median(ms):.0f} | {ms[int(0.95 * (len(ms) - 1))]:.0f} | {ms[-1]:.0f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--targets", default="gfx90a,gfx1100")
    ap.add_argument("--reruns", type=int, default=20)
    ap.add_argument("--page", default="ch3")
    ap.add_argument("--skip-compile-table", action="store_true")
    ap.add_argument("--skip-clang22-table", action="store_true")
    ap.add_argument("--skip-triton-table", action="store_true")
    args = ap.parse_args()
    if not toolchain.available() and not clang22.available():
        raise SystemExit("no hipcc and no clang 22: nothing to time")
    per_compiler_table()
    if not args.skip_clang22_table and clang22.available():
        clang22_table()
    if not args.skip_triton_table and triton_lab.available():
        triton_table()
    if not args.skip_compile_table and toolchain.available():
        compile_table([t for t in args.targets.split(",") if t])
    rerun_table(page(args.page).route, args.reruns)


if __name__ == "__main__":
    main()
