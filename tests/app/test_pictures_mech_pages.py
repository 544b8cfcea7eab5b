"""The mechanism pictures in the app: each chapter opens with its picture, the step and the explorer's inputs come
from the link, /coverage and /hardware show theirs."""

from __future__ import annotations

import pytest

from rocm_bridge import i18n
from rocm_bridge.hardware.measured import SESSION_KEY, HostMeasurement
from rocm_bridge.visual import pictures


def _svgs(at) -> list[str]:
    """The pictures on the page, in order (Markdown elements: st.html would sanitise SVG away)."""
    return [m.value for m in at.markdown if m.value.startswith("<svg")]


def _label(pid: str, lang: str) -> str:
    from html import escape
    return f'aria-label="{escape(i18n.t(pictures.PICTURES[pid].title_key, lang))}"'


@pytest.mark.parametrize(("page", "pid"), [("views/ch2_environment.py", "compatible"),
                                           ("views/ch5_migration.py", "coverage")])
def test_chapter_opens_with_its_picture(app_test, page, pid):
    at = app_test(page, lang="zh")
    assert not at.exception
    svgs = _svgs(at)
    assert svgs and _label(pid, "zh") in svgs[0]  # the first picture on the page is the chapter's own
    assert pictures.frame(pid, 0, "zh", "light").caption in [c.value for c in at.caption]


def test_the_step_comes_from_the_link(app_test):
    at = app_test("views/ch9_hip_kernels.py", wavefront_step="3")
    assert not at.exception
    assert pictures.frame("wavefront", 2, "en", "light").caption in [c.value for c in at.caption]
    wave = next(s for s in _svgs(at) if _label("wavefront", "en") in s)
    assert "0x49249249" in wave  # the ballot step: what a 32-bit unsigned keeps


def test_occupancy_explorer_reads_the_link_and_follows_the_target(app_test):
    at = app_test("views/ch9_hip_kernels.py", occ_vgprs="136")
    assert not at.exception
    result = i18n.t("chapters.occupancy.result", "en")
    assert next(m for m in at.metric if m.label == result).value == "3 / 8"  # 512 // 136 on gfx90a
    at.selectbox(key="occ_target").set_value("gfx908").run()
    assert next(m for m in at.metric if m.label == result).value == "1 / 10"  # 256 // 136 on gfx908
    assert "gfx908" in str(at.query_params["occ_target"])  # kept in the link


def test_coverage_page_shows_the_picture(app_test):
    at = app_test("views/coverage.py", cv_recorded="true")  # the recorded example: no TensorFlow import
    assert not at.exception
    assert any(_label("coverage", "en") in s for s in _svgs(at))


@pytest.mark.parametrize("page", ["views/hardware.py", "views/ch7_scenarios.py"])
def test_roofline_shows_the_visitors_point_on_every_page(app_test, page):
    """The picture's page context (rocm_bridge.ui.roofline_picture.context) carries the live lab's measurement
    into its last step, on /hardware and in chapter 7 alike; without one the step shows the recorded point."""
    at = app_test(page, roofline_step="4")
    assert not at.exception
    roof = [s for s in _svgs(at) if _label("roofline", "en") in s]
    assert len(roof) == 1 and "recorded" in roof[0] and "your Radeon Test GPU" not in roof[0]
    at.session_state[SESSION_KEY] = HostMeasurement("Radeon Test GPU", "AMD", "torch", "2.5", "2026-12-01T00:00:00",
                                                    matmul_tflops={"fp16": 100.0}, d2d_gbs=1000.0)
    at.run()
    assert not at.exception
    roof = [s for s in _svgs(at) if _label("roofline", "en") in s]
    assert len(roof) == 1 and "your Radeon Test GPU" in roof[0]  # one picture, its last step the visitor's
