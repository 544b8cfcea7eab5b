"""The smallest contrast ratio of every explainer picture, per theme, as the back-row test measures it.

Starts the app, opens each picture of the registry at 1280x720 in presenter mode at its first and last step, in the
light theme and through a ?theme=dark link in the dark one, runs the back-row test's paint measurement
(tests/e2e/test_backrow_e2e.py, _PAINT: each text and stroked line against the colour painted under it, WCAG 2.1
ratio) and prints one row per picture and theme: the smallest text ratio, the smallest line ratio ("-": no line)
and the backdrop's mean luminance.

Run: python bench/picture_contrast.py [lang=en]   (needs /usr/bin/chromium)
"""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]


def _settle(pg, background: str) -> None:
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        with contextlib.suppress(PlaywrightError):  # the theme switch may reload the page once
            got = pg.evaluate("() => { const a = document.querySelector('[data-testid=\"stApp\"]'); "
                              "return a && [getComputedStyle(a).backgroundColor, a.dataset.testScriptState]; }")
            if got == [background, "notRunning"]:
                return
        pg.wait_for_timeout(200)
    raise SystemExit(f"the page never showed {background}")


def main(lang: str) -> None:
    from playwright.sync_api import sync_playwright

    from rocm_bridge.pages import page
    from rocm_bridge.serve import start_server, stop_server
    from rocm_bridge.ui.pictures import box_key, step_key
    from rocm_bridge.visual import pictures
    from rocm_bridge.visual.svg import CASING_CLASS
    from tests.e2e.test_backrow_e2e import _PAINT

    backgrounds = {"light": "rgb(255, 255, 255)", "dark": "rgb(23, 22, 20)"}
    proc, url = start_server()
    print(f"{'picture':<12} {'theme':<5} {'text min':>8} {'line min':>8} {'backdrop':>8}")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
            for theme, background in backgrounds.items():
                ctx = browser.new_context(viewport={"width": 1280, "height": 720})
                pg = ctx.new_page()
                for pid, spec in pictures.PICTURES.items():
                    texts, lines, backdrop = [], [], []
                    for step in sorted({1, spec.steps}):
                        pg.goto(f"{url}/{page(spec.page).route}?present=1&lang={lang}&theme={theme}"
                                f"&{step_key(pid)}={step}")
                        _settle(pg, background)
                        sel = f".st-key-{box_key(pid)}"
                        pg.wait_for_selector(f"{sel} svg.rb-picture", timeout=60_000)
                        got = pg.evaluate(_PAINT, [sel, CASING_CLASS])
                        texts += [t["ratio"] for t in got["texts"]]
                        lines += [ln["ratio"] for ln in got["lines"]]
                        backdrop.append(sum(got["grid"]) / len(got["grid"]))
                    line = f"{min(lines):.2f}" if lines else "-"
                    print(f"{pid:<12} {theme:<5} {min(texts):>8.2f} {line:>8} {max(backdrop):>8.2f}", flush=True)
                ctx.close()
            browser.close()
    finally:
        stop_server(proc)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "en")
