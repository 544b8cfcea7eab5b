"""Rough edges a new user met on the home page (UX issue): link labels by page kind, one tagline, one name per page."""

import pytest

from rocm_bridge import i18n
from rocm_bridge.course import content
from rocm_bridge.pages import page


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_home_links_say_what_they_open(app_test, lang):
    at = app_test("views/home.py", lang=lang)
    assert not at.exception
    labels = [p.proto.label for p in at.get("page_link")]
    assert labels, "the home page links to chapters and labs"
    lab_prefix = i18n.t("common.open_labs", lang, title="")
    for key in ("ch1", "quiz", "progress"):
        spec = page(key)
        title = i18n.t(spec.title_key, lang)
        matching = [label for label in labels if label.endswith(title)]
        assert matching, f"no link to {key}"
        assert all(not label.startswith(lab_prefix) for label in matching), f"{key} is not a lab: {matching}"
    doctor = i18n.t(page("doctor").title_key, lang)
    assert i18n.t("common.open_labs", lang, title=doctor) in labels

@pytest.mark.parametrize("lang", i18n.LANGS)
def test_tagline_is_shown_once(app_test, lang):
    at = app_test("views/home.py", lang=lang)
    tagline = i18n.t("app.tagline", lang)
    shown = [c.value for c in at.caption if c.value == tagline]  # main area and sidebar
    assert len(shown) == 1, shown

def test_chinese_home_names_labs_as_the_sidebar_does():
    text = "".join(b.text for b in content.load("home", "zh") if b.kind == "markdown")
    for key in ("doctor", "live", "coverage"):
        assert i18n.t(page(key).title_key, "zh") in text, key
    assert "体检实验室" not in text


def _svgs(at) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith('<svg class="rb-picture"')]


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_home_opens_with_the_hero_then_chapter_cards_with_their_pictures(app_test, lang):
    at = app_test("views/home.py", lang=lang, hero_step="4")
    assert not at.exception
    values = [m.value for m in at.markdown]
    intro = next(i for i, v in enumerate(values) if v.strip() and not v.startswith("<"))
    hero = next(i for i, v in enumerate(values) if v.startswith('<svg class="rb-picture"'))
    assert intro < hero  # one line, then the picture
    assert i18n.t("pictures.hero.title", lang) in values[intro + 1]
    assert ">rocblas_sgemm<" in values[hero]  # step 4 of the link: the library, the op map open
    captions = [c.value for c in at.caption]
    for pid in ("envcheck", "mi300x", "pytorch"):
        assert any(i18n.t(f"pictures.{pid}.title", lang) in c for c in captions), pid
    assert len(at.get("page_link")) >= 11 + 4  # a card per chapter, the starting points' links


def test_home_hero_follows_conv2d_from_the_link_and_opens_a_group(app_test):
    at = app_test("views/home.py", hero_step="4", hero_op="tf.nn.conv2d", hero_group="runtime")
    assert not at.exception
    (doc,) = _svgs(at)
    assert "miopenConvolutionForward" in doc and ">rocblas_sgemm<" not in doc
    table = at.table[0].value
    assert list(table[i18n.t("stack.side.rocm", "en")]) == ["HIP runtime", "ROCr runtime"]
