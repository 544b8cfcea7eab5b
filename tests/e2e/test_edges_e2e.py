"""Issue 23's rough edges in a real browser, presenter mode at 1280x720: the language switch in reach, the hipify
panes and diff, labels that fit, and no English prose left on Chinese pages."""

from __future__ import annotations

import pytest

from rocm_bridge import i18n
from rocm_bridge.pages import PAGES
from tests.e2e.browser import EXCEPTION, screenshot, wait_for_app

PROJECTOR = {"width": 1280, "height": 720}


def _open(page, url: str) -> None:
    page.set_viewport_size(PROJECTOR)
    page.goto(url)
    wait_for_app(page, 60_000)


def test_the_language_switch_is_in_reach_in_presenter_mode_after_scrolling(app_server, page):
    """The sidebar is folded when presenting and its navigation pushes anything below it off screen: the switch
    sits in the top bar, inside the 1280x720 viewport, and still there after the page has scrolled."""
    _open(page, f"{app_server}/ch3-operators?lang=en&present=1")
    assert page.locator('[data-testid="stSidebar"]').get_attribute("data-collapsed") == "true"
    page.evaluate("document.querySelector('[data-testid=stMain]').scrollTo(0, 3000)")
    switch = page.get_by_role("radio", name="中文")
    box = switch.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 80 and box["x"] + box["width"] <= 1280
    switch.click()
    page.wait_for_selector(f"h1:has-text('{i18n.t('chapters.ch3.title', 'zh')}')", timeout=20_000)
    assert "lang=zh" in page.url
    screenshot(page, "edges-language-switch-zh-present")


def test_hipify_panes_share_one_code_size_and_the_diff_is_whole(app_server, page):
    _open(page, f"{app_server}/hipify?lang=zh&present=1&hp_ex=vector_add&hp_view=diff")
    frame = page.frame_locator('iframe[title*="code_editor"]').first
    frame.locator(".ace_editor").wait_for(timeout=30_000)
    ace_px = frame.locator(".ace_editor").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    hip_px = page.locator('[data-testid="stCode"] code').first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert ace_px == hip_px >= 18
    table = page.locator("table.rb-diff")
    table.wait_for(timeout=30_000)
    assert table.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 18
    # nothing cut: the table fits its column, every changed word is marked on both sides
    assert table.evaluate("e => e.scrollWidth <= e.parentElement.clientWidth + 1")
    assert page.locator("table.rb-diff mark.a").count() == page.locator("table.rb-diff mark.b").count() > 0
    # a padded macro continuation shows as ' \' at the end of its line, never alone on a wrapped row
    cells = page.locator("table.rb-diff td.b").all_inner_texts()
    assert not any(c.strip() == "\\" for c in cells)
    assert page.locator(EXCEPTION).count() == 0
    table.scroll_into_view_if_needed()
    screenshot(page, "edges-hipify-diff-zh-present")


def test_search_a_cuda_name_and_open_the_section_that_teaches_its_hip_twin(app_server, page):
    _open(page, f"{app_server}/search?lang=en&present=1&q=cudaStreamCreate")
    page.wait_for_selector("text=the HIP twin of the CUDA name", timeout=30_000)
    link = page.get_by_role("link", name="Open the section").first
    label = link.inner_text()
    section = label.split("Open the section: ", 1)[1].rsplit(" (", 1)[0]
    link.click()
    target = page.locator("h2[data-rb-target], h3[data-rb-target]")
    target.wait_for(timeout=30_000)
    assert target.inner_text().strip() == section
    box = target.bounding_box()
    assert box and 0 <= box["y"] < 720, "the section is on screen"
    assert "section=" in page.url
    screenshot(page, "edges-search-section-en-present")


# --- labels that fit, and no English prose left on Chinese pages ------------------------------------------------

# an element whose text does not fit its box and is cut (ellipsis or hidden overflow), outside code, formulas,
# data grids and charts; a Plotly title wider than its chart
_CUT = r"""() => { const out = [];
  for (const e of document.querySelectorAll('[data-testid=stMain] *')) {
    if (e.closest('.katex, pre, code, [data-testid=stCode], [data-testid=stDataFrame], .js-plotly-plot, iframe, svg'))
      continue;
    if (!e.innerText || !e.innerText.trim() || e.clientWidth === 0) continue;
    const cs = getComputedStyle(e);
    if (cs.overflowX === 'visible' && cs.textOverflow !== 'ellipsis') continue;
    if (e.scrollWidth > e.clientWidth + 6) out.push(e.innerText.slice(0, 60) + ` (${e.scrollWidth} > ${e.clientWidth})`);
  }
  for (const t of document.querySelectorAll('[data-testid=stMain] .js-plotly-plot .gtitle')) {
    const svg = t.closest('svg'), b = t.getBBox();
    if (b.x < 0 || b.x + b.width > svg.width.baseVal.value + 1) out.push('chart title: ' + t.textContent.slice(0, 60));
  }
  return out; }"""

# a sentence with no Chinese and at least two English function words, in prose (not code, formulas, links, charts,
# grids), outside what the page labels as the sources' own English (the hardware page's folded details)
_ENGLISH = r"""(allowed) => {
  const STOP = new Set(['the', 'and', 'of', 'to', 'is', 'for', 'with', 'your', 'this', 'that', 'are', 'on', 'in',
                        'it', 'be', 'not', 'from', 'by', 'or', 'you', 'as', 'if', 'when', 'was']);
  const out = [];
  const skip = (e) => e.closest('pre, code, a, [data-testid=stCode], .katex, .js-plotly-plot, iframe, svg, ' +
                                '[data-testid=stDataFrame]')
    || [...document.querySelectorAll('[data-testid=stExpander]')].some(x => x.contains(e)
         && allowed.some(a => (x.querySelector('summary') || x).innerText.includes(a)));
  for (const e of document.querySelectorAll('[data-testid=stMain] :is(p, li, label, button, td, th, summary, h1, h2, h3)')) {
    if (skip(e)) continue;
    let text = '';
    for (const n of e.childNodes) {
      if (n.nodeType === 3) text += n.textContent;
      else if (n.nodeType === 1 && !n.matches('code, a, .katex')) text += n.textContent;
    }
    for (const s of text.split(/(?<=[.!?;:。；：])\s+|\n/)) {
      if (/[\u3400-\u9fff]/.test(s)) continue;
      const words = s.toLowerCase().match(/[a-z]+/g) || [];
      if (words.length >= 4 && words.filter(w => STOP.has(w)).length >= 2) out.push(s.trim().slice(0, 100));
    }
  }
  return [...new Set(out)]; }"""

# the pages issue 23 named (hipify, hardware, live lab, classroom, search, coverage, progress, doctor, chapter 3's
# charts) and the labs beside them
EDGE_PAGES = ("ch3", "hipify", "hardware", "doctor", "live", "coverage", "classroom", "progress", "search", "compile",
              "formulas", "quiz")
ZH_PROSE_PAGES = ("hipify", "hardware", "live", "coverage", "classroom", "progress", "search", "compile", "formulas",
                  "quiz")


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_no_label_is_cut_and_no_english_prose_is_left_in_chinese(app_server, page, lang):
    page.set_viewport_size(PROJECTOR)
    allowed = [i18n.t("hardware.bench_details", lang)]
    cut, english = [], []
    for spec in (p for p in PAGES if p.key in EDGE_PAGES):
        page.goto(f"{app_server}/{spec.route}?lang={lang}&present=1")
        wait_for_app(page, 90_000)
        page.wait_for_timeout(500)  # charts draw their titles after the script run
        cut += [f"{spec.key}: {x}" for x in page.evaluate(_CUT)]
        if lang == "zh" and spec.key in ZH_PROSE_PAGES:
            english += [f"{spec.key}: {x}" for x in page.evaluate(_ENGLISH, allowed)]
    assert not cut, cut
    assert not english, english
