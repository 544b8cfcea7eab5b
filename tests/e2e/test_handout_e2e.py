"""Handouts in a real browser: the print layout hides the app around the chapter, and Chromium makes a PDF of it."""

import pytest

from rocm_bridge import i18n
from rocm_bridge.handout import quiz_sheet

from browser import EXCEPTION, wait_for_app


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_chapter_handout_prints_without_sidebar_or_widgets(app_server, page, lang):
    page.goto(f"{app_server}/handout?lang={lang}&ho_doc=ch4&ho_quiz=1&ho_key=1")
    wait_for_app(page, 60_000)
    assert page.locator(EXCEPTION).count() == 0
    title = i18n.t("chapters.ch4.title", lang)
    assert page.locator(f"h2:has-text('{title}')").count() >= 1
    assert page.locator(".js-plotly-plot").count() == 0  # widgets are left out of a handout
    last = quiz_sheet("ch4", lang)[-1]
    assert page.get_by_text(i18n.t("handout.key_title", lang), exact=True).count() == 1
    assert last.number >= 8
    page.emulate_media(media="print")
    assert page.locator('[data-testid="stSidebar"]').evaluate("e => getComputedStyle(e).display") == "none"
    assert page.locator("button.rb-no-print").evaluate("e => getComputedStyle(e).display") == "none"
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") >= 3  # chapter, quiz sheet, key
