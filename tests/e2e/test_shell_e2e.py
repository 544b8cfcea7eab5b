"""The app shell in a real browser: every page in both languages, the first click, the language toggle."""

import contextlib

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from rocm_bridge import i18n
from rocm_bridge.pages import PAGES

from browser import EXCEPTION, screenshot, wait_for_app


def test_first_click_after_fresh_start_takes_effect(fresh_server, page):
    """Streamlit 1.67 loses the first interaction when a pages/ folder exists (docs/architecture.md §3); views/ must not."""
    page.goto(f"{fresh_server}/ch1-rocm-basics?lang=en")
    wait_for_app(page)
    page.get_by_role("radio", name="中文").click()
    page.wait_for_selector(f"h1:has-text('{i18n.t('chapters.ch1.title', 'zh')}')", timeout=20_000)
    assert "lang=zh" in page.url


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_page_opens_in_presenter_mode_at_projector_size(app_server, page, lang):
    """Every page in presenter mode at 1280x720: no exception, its title, room-sized body text; a screenshot each."""
    page.set_viewport_size({"width": 1280, "height": 720})
    problems = []
    for spec in PAGES:
        page.goto(f"{app_server}/{spec.route}?lang={lang}&present=1")
        wait_for_app(page, 60_000)
        if page.get_by_text("Page not found").count():
            problems.append(f"{spec.key}: /{spec.route} is not a page")
        title = i18n.t("app.name" if spec.key == "home" else spec.title_key, lang)
        if page.locator(f"h1:has-text('{title}')").count() == 0:
            problems.append(f"{spec.key}: title {title!r} not shown")
        if page.locator(EXCEPTION).count():
            problems.append(f"{spec.key}: shows an exception: {page.locator(EXCEPTION).first.inner_text()[:300]}")
        font = "parseFloat(getComputedStyle(document.querySelector('[data-testid=stMain] p') || document.body).fontSize)"
        with contextlib.suppress(PlaywrightTimeout):  # the style arrives with the first elements; give it a moment
            page.wait_for_function(f"{font} >= 20", timeout=15_000)
        body_px = page.evaluate(font)
        if body_px < 20:
            problems.append(f"{spec.key}: body text {body_px}px in presenter mode")
        screenshot(page, f"{spec.key}-{lang}-present")
    assert not problems, problems


def test_presenter_mode_folds_the_sidebar_and_steps_with_keys(app_server, page):
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{app_server}/ch3-operators?lang=en&present=1")
    wait_for_app(page, 60_000)
    sidebar = page.locator('[data-testid="stSidebar"]')
    assert sidebar.get_attribute("data-collapsed") == "true"
    before = page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollTop")
    page.locator("h1").first.click()  # focus the page, not an input
    page.keyboard.press("ArrowDown")
    page.wait_for_function(f"document.querySelector('[data-testid=\"stMain\"]').scrollTop > {before}")
    page.wait_for_selector('[data-testid="stPageLink-NavLink"]', state="attached", timeout=30_000)
    target = f"h1:has-text('{i18n.t('chapters.ch4.title', 'en')}')"
    for _ in range(3):  # a key pressed while the page is still settling can land before the handler sees the link
        page.keyboard.press("n")
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_selector(target, timeout=30_000)
            break
    page.wait_for_selector(target, timeout=30_000)
    assert "present=1" in page.url and "ch4" in page.url  # the teacher's link keeps the view


def test_skip_link_moves_focus_to_the_page(app_server, page):
    page.goto(f"{app_server}/ch1-rocm-basics?lang=en")
    wait_for_app(page, 60_000)
    # the link is injected with the page's shell; on a loaded machine it can arrive after the app looks settled
    page.wait_for_selector("#rb-skip", state="attached", timeout=30_000)
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.id")
    assert focused == "rb-skip"
    assert page.evaluate("getComputedStyle(document.activeElement).left") != "-10000px"  # visible when focused
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.getAttribute('data-testid')") == "stMain"


def test_unknown_page_falls_back_to_home(app_server, page):
    page.goto(f"{app_server}/no-such-page?lang=en")
    wait_for_app(page)
    assert page.locator(EXCEPTION).count() == 0
    page.wait_for_selector(f"h1:has-text('{i18n.t('app.name', 'en')}')")
    assert page.get_by_text("Page not found").count() == 1  # Streamlit's short notice, then the home page
