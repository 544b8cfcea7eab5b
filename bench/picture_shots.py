"""Screenshots of the mechanism pictures as a projector shows them, with the smallest rendered font size.

Starts the app, opens each picture's page at 1280x720 in presenter mode (?present=1) at the picture's print step,
scrolls the picture to the top, saves OUT/<id>-<lang>-<theme>.png and prints one row per picture: the step, the
rendered scale (CSS px per SVG unit), the smallest rendered SVG font size and the picture's height on screen.

Run: python bench/picture_shots.py [OUT=docs/pictures] [lang=en] [theme=light]   (needs /usr/bin/chromium)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

MECHANISMS = ("compatible", "per_op_time", "throughput", "coverage", "speedup", "roofline", "wavefront", "occupancy",
              "lds_banks")
MEASURE = """e => {
    const vb = e.viewBox.baseVal, r = e.getBoundingClientRect(), k = r.width / vb.width;
    const sizes = [...e.querySelectorAll('text')].map(t => parseFloat(t.getAttribute('font-size')) * k);
    return {scale: k, min_px: Math.min(...sizes), height: r.height};
}"""
SCROLL = """e => {
    e.scrollIntoView({block: 'start'});
    let p = e.parentElement;
    while (p && !(['auto', 'scroll'].includes(getComputedStyle(p).overflowY) && p.scrollHeight > p.clientHeight)) {
        p = p.parentElement;
    }
    (p || document.scrollingElement).scrollBy(0, e.getBoundingClientRect().top - 110);
}"""


def main(out: Path, lang: str, theme: str) -> None:
    from playwright.sync_api import sync_playwright

    from rocm_bridge import i18n
    from rocm_bridge.pages import PAGES
    from rocm_bridge.serve import start_server, stop_server
    from rocm_bridge.visual import pictures

    from browser import wait_for_app

    out.mkdir(parents=True, exist_ok=True)
    proc, url = start_server()
    print(f"{'picture':<12} {'step':>4} {'scale':>6} {'min px':>7} {'height':>7}  screenshot")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
            for pid in MECHANISMS:
                spec = pictures.PICTURES[pid]
                page_path = next(s for s in PAGES if s.key == spec.page).url_path
                step = spec.print_step % spec.steps + 1
                ctx = browser.new_context(viewport={"width": 1280, "height": 720}, color_scheme=theme)
                page = ctx.new_page()
                page.goto(f"{url}/{page_path}?present=1&lang={lang}&{pid}_step={step}")
                wait_for_app(page, 60_000)
                label = i18n.t(spec.title_key, lang).replace('"', '\\"')
                el = page.locator(f'svg.rb-picture[aria-label="{label}"]').first
                el.wait_for(timeout=30_000)
                el.evaluate(SCROLL)
                page.wait_for_timeout(500)
                m = el.evaluate(MEASURE)
                shot = out / f"{pid}-{lang}-{theme}.png"
                page.screenshot(path=str(shot))
                print(f"{pid:<12} {step:>4} {m['scale']:>6.3f} {m['min_px']:>7.1f} {m['height']:>7.0f}  {shot}")
                ctx.close()
            browser.close()
    finally:
        stop_server(proc)


if __name__ == "__main__":
    args = sys.argv[1:]
    main(Path(args[0]) if args else ROOT / "docs" / "pictures", args[1] if len(args) > 1 else "en",
         args[2] if len(args) > 2 else "light")
