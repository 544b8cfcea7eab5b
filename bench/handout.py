"""What a handout costs, printed as tables.

1. Building each widget's print item (headless, first call in this process, then cached): ms per widget and language.
2. With --pdf: a real server and headless Chromium open /handout for each chapter (quiz sheet and key included),
   wait for the charts, and print a PDF: seconds until the page is ready, pages, PDF size, charts on the page.

    python bench/handout.py [--pdf] [--langs en,zh] [--chapters ch1,ch4]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rocm_bridge import i18n  # noqa: E402
from rocm_bridge.course import (
    handout,  # noqa: E402
    widgets,  # noqa: E402
)
from rocm_bridge.pages import CHAPTERS  # noqa: E402

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]  # fmt: skip
PAGE = re.compile(rb"/Type\s*/Page\b")  # a page object; the page tree is /Type /Pages


def build_table(langs: list[str]) -> None:
    print(f"{'widget':<22}" + "".join(f"{lang + ' first ms':>14}{lang + ' again ms':>14}" for lang in langs)
          + "  kind")
    for name in widgets.WIDGETS:
        cells, kind = "", ""
        for lang in langs:
            t0 = time.perf_counter()
            item = handout.widget_print(name, lang)
            t1 = time.perf_counter()
            handout.widget_print(name, lang)
            t2 = time.perf_counter()
            cells += f"{(t1 - t0) * 1e3:>14.1f}{(t2 - t1) * 1e3:>14.3f}"
            kind = type(item).__name__
        print(f"{name:<22}{cells}  {kind}")


def pdf_table(langs: list[str], chapters: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    from rocm_bridge.serve import start_server, stop_server

    proc, url = start_server()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS, headless=True)
            print(f"{'chapter':<8}{'lang':<6}{'ready s':>9}{'pdf s':>8}{'pages':>7}{'PDF KiB':>9}{'charts':>8}")
            for lang in langs:
                for chapter in chapters:
                    page = browser.new_page()
                    expected = sum(b.kind == "widget" and isinstance(handout.widget_print(b.text, lang),
                                                                     widgets.PrintChart)
                                   for b in handout.chapter_blocks(chapter, lang))
                    t0 = time.perf_counter()
                    page.goto(f"{url}/handout?lang={lang}&ho_doc={chapter}&ho_quiz=1&ho_key=1")
                    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]',
                                           timeout=120_000)
                    if expected:
                        page.wait_for_function(
                            f"document.querySelectorAll('.js-plotly-plot svg.main-svg').length >= {expected}",
                            timeout=120_000)
                    t1 = time.perf_counter()
                    page.emulate_media(media="print")
                    pdf = page.pdf(format="A4")
                    t2 = time.perf_counter()
                    charts = page.locator(".js-plotly-plot").count()
                    print(f"{chapter:<8}{lang:<6}{t1 - t0:>9.1f}{t2 - t1:>8.1f}{len(PAGE.findall(pdf)):>7}"
                          f"{len(pdf) / 1024:>9.0f}{charts:>8}")
                    page.close()
            browser.close()
    finally:
        stop_server(proc)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pdf", action="store_true", help="also print every chapter to PDF with Chromium")
    parser.add_argument("--langs", default=",".join(i18n.LANGS))
    parser.add_argument("--chapters", default=",".join(CHAPTERS))
    args = parser.parse_args()
    langs = args.langs.split(",")
    build_table(langs)
    if args.pdf:
        print()
        pdf_table(langs, args.chapters.split(","))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
