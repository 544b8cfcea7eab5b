"""Start-up and rerun speed of the app, printed as a table (targets from issue 2).

1. First page visible: a fresh `streamlit run app.py`, then a cold headless Chromium (new profile) opens the
   home page; time from /_stcore/health answering until the page title is visible. Target: <= 3 s.
2. Rerun time per page, server side: a small websocket client speaks Streamlit's protocol (BackMsg
   rerun_script -> ForwardMsg until script_finished) and times each rerun of every page. Target: median <= 50 ms
   for course pages.

    python bench/startup.py [--runs 3] [--reruns 15] [--pages home,ch1,...]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rocm_bridge.pages import PAGES  # noqa: E402
from rocm_bridge.serve import start_server, stop_server  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]  # fmt: skip


def first_page_visible(runs: int) -> list[tuple[float, float]]:
    """[(server start -> healthy s, healthy -> first page visible s)] for fresh servers and cold browsers."""
    from playwright.sync_api import sync_playwright

    out = []
    with sync_playwright() as pw:
        # The browser process starts first; each run gets a new context, i.e. an empty (cold) cache.
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS, headless=True)
        for _ in range(runs):
            t0 = time.perf_counter()
            proc, url = start_server()
            t_health = time.perf_counter()
            ctx = browser.new_context()
            page = ctx.new_page()
            page.goto(f"{url}/?lang=en")
            page.wait_for_selector("h1", timeout=60_000)
            t_visible = time.perf_counter()
            ctx.close()
            stop_server(proc)
            out.append((t_health - t0, t_visible - t_health))
        browser.close()
    return out


async def _rerun_times(url: str, url_path: str, reruns: int) -> list[float]:
    from rocm_bridge.stclient import Tab

    async with await Tab.open(url) as tab:
        await tab.run(url_path)  # first run: imports and caches, not a rerun
        return [(await tab.run(url_path)).seconds for _ in range(reruns)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, help="fresh servers for the first-page test")
    ap.add_argument("--reruns", type=int, default=15, help="reruns timed per page")
    ap.add_argument("--pages", default="", help="comma-separated page keys (default: all)")
    args = ap.parse_args()
    keys = [k for k in args.pages.split(",") if k]
    pages = [p for p in PAGES if not keys or p.key in keys]

    visible = first_page_visible(args.runs)
    print("\n## First page visible (fresh server, cold browser)\n")
    print("| run | start -> healthy (s) | healthy -> page visible (s) | target |")
    print("|---:|---:|---:|---|")
    for i, (health, vis) in enumerate(visible, 1):
        print(f"| {i} | {health:.2f} | {vis:.2f} | <= 3 s: {'ok' if vis <= 3 else 'MISSED'} |")

    proc, url = start_server()
    try:
        print("\n## Rerun time per page (server side, websocket client, ms)\n")
        print("| page | median | p90 | max | target (course pages <= 50 ms) |")
        print("|---|---:|---:|---:|---|")
        for spec in pages:
            times = sorted(t * 1000 for t in asyncio.run(_rerun_times(url, spec.route, args.reruns)))
            med = statistics.median(times)
            p90 = times[int(0.9 * (len(times) - 1))]
            course = spec.group == "learn"
            verdict = ("ok" if med <= 50 else "MISSED") if course else "-"
            print(f"| {spec.key} | {med:.1f} | {p90:.1f} | {times[-1]:.1f} | {verdict} |")
    finally:
        stop_server(proc)


if __name__ == "__main__":
    main()
