"""The Doctor page in a real browser: a recorded system from a deep link, its verdict and checklist, literal source
lines (no stray backslashes), the one log-size limit, and the log doctor on pasted text (never rendered as HTML)."""

from __future__ import annotations

import re

from tests.e2e.browser import screenshot, wait_for_app

EXCEPTION = '[data-testid="stException"]'


def _open(page, url: str) -> None:
    page.goto(url)
    wait_for_app(page, 60_000)
    page.wait_for_selector('[data-testid="stExpander"]', timeout=60_000)


def test_recorded_system_verdict_and_literal_sources(app_server, page):
    _open(page, f"{app_server}/doctor?lang=en&doc_sys=rocr_then_hip_out_of_range")
    alerts = page.locator('[data-testid="stAlert"]').all_inner_texts()
    verdict = next(a for a in alerts if "Verdict" in a)
    assert "HIP_VISIBLE_DEVICES='2'" in verdict and "no GPU" in verdict, verdict
    page.get_by_text("Device-selection variables").first.click()
    page.wait_for_function("() => document.body.innerText.includes('ROCR_VISIBLE_DEVICES=\\'2,3\\': keeps 2, 3 of 8')",
                           timeout=30_000)
    body = page.locator("body").inner_text()
    assert "amd_filter_device.cpp" in body or "rocdevice.cpp" in body
    assert "https\\:" not in body and "\\|" not in body  # source lines shown literally
    assert page.locator(EXCEPTION).count() == 0
    screenshot(page, "doctor-visibility")


def test_log_limit_said_once_and_pasted_html_stays_text(app_server, page):
    _open(page, f"{app_server}/doctor?lang=en&doc_sys=wsl2_rocm_working")
    assert any("All checks passed" in a for a in page.locator('[data-testid="stAlert"]').all_inner_texts())
    page.wait_for_function("() => document.body.innerText.includes('up to 2 MB, LOG, TXT, OUT, ERR')", timeout=30_000)
    body = page.locator("body").inner_text()
    assert body.count("2 MB") + body.count("2MB") == 1 and "per file" not in body and not re.search(r"\b50 ?MB", body), body
    box = page.locator("textarea").first
    box.fill("<b>bold</b>\nImportError: libamdhip64.so.6: cannot open shared object file: No such file or directory")
    page.keyboard.press("Control+Enter")
    page.get_by_role("button", name="Diagnose log").click()
    page.wait_for_function("() => document.body.innerText.includes('libamdhip64.so.6')", timeout=30_000)
    assert page.locator("b", has_text="bold").count() == 0
    assert page.locator(EXCEPTION).count() == 0
    screenshot(page, "doctor-log")


def test_uploader_speaks_chinese(app_server, page):
    """Streamlit's dropzone is English only: on a Chinese page its instruction line is hidden, the button reads
    the catalog's word and the caption states the limit and the types in Chinese."""
    _open(page, f"{app_server}/doctor?lang=zh&doc_sys=wsl2_rocm_working")
    page.wait_for_function("() => document.body.innerText.includes('最大 2 MB，格式 LOG、TXT、OUT、ERR')",
                           timeout=30_000)
    zone = page.locator('[data-testid="stFileUploaderDropzone"]')
    assert zone.locator('[data-testid="stFileUploaderDropzoneInstructions"]').is_hidden()  # "2MB per file • ..."
    label = zone.locator("button p")
    assert label.evaluate("p => getComputedStyle(p).fontSize") == "0px"  # Streamlit's "Upload" takes no space
    assert label.evaluate("p => getComputedStyle(p, '::after').content") == '"选择文件"'
    assert page.locator(EXCEPTION).count() == 0
