"""The course's own chapter widgets: the occupancy what-if (ch9) and the glossary table (ch1)."""

from rocm_bridge import i18n
from rocm_bridge.course import glossary


def test_occupancy_widget_follows_the_formula(app_test):
    at = app_test("views/ch9_hip_kernels.py")
    assert not at.exception
    label = i18n.t("chapters.occupancy.vgprs", "en")
    slider = next(s for s in at.slider if s.label == label)
    slider.set_value(136).run()  # the recorded tile_acc kernel: 136 VGPRs -> 3 waves per SIMD
    metric = next(m for m in at.metric if m.label == i18n.t("chapters.occupancy.result", "en"))
    assert metric.value == "3 / 8"
    next(s for s in at.select_slider if s.label == i18n.t("chapters.occupancy.lds", "en")).set_value(32768).run()
    next(s for s in at.slider if s.label == label).set_value(32).run()
    metric = next(m for m in at.metric if m.label == i18n.t("chapters.occupancy.result", "en"))
    assert metric.value == "2 / 8"  # 2 blocks x 4 waves / 4 SIMDs: LDS binds


def test_glossary_table_is_shown_in_chinese(app_test):
    at = app_test("views/ch1_rocm_basics.py", lang="zh")
    assert not at.exception
    text = "\n".join(m.value for m in at.markdown)
    gcd = next(t for t in glossary.terms() if t.id == "gcd")
    assert "计算裸片" in text and gcd.avoid_zh[0] not in text
