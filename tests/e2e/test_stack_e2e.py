"""The stack explorer in a real browser: click a block of the diagram (or pick it) and see its twin."""

from __future__ import annotations

from rocm_bridge import i18n
from tests.e2e.browser import screenshot, wait_for_app

EXCEPTION = '[data-testid="stException"]'


def _open(page, url: str) -> None:
    page.goto(url)
    wait_for_app(page, 60_000)
    page.wait_for_selector(".js-plotly-plot .barlayer", timeout=60_000)  # first Plotly page loads a big chunk


def _detail_headings(page) -> list[str]:
    """The detail panel's headings (the hero picture's title above them is not one)."""
    hero = {i18n.t("pictures.hero.title", lang) for lang in i18n.LANGS}
    texts = page.locator('[data-testid="stHeadingWithActionElements"] h4').all_inner_texts()
    return [t.strip() for t in texts if t.strip() not in hero]


def test_click_a_block_shows_its_twin(app_server, page):
    _open(page, f"{app_server}/stack?lang=en")
    assert _detail_headings(page)[:2] == ["cuBLAS", "rocBLAS"]
    block = page.locator(".js-plotly-plot .barlayer g.point", has=page.locator("text", has_text="MIOpen")).first
    block.scroll_into_view_if_needed()
    box = block.locator("path").bounding_box()
    # Plotly's drag layer sits on top and turns pointer events at a position into point clicks: click there
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function(
        "() => [...document.querySelectorAll('h4')].some(h => h.innerText.trim() === 'MIOpen')", timeout=30_000
    )
    page.wait_for_selector('[data-testid="stStatusWidget"]', state="detached", timeout=30_000)
    headings = _detail_headings(page)
    assert headings[:2] == ["MIOpen", "cuDNN"], headings
    assert "st_comp=rocm.dl-primitives" in page.url
    assert page.locator(EXCEPTION).count() == 0
    screenshot(page, "stack-click-miopen")


def test_pick_in_chinese_and_share_the_link(app_server, page):
    _open(page, f"{app_server}/stack?lang=zh&st_comp=cuda.communication")
    assert _detail_headings(page)[:2] == ["NCCL", "RCCL"]
    assert page.get_by_text("另一套栈中的对应组件").count() >= 1
    assert page.locator(EXCEPTION).count() == 0


def test_presenter_mode_diagram_reads_from_the_back_row_with_the_trace_on_one_screen(app_server, page):
    """At 1280x720 in presenter mode the diagram's labels are >= 18 px on screen, none overlap, and the whole
    traced diagram fits in the window (it used to squeeze 38 rows: ~3 px labels, the trace off screen)."""
    from tests.e2e.test_backrow_e2e import _MEASURE, _overlaps

    page.set_viewport_size({"width": 1280, "height": 720})
    for lang in ("en", "zh"):
        _open(page, f"{app_server}/stack?present=1&lang={lang}&st_trace=tf.matmul")
        chart = page.locator('[data-testid="stPlotlyChart"]').first
        chart.evaluate("(el) => el.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
        got = page.evaluate(_MEASURE.replace("svg text", ".main-svg text"), '[data-testid="stPlotlyChart"]')
        texts = got["texts"]
        assert any(t["text"] == "rocBLAS" for t in texts)
        small = [(t["text"], round(t["px"], 1)) for t in texts if t["px"] < 18 - 0.01]
        assert not small, small
        assert not _overlaps(texts), _overlaps(texts)
        top = min(t["t"] for t in texts)
        bottom = max(t["b"] for t in texts)
        assert bottom - top <= 720 - 60, (top, bottom)  # the title to the hardware row under the app's header
        arrows = page.locator('[data-testid="stPlotlyChart"]').first.locator(".annotation-arrow-g path, .annotation path")
        assert arrows.count() >= 10  # the trace: five arrows down each stack, drawn
