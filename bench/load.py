"""A classroom on one server: N sessions rerunning a page at once, over Streamlit's websocket protocol.

Each session opens its own websocket (a browser tab), runs the page once, then times `--reruns` reruns back to
back; all sessions run concurrently. Loopback only, bounded in count and time. Prints p50 / p95 per level.

    python bench/load.py [--levels 1,10,30] [--reruns 10] [--page ch3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from startup import _rerun_times  # noqa: E402

from rocm_bridge.pages import page  # noqa: E402
from rocm_bridge.serve import start_server, stop_server  # noqa: E402


async def _level(url: str, route: str, sessions: int, reruns: int) -> tuple[list[float], float]:
    t0 = time.perf_counter()
    results = await asyncio.wait_for(
        asyncio.gather(*(_rerun_times(url, route, reruns) for _ in range(sessions))), timeout=600
    )
    return [t for times in results for t in times], time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--levels", default="1,10,30", help="concurrent sessions per level")
    ap.add_argument("--reruns", type=int, default=10, help="timed reruns per session")
    ap.add_argument("--page", default="ch3", help="page key (default ch3: a chapter with a live widget)")
    args = ap.parse_args()
    route = page(args.page).route
    levels = [int(x) for x in args.levels.split(",") if x]
    proc, url = start_server(env={"ROCM_BRIDGE_MAX_SESSIONS_PER_CLIENT": "1000"})  # every session is loopback's
    try:
        print(f"\n## {args.page}: concurrent sessions, each {args.reruns} reruns (ms, server round trip)\n")
        print("| sessions | p50 | p95 | max | reruns/s served |")
        print("|---:|---:|---:|---:|---:|")
        for n in levels:
            times, wall = asyncio.run(_level(url, route, n, args.reruns))
            ms = sorted(t * 1000 for t in times)
            p95 = ms[int(0.95 * (len(ms) - 1))]
            print(f"| {n} | {statistics.median(ms):.0f} | {p95:.0f} | {ms[-1]:.0f} | {len(ms) / wall:.0f} |")
    finally:
        stop_server(proc)


if __name__ == "__main__":
    main()
