"""The stack explorer in a real browser: click a block of the diagram (or pick it) and see its twin."""

from __future__ import annotations

from tests.e2e.browser import screenshot, wait_for_app

EXCEPTION = '[data-testid="stException"]'


def _open(page, url: str) -> None:
    page.goto(url)
    wait_for_app(page, 60_000)
    page.wait_for_selector(".js-plotly-plot .barlayer", timeout=60_000)  # first Plotly page loads a big chunk


def _detail_headings(page) -> list[str]:
    return [t.strip() for t in page.locator('[data-testid="stHeadingWithActionElements"] h4').all_inner_texts()]


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
