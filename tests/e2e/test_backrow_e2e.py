"""Readable from the back row: every explainer picture of the registry (rocm_bridge.visual.pictures.PICTURES), opened
on its page in presenter mode (?present=1) in both languages, at its first and last step (and every variant at its
last step), measured in the DOM as the browser draws it.

- at 1280x720 every text of the picture (SVG <text>, Plotly's SVG text for figure frames) is at least
  MIN_FONT_PX on screen: its computed font size times the scale of its screen transform (the SVG's viewBox
  scaling, Plotly's transforms), not the attribute;
- no two labels' boxes overlap;
- at 1440x900 no text box sticks out of the picture's box (nothing cut off).

- at every step it opens, every text reads against what is painted under it: the WCAG 2.1 contrast ratio of the
  text's fill and the colour under it (the SVG shapes painted before it, composited with their opacities, over the
  page's own background) is at least 4.5:1, 3:1 for large text (>= 24 px, or bold >= 18.67 px); every stroked line
  keeps 3:1 against what it is drawn on (WCAG 2.1 SC 1.4.11), sampled along its length (a line that vanishes
  where it crosses a block is broken there; a stroke of its own colour, or another line merely crossing it, is
  not its background; a wider stroke running under it, a casing, is);
- in the dark theme as well (test_picture_reads_in_the_dark): a lecture hall often projects dark, and dark breaks
  what light cannot: black ink on a dark page, a white line over a yellow bar, a light-theme picture on a dark
  page. The dark page is opened the way a shared link does it (?theme=dark: the app's switch writes Streamlit's
  theme entry and reloads once), and the picture must really be drawn for it: the backdrop painted over the
  picture (a 16 x 9 grid) is dark on average, with few bright areas; in light it is light.

One server, one browser page, one page load per picture and language (the controls step it). With ROCM_BRIDGE_PICTURE_SHOTS=1 the test also saves each picture at its
print step, light theme, at 1280x720 in presenter mode as docs/pictures/<id>-<lang>.png, and writes the smallest
font measured per picture to docs/pictures/README.md (the integrator's table).
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

from rocm_bridge import i18n
from rocm_bridge.pages import page
from rocm_bridge.ui.pictures import box_key, step_key, variant_key
from rocm_bridge.visual import pictures, style
from rocm_bridge.visual.svg import CASING_CLASS, MIN_FONT_PX
from tests.e2e.browser import EXCEPTION, wait_for_app

SHOTS = os.environ.get("ROCM_BRIDGE_PICTURE_SHOTS") == "1"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "pictures"
PRESENTER = {"width": 1280, "height": 720}
WIDE = {"width": 1440, "height": 900}
OVERLAP_PX = 2  # two boxes overlap when they share more than this in both directions (anti-aliasing slack)
TEXT_RATIO, LARGE_TEXT_RATIO = 4.5, 3.0  # WCAG 2.1 SC 1.4.3 (AA): normal and large text
LARGE_PX, LARGE_BOLD_PX = 24.0, 18.66  # large text: 18 pt, or 14 pt bold (1 pt = 4/3 px)
LINE_RATIO = style.LINE_CONTRAST  # WCAG 2.1 SC 1.4.11: graphical objects
BRIGHT = 0.4  # relative luminance of a "bright" backdrop sample (a light-theme panel on a dark page)
DARK_MEAN, DARK_BRIGHT_SHARE, LIGHT_MEAN = 0.25, 0.25, 0.5  # measured: dark <= 0.15 mean, <= 0.12 bright; light >= 0.62

# Every visible, non-empty text inside the picture's container: its text, on-screen font size and box.
_MEASURE = """
(sel) => {
  const root = document.querySelector(sel);
  if (!root) return null;
  const frames = [...root.querySelectorAll('svg.rb-picture, .js-plotly-plot .main-svg')];
  const texts = [];
  for (const t of root.querySelectorAll('svg text')) {
    const s = (t.textContent || '').trim();
    if (!s) continue;
    const cs = getComputedStyle(t);
    if (cs.display === 'none' || cs.visibility === 'hidden' || parseFloat(cs.opacity) === 0) continue;
    const r = t.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const m = t.getScreenCTM();
    const scale = m ? Math.hypot(m.a, m.b) : 1;
    texts.push({text: s, px: parseFloat(cs.fontSize) * scale, l: r.left, t: r.top, r: r.right, b: r.bottom});
  }
  const boxes = frames.map((f) => { const r = f.getBoundingClientRect();
                                    return {l: r.left, t: r.top, r: r.right, b: r.bottom}; });
  return {texts, boxes};
}
"""

# The colours as the browser paints them: every text and stroked line with the colour under it, and the backdrop.
_PAINT = """
([sel, casing]) => {
  // Colours as the browser paints them: every text and every stroked line of the picture against the colour
  // actually under it (the shapes painted before it, composited with their opacities, over the page).
  const root = document.querySelector(sel);
  if (!root) return null;
  const parse = (c) => {
    if (!c || c === 'none' || c.startsWith('url')) return null;
    const m = c.match(/[0-9.]+/g);
    if (!m || m.length < 3) return null;
    return [+m[0], +m[1], +m[2], m.length > 3 ? +m[3] : 1];
  };
  const over = (top, a, under) => [0, 1, 2].map((i) => a * top[i] + (1 - a) * under[i]);
  const lum = (c) => { const [r, g, b] = c.map((v) => { v /= 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (x, y) => { const [a, b] = [lum(x), lum(y)].sort((p, q) => p - q); return (b + 0.05) / (a + 0.05); };
  const hex = (c) => '#' + c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('').toUpperCase();
  const alpha = (el, stop) => { let a = 1; for (let e = el; e && e !== stop.parentElement; e = e.parentElement) {
    a *= parseFloat(getComputedStyle(e).opacity); } return a; };
  // the page under the picture: the first opaque background from the picture's container up
  let page = [255, 255, 255];
  for (let e = root; e; e = e.parentElement) {
    const c = parse(getComputedStyle(e).backgroundColor);
    if (c && c[3] > 0) { page = c.slice(0, 3); break; }
  }
  const hidden = (el) => el.closest('defs, marker, clipPath, mask, pattern, symbol');
  const all = [...root.querySelectorAll('svg, rect, path, circle, ellipse, polygon, polyline, line, text')]
    .filter((el) => !hidden(el));
  const layers = [];  // painted areas in paint (document) order
  all.forEach((el, i) => {
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden') return;
    const box = el.getBoundingClientRect();
    if (el.tagName.toLowerCase() === 'svg') {
      const c = parse(cs.backgroundColor);
      if (c && c[3] > 0) layers.push({i, el, box, rgb: c.slice(0, 3), a: c[3] * alpha(el, el), svg: true});
      return;
    }
    if (el.tagName.toLowerCase() === 'text') return;
    const svg = el.ownerSVGElement;
    const c = el.tagName.toLowerCase() === 'line' ? null : parse(cs.fill);
    const a = c ? c[3] * parseFloat(cs.fillOpacity) * alpha(el, svg) : 0;
    if (a > 0 && box.width > 0 && box.height > 0) layers.push({i, el, box, rgb: c.slice(0, 3), a});
    const s = parse(cs.stroke);  // a stroke paints too (a casing under a line, an outline under a label)
    const sa = s && parseFloat(cs.strokeWidth) > 0 ? s[3] * parseFloat(cs.strokeOpacity) * alpha(el, svg) : 0;
    const w = parseFloat(cs.strokeWidth) / 2;
    const sbox = {left: box.left - w, right: box.right + w, top: box.top - w, bottom: box.bottom + w};
    if (sa > 0) layers.push({i, el, box: sbox, rgb: s.slice(0, 3), a: sa, stroke: true});
  });
  // the colour painted at (x, y) by everything before index `before`; `mine` (a line's own colour): strokes of
  // that colour are the same line going on (a tick meeting its axis), not its background. `along` (points a few
  // px either way along a line): a stroke under the line counts only where it runs with it (a casing), not where
  // another line merely crosses it.
  const same = (a, b) => b && a.every((v, k) => Math.abs(v - b[k]) < 1);
  const under = (x, y, before, mine = null, along = []) => {
    let rgb = page;
    for (const L of layers) {
      if (L.i >= before) break;
      if (L.stroke && same(L.rgb, mine)) continue;
      const b = L.box;
      if (x < b.left || x > b.right || y < b.top || y > b.bottom) continue;
      if (!L.svg) {
        const inv = L.el.getScreenCTM().inverse();
        const at = (q) => new DOMPoint(q[0], q[1]).matrixTransform(inv);
        if (L.stroke ? ![[x, y], ...along].every((q) => L.el.isPointInStroke(at(q)))
          : !L.el.isPointInFill(at([x, y]))) continue;
      }
      rgb = over(L.rgb, L.a, rgb);
    }
    return rgb;
  };
  const texts = [];
  const lines = [];
  all.forEach((el, i) => {
    const tag = el.tagName.toLowerCase();
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden') return;
    const svg = el.ownerSVGElement;
    if (tag === 'text') {
      const s = (el.textContent || '').trim();
      const r = el.getBoundingClientRect();
      if (!s || r.width === 0 || r.height === 0) return;
      const m = el.getScreenCTM();
      const px = parseFloat(cs.fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
      const bold = (parseInt(cs.fontWeight, 10) || 400) >= 700;
      const inks = [el, ...el.querySelectorAll('tspan')].map((e) => parse(getComputedStyle(e).fill)).filter(Boolean);
      const a0 = parseFloat(cs.fillOpacity) * alpha(el, svg);
      let worst = null;
      for (const f of [0.25, 0.5, 0.75]) {
        const bg = under(r.left + f * r.width, r.top + r.height / 2, i);
        for (const ink of inks) {
          const fg = over(ink.slice(0, 3), ink[3] * a0, bg);
          const k = ratio(fg, bg);
          if (!worst || k < worst.ratio) worst = {ratio: k, fg: hex(fg), bg: hex(bg)};
        }
      }
      if (worst) texts.push({text: s, px, bold, ...worst});
      return;
    }
    const stroke = parse(cs.stroke);
    const width = parseFloat(cs.strokeWidth);
    const filled = parse(cs.fill);
    // the outline of a filled shape is not a line: its fill is the mark
    if (!stroke || !(width > 0) || (filled && tag !== 'line' && tag !== 'polyline')) return;
    if (el.classList.contains(casing)) return;  // a casing is the background of the line over it, measured there
    if (!el.getTotalLength) return;
    const len = el.getTotalLength();
    if (!(len > 0)) return;
    let worst = null;  // along the line: a line that vanishes where it crosses a block is broken there
    for (const f of [0.1, 0.3, 0.5, 0.7, 0.9]) {
      const ctm = el.getScreenCTM();
      const pt = (d) => el.getPointAtLength(Math.min(len, Math.max(0, d))).matrixTransform(ctm);
      const p = pt(f * len);
      const bg = under(p.x, p.y, i, stroke.slice(0, 3), [pt(f * len - 4), pt(f * len + 4)].map((q) => [q.x, q.y]));
      const fg = over(stroke.slice(0, 3), stroke[3] * parseFloat(cs.strokeOpacity) * alpha(el, svg), bg);
      const k = ratio(fg, bg);
      if (!worst || k < worst.ratio) worst = {stroke: hex(fg), bg: hex(bg), ratio: k};
    }
    lines.push({what: tag + (el.getAttribute('stroke-dasharray') ? ' dashed' : ''), width, ...worst});
  });
  // the backdrop: a 16 x 9 grid of what is painted over each frame (is the picture drawn for this page?)
  const grid = [];
  for (const f of root.querySelectorAll('svg.rb-picture, .js-plotly-plot .main-svg')) {
    const r = f.getBoundingClientRect();
    for (let gx = 0.5; gx < 16; gx++) for (let gy = 0.5; gy < 9; gy++) {
      grid.push(lum(under(r.left + gx * r.width / 16, r.top + gy * r.height / 9, all.length)));
    }
  }
  return {page: hex(page), texts, lines, grid};
}
"""


def _cases() -> list[tuple[str, str]]:
    return [(pid, lang) for pid in pictures.PICTURES for lang in i18n.LANGS]


def _url(base: str, pid: str, lang: str) -> str:
    spec = pictures.PICTURES[pid]
    return f"{base}/{page(spec.page).route}?present=1&lang={lang}&{step_key(pid)}=1"


def _frame_html(pg, pid: str) -> str:
    return pg.evaluate("(sel) => { const r = document.querySelector(sel); return r ? r.innerHTML : ''; }",
                       f".st-key-{box_key(pid)}")


def _click_and_wait(pg, pid: str, button) -> None:
    """Click a control of the picture and wait until its frame has been redrawn and the script is idle."""
    before = _frame_html(pg, pid)
    button.click()
    pg.wait_for_function("([sel, before]) => { const r = document.querySelector(sel); "
                         "return r && r.innerHTML !== before; }", arg=[f".st-key-{box_key(pid)}", before],
                         timeout=30_000)
    wait_for_app(pg, 30_000)


def _measure(pg, pid: str) -> dict:
    sel = f".st-key-{box_key(pid)}"
    pg.wait_for_function(
        "(sel) => { const r = document.querySelector(sel); return r && r.querySelector('svg.rb-picture, "
        ".js-plotly-plot .main-svg text'); }", arg=sel, timeout=60_000)
    pg.locator(sel).first.scroll_into_view_if_needed()
    pg.wait_for_timeout(150)  # Plotly lays its text out after the first paint
    return pg.evaluate(_MEASURE, sel)


def _overlaps(texts: list[dict]) -> list[tuple[str, str]]:
    out = []
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            dx = min(a["r"], b["r"]) - max(a["l"], b["l"])
            dy = min(a["b"], b["b"]) - max(a["t"], b["t"])
            if dx > OVERLAP_PX and dy > OVERLAP_PX:
                out.append((a["text"], b["text"]))
    return out


def _outside(texts: list[dict], boxes: list[dict]) -> list[str]:
    def inside(t: dict) -> bool:
        return any(t["l"] >= b["l"] - 1 and t["r"] <= b["r"] + 1 and t["t"] >= b["t"] - 1 and t["b"] <= b["b"] + 1
                   for b in boxes)
    return [t["text"] for t in texts if not inside(t)]


_SMALLEST: dict[tuple[str, str], float] = {}


def _needed(text: dict) -> float:
    large = text["px"] >= LARGE_PX or (text["bold"] and text["px"] >= LARGE_BOLD_PX)
    return LARGE_TEXT_RATIO if large else TEXT_RATIO


def _paint(pg, pid: str, theme: str, where: str) -> None:
    """The picture's colours as drawn now: text and lines against what is under them, the backdrop of the theme."""
    sel = f".st-key-{box_key(pid)}"
    got = pg.evaluate(_PAINT, [sel, CASING_CLASS])
    assert got and got["texts"], f"{pid} {theme} {where}: no text found in the picture"
    page_lum = style.relative_luminance(got["page"])
    assert (page_lum < 0.05) if theme == "dark" else (page_lum > 0.9), f"{pid} {theme} {where}: page {got['page']}"
    weak = [(t["text"][:30], round(t["ratio"], 2), t["fg"], t["bg"]) for t in got["texts"] if t["ratio"] < _needed(t)]
    assert not weak, f"{pid} {theme} {where}: text below its contrast ratio (text, ratio, ink, under): {weak[:8]}"
    faint = [(ln["what"], round(ln["ratio"], 2), ln["stroke"], ln["bg"]) for ln in got["lines"]
             if ln["ratio"] < LINE_RATIO]
    assert not faint, f"{pid} {theme} {where}: lines below {LINE_RATIO}:1 (line, ratio, stroke, under): {faint[:8]}"
    grid = got["grid"]
    mean, bright = sum(grid) / len(grid), sum(v > BRIGHT for v in grid) / len(grid)
    if theme == "dark":
        assert mean <= DARK_MEAN and bright <= DARK_BRIGHT_SHARE, (
            f"{pid} {where}: not drawn for the dark page: backdrop luminance {mean:.2f}, {bright:.0%} bright")
    else:
        assert mean >= LIGHT_MEAN, f"{pid} {where}: not drawn for the light page: backdrop luminance {mean:.2f}"


@pytest.fixture(scope="module")
def pg(app_server, browser):
    context = browser.new_context(viewport=PRESENTER)
    page_ = context.new_page()
    yield page_
    context.close()
    if SHOTS:
        _write_table()


def _check(pg, pid: str, lang: str, where: str) -> None:
    """Measure the picture as drawn now: at 1280x720, then at 1440x900 (and back)."""
    got = _measure(pg, pid)
    assert got and got["texts"], f"{pid} {where}: no text found in the picture"
    small = [(t["text"], round(t["px"], 1)) for t in got["texts"] if t["px"] < MIN_FONT_PX - 0.01]
    assert not small, f"{pid} {lang} {where}: text below {MIN_FONT_PX} px at 1280x720: {small[:8]}"
    overlaps = _overlaps(got["texts"])
    assert not overlaps, f"{pid} {lang} {where}: overlapping labels: {overlaps[:8]}"
    _paint(pg, pid, "light", f"{lang} {where}")
    key = (pid, lang)
    _SMALLEST[key] = min(_SMALLEST.get(key, 1e9), min(t["px"] for t in got["texts"]))
    pg.set_viewport_size(WIDE)
    pg.wait_for_timeout(300)  # let the page (and Plotly's responsive layout) settle at the new size
    wide = _measure(pg, pid)
    cut = _outside(wide["texts"], wide["boxes"])
    pg.set_viewport_size(PRESENTER)
    pg.wait_for_timeout(200)
    assert not cut, f"{pid} {lang} {where}: text cut off at 1440x900: {cut[:8]}"


def _shoot(pg, pid: str, lang: str) -> None:
    DOCS.mkdir(parents=True, exist_ok=True)
    pg.add_style_tag(content='[data-testid="stHeader"] { display: none !important; }')  # it covers the top
    pg.locator(f".st-key-{box_key(pid)}").first.screenshot(path=str(DOCS / f"{pid}-{lang}.png"))


@pytest.mark.parametrize(("pid", "lang"), _cases())
def test_picture_reads_from_the_back_row(app_server, pg, pid, lang):
    """First step from the link, the last by Back (the controls wrap around), every other variant by its control:
    one page load per picture and language."""
    spec = pictures.PICTURES[pid]
    pg.set_viewport_size(PRESENTER)
    pg.goto(_url(app_server, pid, lang))
    wait_for_app(pg, 60_000)
    assert pg.locator(EXCEPTION).count() == 0, pg.locator(EXCEPTION).first.inner_text()
    _check(pg, pid, lang, "step 1")
    shot_step = spec.print_step % spec.steps + 1
    if SHOTS and shot_step == 1:
        _shoot(pg, pid, lang)
    if spec.steps > 1:
        _click_and_wait(pg, pid, pg.locator(f".st-key-{step_key(pid)}_prev button"))
        _check(pg, pid, lang, f"step {spec.steps}")
        if SHOTS and shot_step == spec.steps:
            _shoot(pg, pid, lang)
    if SHOTS and 1 < shot_step < spec.steps:  # a print step in the middle: open it from the link
        pg.goto(_url(app_server, pid, lang).replace(f"{step_key(pid)}=1", f"{step_key(pid)}={shot_step}"))
        wait_for_app(pg, 60_000)
        _measure(pg, pid)
        _shoot(pg, pid, lang)
    for variant in spec.variants[1:]:
        control = pg.locator(f".st-key-{variant_key(spec)} button", has_text=variant).first
        _click_and_wait(pg, pid, control)
        _check(pg, pid, lang, f"step {spec.steps}, {variant}")
    assert pg.locator(EXCEPTION).count() == 0


DARK_BG = "rgb(23, 22, 20)"  # style.BACKGROUND["dark"], Streamlit 1.67's dark bgColor
DARK_SHOTS = ("hero", "envcheck", "mi300x", "pytorch")  # with SHOTS: the pictures docs/pictures had no dark shot of


@pytest.fixture(scope="module")
def pg_dark(app_server, browser):
    """Its own browser context: the dark choice lives in the browser's storage and must not reach the light tests."""
    context = browser.new_context(viewport=PRESENTER)
    yield context.new_page()
    context.close()


def _open_dark(pg, url: str) -> None:
    """Open a ?theme=dark link and wait until the page is dark and idle: the first visit of a page path reloads
    once (the switch writes Streamlit's theme entry), which destroys the page's JavaScript context mid-poll."""
    pg.goto(url)
    deadline, last = time.monotonic() + 90, None
    while time.monotonic() < deadline:
        with contextlib.suppress(PlaywrightError):
            last = pg.evaluate("() => { const a = document.querySelector('[data-testid=\"stApp\"]'); "
                               "return a && [getComputedStyle(a).backgroundColor, a.dataset.testScriptState, "
                               "!!document.querySelector('h1')]; }")
            if last == [DARK_BG, "notRunning", True]:
                return
        pg.wait_for_timeout(200)
    raise AssertionError(f"{url}: never dark and idle; last seen {last}")


@pytest.mark.parametrize("pid", list(pictures.PICTURES))
def test_picture_reads_in_the_dark(app_server, pg_dark, pid):
    """The colour checks of the module docstring in the dark theme, at the first step (from the link), the last
    (by Back) and every variant. One language, English: the colours a builder picks depend on the theme, not the
    language, and the light test already measures both languages' text boxes (sizes, overlaps, cut-offs, and
    light contrast); a second language in the dark would add some 60 s to CI for no new colour."""
    spec = pictures.PICTURES[pid]
    lang = "en"
    _open_dark(pg_dark, _url(app_server, pid, lang) + "&theme=dark")
    assert pg_dark.locator(EXCEPTION).count() == 0, pg_dark.locator(EXCEPTION).first.inner_text()
    _measure(pg_dark, pid)  # waits for the picture and scrolls it into view
    _paint(pg_dark, pid, "dark", "step 1")
    if spec.steps > 1:
        _click_and_wait(pg_dark, pid, pg_dark.locator(f".st-key-{step_key(pid)}_prev button"))
        _measure(pg_dark, pid)
        _paint(pg_dark, pid, "dark", f"step {spec.steps}")
    if SHOTS and pid in DARK_SHOTS:
        step = spec.print_step % spec.steps + 1
        if step != spec.steps:
            _open_dark(pg_dark, _url(app_server, pid, lang).replace(f"{step_key(pid)}=1", f"{step_key(pid)}={step}")
                       + "&theme=dark")
            _measure(pg_dark, pid)
        DOCS.mkdir(parents=True, exist_ok=True)
        pg_dark.add_style_tag(content='[data-testid="stHeader"] { display: none !important; }')
        pg_dark.locator(f".st-key-{box_key(pid)}").first.screenshot(path=str(DOCS / f"{pid}-{lang}-dark.png"))
        if step != spec.steps:
            return
    for variant in spec.variants[1:]:
        control = pg_dark.locator(f".st-key-{variant_key(spec)} button", has_text=variant).first
        _click_and_wait(pg_dark, pid, control)
        _measure(pg_dark, pid)
        _paint(pg_dark, pid, "dark", f"step {spec.steps}, {variant}")
    assert pg_dark.locator(EXCEPTION).count() == 0


def _write_table() -> None:
    """docs/pictures/README.md: per picture, its screenshots, smallest font measured and frame count."""
    lines = [
        "# The explainer pictures",
        "",
        "Written by `ROCM_BRIDGE_PICTURE_SHOTS=1 python -m pytest tests/e2e/test_backrow_e2e.py`: each picture at its",
        "print step, presenter mode, 1280x720, light theme; the smallest on-screen font size the back-row test",
        "measured over the steps it opened (first and last, every variant). `en, dark`: the same in the dark theme,",
        "saved by the test's dark check (test_picture_reads_in_the_dark) for the pictures in its DARK_SHOTS.",
        "",
        "| Picture | Page | Frames | Smallest font (en / zh) | Screenshots |",
        "|---|---|---|---|---|",
    ]
    kept = {}  # rows of pictures this run did not open (a run with -k) stay as they were
    old = DOCS / "README.md"
    for row in (old.read_text(encoding="utf-8").splitlines() if old.exists() else []):
        cells = [c.strip() for c in row.strip("|").split("|")]
        if row.startswith("| ") and cells[0] in pictures.PICTURES:
            kept[cells[0]] = row
    for pid, spec in pictures.PICTURES.items():
        if not any((pid, lang) in _SMALLEST for lang in i18n.LANGS):
            if pid in kept:
                lines.append(kept[pid])
            continue
        sizes = " / ".join(f"{_SMALLEST[(pid, lang)]:.1f} px" if (pid, lang) in _SMALLEST else "-"
                           for lang in i18n.LANGS)
        shots = " ".join([f"[{lang}]({pid}-{lang}.png)" for lang in i18n.LANGS]
                         + [f"[en, dark]({pid}-en-dark.png)"] * (DOCS / f"{pid}-en-dark.png").exists())
        lines.append(f"| {pid} | {spec.page} | {spec.steps} | {sizes} | {shots} |")
    (DOCS / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


# Every control of the picture: its button's own box and every element inside it (the label's <p>, the icon).
_CONTROLS = """
(sel) => {
  const out = [];
  for (const b of document.querySelectorAll(sel)) {
    const r = b.getBoundingClientRect();
    if (r.width === 0) continue;
    const cut = [b, ...b.querySelectorAll('*')].filter((el) => el.scrollWidth > el.clientWidth + 1
      && getComputedStyle(el).overflowX !== 'visible' || el.scrollWidth > el.clientWidth + 1 && el.tagName === 'P');
    out.push({text: b.innerText.trim(), cut: cut.map((el) => el.tagName + ':' + (el.innerText || '').trim()),
              w: r.width});
  }
  return out;
}
"""


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("pid", ["hero", "memory"])  # with a variant control and without one
def test_picture_controls_read_in_full(app_server, browser, pid, lang):
    """In presenter mode at 1280x720 no control of a picture shows a cut label ("B…" for Back): every element
    of every button is as wide as its content, with the sidebar folded and open. Its own browser context: the
    open sidebar must not follow the other tests."""
    context = browser.new_context(viewport=PRESENTER)
    try:
        _controls_in_full(context.new_page(), app_server, pid, lang)
    finally:
        context.close()


def _controls_in_full(pg, app_server: str, pid: str, lang: str) -> None:
    pg.goto(_url(app_server, pid, lang))
    wait_for_app(pg, 60_000)
    pg.wait_for_selector(f".st-key-{step_key(pid)}_next button", timeout=60_000)
    spec = pictures.PICTURES[pid]
    sel = ", ".join([f".st-key-{step_key(pid)}_{k} button" for k in ("prev", "pp", "next")]
                    + [f".st-key-{variant_key(spec)} button"] * bool(spec.variants))
    got = pg.evaluate(_CONTROLS, sel)
    assert len(got) == 3 + len(spec.variants), got
    cut = [c for c in got if c["cut"]]
    assert not cut, f"{pid} {lang}: truncated control labels: {cut}"
    # presenter mode switched on from the sidebar keeps the sidebar open: a main column some 340 px narrower
    pg.locator('[data-testid="stExpandSidebarButton"]').first.click()
    pg.wait_for_function("() => { const s = document.querySelector('[data-testid=\"stSidebar\"]'); "
                         "return s && s.getBoundingClientRect().width > 200; }", timeout=10_000)
    pg.wait_for_timeout(600)  # the sidebar slides in
    narrow = pg.evaluate(_CONTROLS, sel)
    cut = [c for c in narrow if c["cut"]]
    assert not cut, f"{pid} {lang}, sidebar open: truncated control labels: {cut}"
    for key in ("pictures.prev", "pictures.play", "pictures.next"):  # the full label is the button's text
        assert any(c["text"].splitlines()[-1].strip() == i18n.t(key, lang) for c in got), (key, got)
