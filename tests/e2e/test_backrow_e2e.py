"""Readable from the back row: every explainer picture of the registry (rocm_bridge.visual.pictures.PICTURES), opened
on its page in presenter mode (?present=1) in both languages, at its first and last step (and every variant at its
last step), measured in the DOM as the browser draws it.

- at 1280x720 every text of the picture (SVG <text>, Plotly's SVG text for figure frames) is at least
  MIN_FONT_PX on screen: its computed font size times the scale of its screen transform (the SVG's viewBox
  scaling, Plotly's transforms), not the attribute;
- no two labels' boxes overlap;
- at 1440x900 no text box sticks out of the picture's box (nothing cut off).

One server, one browser page, one page load per picture and language (the controls step it). With ROCM_BRIDGE_PICTURE_SHOTS=1 the test also saves each picture at its
print step, light theme, at 1280x720 in presenter mode as docs/pictures/<id>-<lang>.png, and writes the smallest
font measured per picture to docs/pictures/README.md (the integrator's table).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rocm_bridge import i18n
from rocm_bridge.pages import page
from rocm_bridge.ui.pictures import box_key, step_key, variant_key
from rocm_bridge.visual import pictures
from rocm_bridge.visual.svg import MIN_FONT_PX
from tests.e2e.browser import EXCEPTION, wait_for_app

SHOTS = os.environ.get("ROCM_BRIDGE_PICTURE_SHOTS") == "1"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "pictures"
PRESENTER = {"width": 1280, "height": 720}
WIDE = {"width": 1440, "height": 900}
OVERLAP_PX = 2  # two boxes overlap when they share more than this in both directions (anti-aliasing slack)

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


def _write_table() -> None:
    """docs/pictures/README.md: per picture, its screenshots, smallest font measured and frame count."""
    lines = [
        "# The explainer pictures",
        "",
        "Written by `ROCM_BRIDGE_PICTURE_SHOTS=1 python -m pytest tests/e2e/test_backrow_e2e.py`: each picture at its",
        "print step, presenter mode, 1280x720, light theme; the smallest on-screen font size the back-row test",
        "measured over the steps it opened (first and last, every variant).",
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
        shots = " ".join(f"[{lang}]({pid}-{lang}.png)" for lang in i18n.LANGS)
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
