"""The Formula lab in a real browser: a shared link reopens the same state; a toggle updates result and link."""

from __future__ import annotations

from rocm_bridge import i18n
from rocm_bridge.formulas import lab as fl
from tests.e2e.browser import EXCEPTION, screenshot, wait_for_app


def _open(page, url: str) -> None:
    page.goto(url)
    wait_for_app(page, 60_000)
    page.wait_for_selector(".js-plotly-plot", timeout=60_000)  # the first Plotly page loads a big chunk


def _metric(page, key: str, lang: str) -> str:
    label = i18n.t(key, lang)
    box = page.locator('[data-testid="stMetric"]', has=page.get_by_text(label, exact=True)).first
    return box.locator('[data-testid="stMetricValue"]').inner_text().strip()


def _expected(batch: int, prefetch: bool, hw_key: str = "a100_40gb", pipeline_us: float = 1000.0) -> str:
    w = fl.WORKLOADS["resnet50"]
    wl = fl.Workload(w.gflop_per_sample, w.mb_per_sample, 0.5, 2.0, pipeline_us)
    tc, tt = fl.step_times(batch, fl.hardware_preset(hw_key), wl)
    return fl.fmt(fl.step_throughput(batch, tc, tt, prefetch))


def test_link_toggle_and_shared_link(app_server, page, browser):
    query = "fl_formula=throughput&fl_tp_hw=a100_40gb&fl_tp_batch=128&fl_tp_pipeline=1000&lang=zh"
    _open(page, f"{app_server}/formulas?{query}")
    assert _metric(page, "formula_lab.tp.result", "zh") == _expected(128, prefetch=False)
    assert page.locator(".katex").count() >= 2

    page.get_by_text(i18n.t("formula_lab.tp.prefetch", "zh"), exact=True).click()
    page.wait_for_function("() => location.search.includes('fl_tp_prefetch=True')", timeout=30_000)
    wait_for_app(page, 30_000)
    assert _metric(page, "formula_lab.tp.result", "zh") == _expected(128, prefetch=True)
    assert page.locator(EXCEPTION).count() == 0
    screenshot(page, "formula-lab-throughput-zh")

    # the link shown under the chart is the one a teacher copies: it reopens the same state elsewhere
    link = page.locator('[data-testid="stCode"] code').last.inner_text().strip()
    assert "fl_tp_prefetch=True" in link and "fl_tp_batch=128" in link
    other = browser.new_page()
    try:
        _open(other, link)
        assert _metric(other, "formula_lab.tp.result", "zh") == _expected(128, prefetch=True)
    finally:
        other.close()


def test_bad_link_value_shows_a_message_not_a_traceback(app_server, page):
    page.goto(f"{app_server}/formulas?fl_formula=speedup&fl_sp_after=0&lang=en")
    wait_for_app(page, 60_000)  # no chart here: the widget stops at the message
    label = i18n.t("formula_lab.sp.after", "en")  # the field as the learner sees it, not the parameter name
    assert page.get_by_text(i18n.t("errors.zero", "en", name=label)).count() == 1
    assert page.locator(EXCEPTION).count() == 0
