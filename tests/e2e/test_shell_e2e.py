"""The app shell in a real browser: every page in both languages, the first click, the language toggle."""

import pytest

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
def test_every_page_opens_without_exception(app_server, page, lang):
    problems = []
    for spec in PAGES:
        page.goto(f"{app_server}/{spec.route}?lang={lang}")
        wait_for_app(page, 60_000)
        if page.get_by_text("Page not found").count():
            problems.append(f"{spec.key}: /{spec.route} is not a page")
        title = i18n.t("app.name" if spec.key == "home" else spec.title_key, lang)
        if page.locator(f"h1:has-text('{title}')").count() == 0:
            problems.append(f"{spec.key}: title {title!r} not shown")
        if page.locator(EXCEPTION).count():
            problems.append(f"{spec.key}: shows an exception: {page.locator(EXCEPTION).first.inner_text()[:300]}")
        screenshot(page, f"{spec.key}-{lang}")
    assert not problems, problems


def test_unknown_page_falls_back_to_home(app_server, page):
    page.goto(f"{app_server}/no-such-page?lang=en")
    wait_for_app(page)
    assert page.locator(EXCEPTION).count() == 0
    page.wait_for_selector(f"h1:has-text('{i18n.t('app.name', 'en')}')")
    assert page.get_by_text("Page not found").count() == 1  # Streamlit's short notice, then the home page
