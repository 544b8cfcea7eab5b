"""What the theme switch costs a visitor, printed as a table (docs/ux.md, "Light / dark").

For each case, a headless Chromium context (new profile unless the case says otherwise) and one app server:
  first visit   ?theme=dark in a browser that has never seen the app: Streamlit shows its default, the switch
                writes Streamlit's localStorage entry and reloads once.
  next visit    the same link again in that browser: Streamlit reads the entry at load, no reload.
  switch        clicking "Dark" in the sidebar of an open light page (its charts drawn): one reload.
Columns: page loads (document loads counted by the browser) and seconds until the page shows the dark
background with its script run finished.

    python bench/theme_switch.py [--runs 3] [--page hardware]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rocm_bridge import i18n  # noqa: E402
from rocm_bridge.serve import start_server, stop_server  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]  # fmt: skip
DARK, LIGHT = "rgb(23, 22, 20)", "rgb(255, 255, 255)"
STATE = ("[getComputedStyle(document.querySelector('[data-testid=\"stApp\"]')).backgroundColor, "
         "!!document.querySelector('h1') && document.querySelector('[data-testid=\"stApp\"]')"
         ".dataset.testScriptState === 'notRunning']")

DRAWN = ("Array.from(document.querySelectorAll('[data-testid=\"stPlotlyChart\"]'))"
         ".every(c => c.querySelector('.main-svg'))")


def wait_for(page, background: str, timeout_s: float = 120) -> None:
    from playwright.sync_api import Error

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if page.evaluate(STATE) == [background, True]:
                return
        except Error:  # the reload replaced the document while polling
            pass
        page.wait_for_timeout(50)
    raise TimeoutError(background)


def run(runs: int, route: str) -> dict[str, list[tuple[int, float]]]:
    from playwright.sync_api import sync_playwright

    out: dict[str, list[tuple[int, float]]] = {"first visit": [], "next visit": [], "switch": []}
    proc, url = start_server()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS, headless=True)
            page = browser.new_page()  # warm the server's imports for this page once, outside the table
            page.goto(f"{url}/{route}?lang=en")
            wait_for(page, LIGHT)
            page.context.close()
            for _ in range(runs):
                ctx = browser.new_context()
                page = ctx.new_page()
                loads: list[str] = []
                page.on("load", lambda _p, loads=loads: loads.append("load"))
                for case in ("first visit", "next visit"):
                    loads.clear()
                    t0 = time.perf_counter()
                    page.goto(f"{url}/{route}?lang=en&theme=dark")
                    wait_for(page, DARK)
                    out[case].append((len(loads), time.perf_counter() - t0))
                ctx.close()
                ctx = browser.new_context()
                page = ctx.new_page()
                page.goto(f"{url}/{route}?lang=en")
                wait_for(page, LIGHT)
                page.wait_for_function(DRAWN, timeout=60_000)  # the click waits for a busy page: time the switch
                page.wait_for_timeout(1000)
                loads = []
                page.on("load", lambda _p, loads=loads: loads.append("load"))
                t0 = time.perf_counter()
                page.get_by_role("radio", name=i18n.t("theme.dark", "en"), exact=True).click()
                wait_for(page, DARK)
                out["switch"].append((len(loads), time.perf_counter() - t0))
                ctx.close()
            browser.close()
    finally:
        stop_server(proc)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--page", default="hardware", help="route of the page to open (default: hardware)")
    args = ap.parse_args()
    results = run(args.runs, args.page)
    print(f"theme switch on /{args.page}, {args.runs} runs")
    print(f"{'case':<12} {'page loads':>10} {'median s':>9} {'max s':>7}")
    for case, rows in results.items():
        loads = sorted({n for n, _ in rows})
        times = [t for _, t in rows]
        print(f"{case:<12} {'/'.join(map(str, loads)):>10} {statistics.median(times):>9.2f} {max(times):>7.2f}")


if __name__ == "__main__":
    main()
