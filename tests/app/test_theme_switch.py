"""The theme switch in AppTest: the choice lives in the URL and the session, the page script gets it, charts follow.

AppTest has no browser, so st.context.theme is empty there and charts follow the switch's choice ("auto" = light);
tests/e2e/test_theme_e2e.py checks the real browser.
"""

from __future__ import annotations

import pytest

from rocm_bridge import i18n
from rocm_bridge.visual import style
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


def _mark_colours(fig: dict) -> list[tuple[str, str]]:
    """(where, colour) of every colour the app set on a figure that is drawn against the page background: trace
    markers and lines, reference lines, annotation text and arrows (text inside bars sits on the bar instead)."""
    out = []

    def add(where, value):
        for c in value if isinstance(value, list) else [value]:
            if isinstance(c, str) and c.startswith("#"):
                out.append((where, c))

    for t in fig["data"]:
        name = t.get("name") or t["type"]
        add(f"{name} marker", t.get("marker", {}).get("color"))
        add(f"{name} line", t.get("line", {}).get("color"))
        edge = t.get("marker", {}).get("line", {})
        if edge.get("width", 0) >= 1:  # hairlines in the background colour only separate blocks
            add(f"{name} outline", edge.get("color"))
    for s in fig["layout"].get("shapes", []):
        add("shape", s.get("line", {}).get("color"))
    for a in fig["layout"].get("annotations", []):
        add(f"annotation {a.get('text', '')[:20]}", a.get("font", {}).get("color"))
        add("arrow", a.get("arrowcolor"))
    return out


DARK_PAGES = [
    ("views/hardware.py", {}),
    ("views/stack.py", {"st_trace": "tf.matmul"}),
    ("views/coverage.py", {}),
    ("views/live.py", {"lv_mode": "recorded"}),
    *[("views/formula_lab.py", {"fl_formula": f}) for f in ("compatible", "per_op_time", "throughput", "coverage",
                                                             "speedup")],
]


@pytest.mark.parametrize(("page", "query"), DARK_PAGES, ids=[f"{p[6:-3]}-{'-'.join(q.values())}" for p, q in DARK_PAGES])
def test_every_chart_mark_reads_on_the_dark_background(app_test, page, query):
    at = app_test(page, theme="dark", **query)
    assert not at.exception
    figs = ps.figures(at)
    assert figs, "no chart on the page"
    dark = style.BACKGROUND["dark"]
    marks = [(ps.titles(f)[:30], where, c) for f in figs for where, c in _mark_colours(f)]
    assert marks
    low = [(t, w, c, round(style.contrast_ratio(c, dark), 2)) for t, w, c in marks if style.contrast_ratio(c, dark) < 3]
    assert not low, low
