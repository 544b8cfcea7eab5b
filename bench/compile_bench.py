"""Compile lab timings: time to diagnostics (-fsyntax-only) and to resources + ISA (-S with the resource
remarks) for every page example, cold (hipcc runs) and warm (the engine's result cache); then another
session's rerun latency on a page while compiles run.

    python bench/compile_bench.py [--targets gfx90a,gfx1100] [--reruns 20] [--page ch3]

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

from rocm_bridge.compile import examples, sandbox, toolchain  # noqa: E402
from rocm_bridge.compile.engine import compile_code  # noqa: E402
from rocm_bridge.pages import page  # noqa: E402
from rocm_bridge.serve import start_server, stop_server  # noqa: E402


def _timed(code: str, target: str, mode: str, cache: bool) -> float:
    t0 = time.perf_counter()
    compile_code(code, target, mode=mode, use_cache=cache, allow_unsandboxed=True)
    return time.perf_counter() - t0


def compile_table(targets: list[str]) -> None:
    print(f"\n## time per example (s), {toolchain.version()}, sandboxed={sandbox.sandbox_works()}\n")
    print("| example | target | diagnostics cold | resources + ISA cold | resources warm (cache) | ok |")
    print("|---|---|---:|---:|---:|---|")
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
    compiles = []

    def load() -> None:
        code = examples.source("register_heavy")
        while not stop.is_set():
            compiles.append(_timed(code + f"\n// {len(compiles)}\n", "gfx90a", "full", cache=False))

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
    args = ap.parse_args()
    if not toolchain.available():
        raise SystemExit("no hipcc: nothing to time")
    if not args.skip_compile_table:
        compile_table([t for t in args.targets.split(",") if t])
    rerun_table(page(args.page).route, args.reruns)


if __name__ == "__main__":
    main()
