"""The explainer pictures: every registered picture in every step, language and theme is a well-formed frame that
the back row can read (fonts >= MIN_FONT_PX, text inside the picture), and the registry drives the widgets."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from rocm_bridge import i18n
from rocm_bridge.course import widgets
from rocm_bridge.visual import pictures, svg
from rocm_bridge.visual.style import THEMES

CASES = [(pid, step, lang, theme, variant) for pid, spec in pictures.PICTURES.items() for step in range(spec.steps)
         for lang in i18n.LANGS for theme in THEMES for variant in spec.variants or ("",)]


def _texts(doc: str):
    root = ET.fromstring(doc)
    ns = "{http://www.w3.org/2000/svg}"
    vb = [float(v) for v in root.attrib["viewBox"].split()]
    for el in root.iter(ns + "text"):
        yield el, vb


def test_svg_builder_escapes_text_and_raises_small_fonts():
    doc = svg.Svg(200, 100).text(10, 20, "<b>a & b</b>", size=9).render("x & y")
    root = ET.fromstring(doc)  # well-formed: the markup was escaped, not injected
    (text,) = root.iter("{http://www.w3.org/2000/svg}text")
    assert text.text == "<b>a & b</b>"
    assert float(text.attrib["font-size"]) == svg.MIN_FONT_PX
    assert root.attrib["aria-label"] == "x & y"


def test_fit_shrinks_to_the_box_but_not_below_the_floor():
    assert svg.fit("short", 24, 500) == 24
    assert 18 <= svg.fit("a label far too long for its box", 24, 300) < 24
    assert svg.fit("x" * 200, 24, 50) == svg.MIN_FONT_PX


def test_every_picture_is_a_widget():
    for pid in pictures.PICTURES:
        assert f"picture:{pid}" in widgets.WIDGETS


@pytest.mark.parametrize(("pid", "step", "lang", "theme", "variant"), CASES)
def test_frame_is_readable(pid, step, lang, theme, variant):
    spec = pictures.PICTURES[pid]
    i18n.t(spec.title_key, lang)  # the title exists in both languages (KeyError otherwise)
    frame = pictures.frame(pid, step, lang, theme, variant)
    assert frame.caption.strip()
    if frame.svg is None:
        assert frame.figure.layout.title.text
        return
    for el, (x0, y0, w, h) in _texts(frame.svg):
        size = float(el.attrib["font-size"])
        assert size >= svg.MIN_FONT_PX, (pid, step, el.text)
        x, y = float(el.attrib["x"]), float(el.attrib["y"])
        width = svg.text_width(el.text or "", size, "monospace" in el.attrib.get("font-family", ""))
        left = {"start": x, "middle": x - width / 2, "end": x - width}[el.attrib.get("text-anchor", "start")]
        assert x0 - 1 <= left and left + width <= x0 + w + 1, (pid, step, lang, el.text)
        assert y0 <= y - size * 0.7 and y <= y0 + h, (pid, step, lang, el.text)
    if lang == "zh":  # translated, not English left in place
        assert re.search(r"[\u4e00-\u9fff]", frame.caption), (pid, step)


def test_print_item_prints_the_chosen_step_light():
    for pid, spec in pictures.PICTURES.items():
        item = pictures.print_item(pid, "en")
        assert item.sources == spec.sources


def test_page_context_reaches_the_builder_and_keys_the_cache():
    import json

    from rocm_bridge.hardware import picture as roof
    from rocm_bridge.hardware.measured import HostMeasurement

    m = HostMeasurement("Radeon Test GPU", "AMD", "torch", "2.5", "2026-12-01T00:00:00", matmul_tflops={"fp16": 50.0},
                        d2d_gbs=2000.0)
    last = roof.STEPS.index("you")
    mine = pictures.frame("roofline", last, "en", "light", "", pictures.context_key({roof.MEASURED: json.dumps(m.to_dict())}))
    assert "your Radeon Test GPU: 50 TFLOP/s, ridge 25 FLOP/B" in mine.svg
    plain = pictures.frame("roofline", last, "en")  # a handout, or a visitor without a measurement
    assert "Radeon Test GPU" not in plain.svg and "recorded" in plain.svg
    broken = pictures.frame("roofline", last, "en", "light", "", pictures.context_key({roof.MEASURED: "{not json"}))
    assert broken.svg == plain.svg  # unreadable context: the recorded point, no traceback
    assert pictures.context_key({"b": "2", "a": "1", "n": 3}) == (("a", "1"), ("b", "2"))  # strings only, in order
    # a picture without a context provider ignores any context
    assert pictures.frame("memory", 0, "en", "light", "", (("x", "y"),)).svg == pictures.frame("memory", 0, "en").svg
