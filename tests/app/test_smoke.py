"""Every registered page renders in both languages without an exception (Streamlit's smoke-test pattern)."""

import pytest

from rocm_bridge import i18n
from rocm_bridge.pages import PAGES


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("spec", PAGES, ids=lambda p: p.key)
def test_page_renders(app_test, spec, lang):
    at = app_test(spec.file, lang=lang)
    assert not at.exception, [e.value for e in at.exception]
    title = i18n.t(spec.title_key, lang) if spec.key != "home" else i18n.t("app.name", lang)
    assert title in [t.value for t in at.title], f"{spec.key}: title {title!r} not shown"


def test_language_toggle_changes_the_page(app_test):
    at = app_test("views/ch3_operators.py", lang="en")
    assert [t.value for t in at.title] == [i18n.t("chapters.ch3.title", "en")]
    at.segmented_control(key="lang").set_value("zh").run()  # pinned in the top bar, not the sidebar
    assert not at.exception
    assert [t.value for t in at.title] == [i18n.t("chapters.ch3.title", "zh")]
    assert at.query_params["lang"] in ("zh", ["zh"])


def test_unknown_language_falls_back_with_notice(app_test):
    at = app_test(lang="klingon")
    assert not at.exception
    assert at.session_state["lang"] == "en"
    assert any("klingon" in t.value for t in at.toast)


def test_chapter_marks_progress_and_links_neighbours(app_test):
    at = app_test("views/ch2_environment.py")
    at.switch_page("views/ch3_operators.py").run()
    assert at.session_state["chapters_read"] == {"ch2", "ch3"}
    labels = [p.proto.label for p in at.get("page_link")]
    assert i18n.t("chapters.previous", "en", title=i18n.t("chapters.ch2.title", "en")) in labels
    assert i18n.t("chapters.next", "en", title=i18n.t("chapters.ch4.title", "en")) in labels
