"""The theme switch in AppTest: the choice lives in the URL and the session, the page script gets it, charts follow.

AppTest has no browser, so st.context.theme is empty there and charts follow the switch's choice ("auto" = light);
tests/e2e/test_theme_e2e.py checks the real browser.
"""

from __future__ import annotations

import pytest

from rocm_bridge import i18n, style
from tests.app import plotly_spec as ps


def _query(at, key):
    value = at.query_params.get(key)
    return value[0] if isinstance(value, list) else value


def _script(at) -> str:
    (html,) = [h for h in at.sidebar.get("html") if 'id="rb-theme"' in h.proto.body]
    return html.proto.body


def _switch(at):
    return at.sidebar.segmented_control(key="theme")


def _hip_colour(at) -> str:
    diagram = ps.figures(at)[0]
    return {t["marker"]["color"] for t in diagram["data"] if t.get("legendgroup") == "hip"}.pop()


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_link_with_dark_opens_dark_and_keeps_it(app_test, lang):
    at = app_test("views/stack.py", lang=lang, theme="dark")
    assert not at.exception
    assert at.session_state["theme"] == "dark" and _switch(at).value == "dark"
    assert _query(at, "theme") == "dark"
    assert 'const want = "dark";' in _script(at)
    assert _hip_colour(at) == style.palette("dark").vendor["HIP"]
    assert _switch(at).label.endswith(i18n.t("theme.label", lang))


def test_no_link_value_leaves_the_browser_alone(app_test):
    at = app_test("views/stack.py")
    assert at.session_state["theme"] == "auto" and _query(at, "theme") is None
    assert 'const want = "";' in _script(at)  # Streamlit's own menu and the system setting keep working
    assert _hip_colour(at) == style.palette("light").vendor["HIP"]


def test_bad_link_value_falls_back_with_a_notice(app_test):
    at = app_test(theme="<b>purple</b>")
    assert not at.exception
    assert at.session_state["theme"] == "auto" and _query(at, "theme") is None
    assert 'const want = "";' in _script(at)
    assert any("purple" in t.value and "<b>" not in t.value for t in at.toast)


def test_switching_writes_the_url_and_asks_the_page_to_apply(app_test):
    at = app_test("views/stack.py")
    _switch(at).set_value("dark").run()
    assert _query(at, "theme") == "dark" and 'const want = "dark";' in _script(at)
    assert _hip_colour(at) == style.palette("dark").vendor["HIP"]
    _switch(at).set_value("light").run()
    assert _query(at, "theme") == "light" and 'const want = "light";' in _script(at)
    assert _hip_colour(at) == style.palette("light").vendor["HIP"]
    _switch(at).set_value("auto").run()  # handed back to the system: the page is told so once, the URL is clean
    assert _query(at, "theme") is None and 'const want = "auto";' in _script(at)


def test_choice_survives_navigation_and_combines_with_presenter_mode(app_test):
    at = app_test("views/hardware.py", theme="dark", present="1")
    at.switch_page("views/stack.py").run()
    assert not at.exception
    assert _query(at, "theme") == "dark" and _query(at, "present") == "1"
    assert 'const want = "dark";' in _script(at)
    assert _hip_colour(at) == style.palette("dark").vendor["HIP"]
    assert any("font-size: 21px" in h.proto.body for h in at.get("html"))  # presenter type, still dark
