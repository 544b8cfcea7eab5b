"""Handouts in a real browser: the print layout hides the app around the chapter, each widget prints as a static
chart, formula cards print with KaTeX, and Chromium makes a PDF of it (its text read back with poppler's pdftotext).
The app runs in dark mode (the browser prefers dark): the print must still be black on white."""

import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest

from rocm_bridge import i18n
from rocm_bridge.course.handout import chapter_blocks, quiz_sheet, widget_print
from rocm_bridge.course.widgets import PrintChart
from rocm_bridge.formulas import FORMULAS
from rocm_bridge.visual import figures

from browser import EXCEPTION, wait_for_app

CHAPTER = "ch4"
REQUIRE = os.environ.get("ROCM_BRIDGE_REQUIRE_BROWSER") == "1"  # .ci/run: a missing part fails, never skips
# every control a widget could leave on the page; none may be visible on paper
_VISIBLE_CONTROLS = """() => Array.from(document.querySelectorAll(
    'input, textarea, select, button, [role="slider"], [role="switch"], [role="combobox"], [role="radio"], '
    + '[data-baseweb="select"], .modebar')).filter(e => e.getClientRects().length > 0
    && getComputedStyle(e).visibility !== 'hidden').map(e => e.outerHTML.slice(0, 80))"""


def _pdf_text(pdf: bytes, tmp_path) -> str:
    if not shutil.which("pdftotext"):
        if REQUIRE:
            pytest.fail("pdftotext (Debian poppler-utils) is missing; .ci/run installs it")
        pytest.skip("no pdftotext (apt-get install poppler-utils; .ci/run does)")
    path = tmp_path / "handout.pdf"
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _luminance(css_colour: str) -> float:
    r, g, b = (int(v) for v in re.findall(r"\d+", css_colour)[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_chapter_handout_prints_charts_and_formula_cards_without_controls(app_server, page, lang, tmp_path):
    page.emulate_media(color_scheme="dark")
    page.goto(f"{app_server}/handout?lang={lang}&ho_doc={CHAPTER}&ho_quiz=1&ho_key=1")
    wait_for_app(page, 60_000)
    assert page.locator(EXCEPTION).count() == 0
    title = i18n.t(f"chapters.{CHAPTER}.title", lang)
    assert page.locator(f"h2:has-text('{title}')").count() >= 1
    charts = [widget_print(b.text, lang) for b in chapter_blocks(CHAPTER, lang) if b.kind == "widget"]
    charts = [c for c in charts if isinstance(c, PrintChart)]
    assert len(charts) == 1
    page.wait_for_selector('[data-testid="stMain"] .js-plotly-plot svg.main-svg', state="attached", timeout=60_000)
    app_bg = page.locator('[data-testid="stApp"]').evaluate("e => getComputedStyle(e).backgroundColor")
    assert _luminance(app_bg) < 0.3, f"the app should be dark here, background {app_bg}"
    last = quiz_sheet(CHAPTER, lang)[-1]
    assert page.get_by_text(i18n.t("handout.key_title", lang), exact=True).count() == 1
    assert last.number >= 8

    # the print button opens the browser's dialog (stubbed: headless Chromium has none)
    # the buttons read the catalog's words in the page's language (not JSON escapes)
    assert page.locator('[data-rb-action="print"]').inner_text() == i18n.t("handout.print", lang)
    assert page.locator("#rb-svg").inner_text() == i18n.t("handout.svg", lang)
    page.evaluate("() => { window.print = () => { window.__printed = (window.__printed || 0) + 1; }; }")
    page.locator('[data-rb-action="print"]').click()
    assert page.evaluate("window.__printed") == 1
    # the charts as SVG files, made in the browser
    with page.expect_download() as download:
        page.locator("#rb-svg").click()
    assert download.value.suggested_filename == f"{CHAPTER}-{lang}-1.svg"
    svg = ET.parse(download.value.path()).getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg" and svg.get("width") == str(figures.PRINT_WIDTH)
    svg_text = "".join(svg.itertext())
    assert _squash(charts[0].figure.layout.title.text.replace("<br>", "")) in _squash(svg_text)

    page.emulate_media(media="print")
    assert page.locator('[data-testid="stSidebar"]').evaluate("e => getComputedStyle(e).display") == "none"
    assert page.evaluate(_VISIBLE_CONTROLS) == []  # no widget control (nor the handout's own) on paper
    plots = page.locator('[data-testid="stMain"] .js-plotly-plot')
    assert plots.count() == len(charts)
    main_svg = plots.first.locator("svg.main-svg").first
    assert main_svg.get_attribute("width") == str(figures.PRINT_WIDTH)
    assert main_svg.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(255, 255, 255)"  # white paper
    for part in ("stApp", "stMain"):  # the whole page is paper, not only the main column (the app is dark here)
        bg = page.locator(f'[data-testid="{part}"]').evaluate("e => getComputedStyle(e).backgroundColor")
        assert bg == "rgb(255, 255, 255)", (part, bg)
    paragraph = page.locator('[data-testid="stMain"] [data-testid="stMarkdownContainer"] p').first
    assert paragraph.evaluate("e => getComputedStyle(e).color") == "rgb(0, 0, 0)"
    assert page.locator(".katex").first.evaluate("e => getComputedStyle(e).color") == "rgb(0, 0, 0)"
    assert page.locator('[data-testid="stMain"] .katex').count() >= 2  # the card and the chart's worked formula

    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") >= 3  # chapter, quiz sheet, key
    text = _squash(_pdf_text(pdf, tmp_path))
    layout = charts[0].figure.layout
    for piece in (layout.title.text.replace("<br>", ""), layout.xaxis.title.text):  # the chart, as vector text
        assert _squash(piece) in text, piece
    card = FORMULAS["throughput"]
    assert _squash(i18n.t(card.title_key, lang)) in text  # the formula card: title, KaTeX and its symbol table
    assert "Throughput=" in text and "tcompute" in text
    for _, meaning in card.symbols:
        assert _squash(i18n.t(meaning, lang)) in text
    assert _squash(i18n.t("handout.print", lang)) not in text  # the buttons stay off paper


def _page_fill(pdf: bytes, tmp_path) -> list[tuple[float, str]]:
    """(how far down the page its lowest text reaches, 0..1; the page's first line) for every page of the PDF,
    from poppler's pdftotext -bbox-layout."""
    _pdf_text(pdf, tmp_path)  # skips or fails without pdftotext, as the other tests
    path = tmp_path / "handout.pdf"
    out = subprocess.run(["pdftotext", "-bbox-layout", str(path), "-"], capture_output=True, text=True,
                         check=True).stdout
    root = ET.fromstring(re.sub(r'\sxmlns="[^"]+"', "", out, count=1))
    pages = []
    for pg in root.iter("page"):
        words = list(pg.iter("word"))
        low = max((float(w.get("yMax")) for w in words), default=0.0)
        pages.append((low / float(pg.get("height")), " ".join(w.text or "" for w in words[:8])))
    return pages


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_pdf_starts_with_the_chapter_and_has_no_half_empty_pages(app_server, page, lang, tmp_path):
    """Issue 23: page 1 opened with the handout page's own heading and instructions, and sections kept whole
    jumped pages, leaving the page before them half empty. Only the last page of the chapter, of the quiz sheet
    and of the key (each followed by a deliberate page break) may end early."""
    page.goto(f"{app_server}/handout?lang={lang}&ho_doc={CHAPTER}&ho_quiz=1&ho_key=1")
    wait_for_app(page, 60_000)
    page.wait_for_selector('[data-testid="stMain"] .js-plotly-plot svg.main-svg', state="attached", timeout=60_000)
    pages = _page_fill(page.pdf(format="A4"), tmp_path)
    title = i18n.t(f"chapters.{CHAPTER}.title", lang)
    assert _squash(pages[0][1]).startswith(_squash(title)), pages[0][1]
    assert i18n.t("handout.title", lang) not in pages[0][1]
    starts = [i for i, (_, first) in enumerate(pages) if _squash(first).startswith(
        (_squash(i18n.t("handout.sheet_title", lang, title=title)), _squash(i18n.t("handout.key_title", lang))))]
    section_ends = {i - 1 for i in starts} | {len(pages) - 1}
    half_empty = [(i + 1, round(fill, 2)) for i, (fill, first) in enumerate(pages)
                  if i not in section_ends and first and fill < 0.6]
    assert not half_empty, half_empty
