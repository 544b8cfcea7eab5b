"""The theme switch in a real browser: a ?theme=dark link opens dark (through Streamlit's own localStorage entry and
one reload), Plotly charts follow, the choice survives reruns and navigation, and switching back works."""

from __future__ import annotations

import contextlib
import time
from urllib.parse import urlsplit

from playwright.sync_api import Error as PlaywrightError

from rocm_bridge import i18n
from rocm_bridge.visual import style

from browser import EXCEPTION, screenshot

DARK_BG, LIGHT_BG = "rgb(23, 22, 20)", "rgb(255, 255, 255)"  # Streamlit 1.67's bgColor, style.BACKGROUND
APP_BG = "getComputedStyle(document.querySelector('[data-testid=\"stApp\"]')).backgroundColor"
SETTLED = ("!!document.querySelector('h1') && document.querySelector('[data-testid=\"stApp\"]')"
           ".dataset.testScriptState === 'notRunning'")
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


def _rgb(hex_: str) -> str:
    return "rgb({}, {}, {})".format(*(int(hex_[i:i + 2], 16) for i in (1, 3, 5)))


def settle(page, background: str, timeout_s: float = 120) -> None:
    """Wait until the app shows this background and has finished its run; the switch may reload the page once,
    which destroys the page's JavaScript context mid-poll, so errors while polling are retried."""
    deadline = time.monotonic() + timeout_s
    last = None
    while time.monotonic() < deadline:
        with contextlib.suppress(PlaywrightError):
            last = page.evaluate(f"[{APP_BG}, {SETTLED}]")
            if last == [background, True]:
                return
        page.wait_for_timeout(250)
    raise AssertionError(f"app never showed {background} and settled; last seen {last}")


def chart_colours(page, index: int = 0) -> dict:
    """Paper background, title and tick text colours of the index-th Plotly chart as the browser drew it."""
    page.wait_for_selector('[data-testid="stPlotlyChart"] .main-svg', timeout=60_000)
    return page.evaluate("""i => {
        const chart = document.querySelectorAll('[data-testid="stPlotlyChart"]')[i];
        const svg = chart.querySelector('svg.main-svg');
        const fill = sel => { const el = chart.querySelector(sel); return el ? getComputedStyle(el).fill : null; };
        return {paper: svg.style.background, title: fill('.gtitle'), tick: fill('.ytick text'),
                legend: fill('.legendtext')};
    }""", index)


def luminance(rgb: str) -> float:
    r, g, b = (int(v) for v in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3])
    return style.relative_luminance(f"#{r:02X}{g:02X}{b:02X}")


def bar_fills(page) -> set[str]:
    return set(page.evaluate("""() => Array.from(document.querySelectorAll(
        '[data-testid="stPlotlyChart"] .trace.bars .point path')).map(p => p.style.fill)"""))


def test_dark_link_opens_dark_with_charts_and_survives_reruns_navigation_and_switching_back(app_server, page):
    requests: list[str] = []
    page.on("request", lambda req: requests.append(req.url))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{app_server}/hardware?lang=en&theme=dark")
    settle(page, DARK_BG)
    assert "theme=dark" in page.url and page.locator(EXCEPTION).count() == 0
    # Streamlit's own settings entry holds the choice, so the next visit opens dark at once
    assert page.evaluate("localStorage.getItem('stActiveTheme-/hardware-v2')") == '"Dark"'
    colours = chart_colours(page)
    assert colours["paper"] == DARK_BG
    assert luminance(colours["title"]) > 0.6 and luminance(colours["tick"]) > 0.4, colours
    assert luminance(colours["legend"]) > 0.6, colours

    loads = []
    page.on("load", lambda _: loads.append(page.url))
    page.get_by_text(i18n.t("hardware.per_gcd", "en"), exact=True).click()  # a rerun
    page.wait_for_function("location.search.includes('hw_gcd=')", timeout=30_000)
    settle(page, DARK_BG)
    assert not loads  # a rerun, not a reload

    page.get_by_role("link", name=i18n.t("stack.title", "en")).first.click()  # another page, same session
    page.wait_for_selector(f"h1:has-text('{i18n.t('stack.title', 'en')}')", timeout=60_000)
    settle(page, DARK_BG)
    assert "theme=dark" in page.url and not loads
    page.wait_for_selector('[data-testid="stPlotlyChart"] .trace.bars', timeout=60_000)
    fills = bar_fills(page)
    assert _rgb(style.palette("dark").vendor["HIP"]) in fills  # the dark twin of the HIP indigo
    assert _rgb(style.VENDOR_COLORS["HIP"]) not in fills
    assert chart_colours(page)["paper"] == DARK_BG

    page.get_by_role("radio", name=i18n.t("theme.light", "en"), exact=True).click()  # back to light
    settle(page, LIGHT_BG)
    assert "theme=light" in page.url and page.locator(EXCEPTION).count() == 0
    assert page.evaluate("localStorage.getItem('stActiveTheme-/stack-v2')") == '"Light"'
    page.wait_for_selector('[data-testid="stPlotlyChart"] .trace.bars', timeout=60_000)
    assert chart_colours(page)["paper"] == LIGHT_BG
    assert _rgb(style.VENDOR_COLORS["HIP"]) in bar_fills(page)
    off_server = {urlsplit(u).hostname for u in requests if urlsplit(u).hostname not in LOCAL_HOSTS}
    assert not off_server, off_server  # offline: nothing fetched from anywhere else


def test_auto_follows_the_system_setting(app_server, page):
    page.emulate_media(color_scheme="dark")
    page.goto(f"{app_server}/ch1-rocm-basics?lang=zh&theme=light")
    settle(page, LIGHT_BG)  # the link beats the system
    page.get_by_role("radio", name=i18n.t("theme.auto", "zh"), exact=True).click()
    settle(page, DARK_BG)  # handed back to the system, which is dark here
    assert "theme=" not in page.url
    assert page.evaluate("localStorage.getItem('stActiveTheme-/ch1-rocm-basics-v2')") == '"System"'


def test_presenter_mode_in_dark_at_projector_size(app_server, page):
    """Presenter and dark combine: big type, folded sidebar, dark page and charts; a screenshot of each page."""
    page.set_viewport_size({"width": 1280, "height": 720})
    for route, name in (("hardware", "hardware"), ("stack", "stack"), ("ch3-operators", "ch3")):
        page.goto(f"{app_server}/{route}?lang=en&present=1&theme=dark")
        settle(page, DARK_BG)
        assert page.locator(EXCEPTION).count() == 0
        assert page.locator('[data-testid="stSidebar"]').get_attribute("data-collapsed") == "true"
        body = "parseFloat(getComputedStyle(document.querySelector('[data-testid=stMain] p')).fontSize)"
        page.wait_for_function(f"{body} >= 20", timeout=45_000)
        if route != "ch3-operators":
            page.wait_for_selector('[data-testid="stPlotlyChart"] .main-svg', timeout=60_000)
            assert chart_colours(page)["paper"] == DARK_BG
            page.locator('[data-testid="stPlotlyChart"]').first.evaluate("e => e.scrollIntoView({block: 'center'})")
        page.wait_for_timeout(500)  # let the charts finish drawing before the picture
        screenshot(page, f"{name}-en-present-dark")


def test_code_editor_and_print_follow_dark(app_server, page):
    page.goto(f"{app_server}/hipify?lang=en&theme=dark")
    settle(page, DARK_BG)
    frame = page.frame_locator('iframe[title*="code_editor"]').first
    editor_bg = frame.locator(".ace_editor").first.evaluate("e => getComputedStyle(e).backgroundColor")
    assert luminance(editor_bg) < 0.05, editor_bg  # Ace's tomorrow_night, not the white textmate

    page.goto(f"{app_server}/ch1?lang=en&theme=dark")
    settle(page, DARK_BG)
    page.wait_for_function("document.documentElement.dataset.rbDark === '1'", timeout=30_000)  # st.html runs late
    page.emulate_media(media="print")
    # Streamlit prints backgrounds exactly: a dark page prints as light paper with dark type instead
    app_filter = "getComputedStyle(document.querySelector('[data-testid=\"stApp\"]')).filter"
    assert "invert(1)" in page.evaluate(app_filter)
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF")

    page.emulate_media(media="screen")
    page.goto(f"{app_server}/handout?lang=en&ho_doc=ch1&theme=dark")
    settle(page, DARK_BG)
    button = page.locator('[data-rb-action="print"]')
    text = button.evaluate("e => getComputedStyle(e).color")
    assert style.contrast_ratio(_hex(text), "#171614") >= 4.5  # the print button reads on the dark page
    page.wait_for_function("document.documentElement.dataset.rbDark === '1'", timeout=30_000)
    page.emulate_media(media="print")
    assert page.evaluate(app_filter) == "none"  # the handout prints its own light layout, as vector text


def _hex(rgb: str) -> str:
    r, g, b = (int(v) for v in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3])
    return f"#{r:02X}{g:02X}{b:02X}"
