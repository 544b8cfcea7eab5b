"""The handout page in AppTest: every chapter prints each widget as its static chart or its table, with the cards."""

import json

import pytest
from plotly_spec import titles

from rocm_bridge import i18n
from rocm_bridge.course import handout
from rocm_bridge.course.widgets import PrintChart, PrintTable
from rocm_bridge.pages import CHAPTERS


def _charts(at) -> list:
    return [el for el in at.main if getattr(getattr(el, "proto", None), "spec", "").startswith("{")]


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_chapter_prints_its_widgets_as_static_charts_or_tables(app_test, lang):
    at = app_test("views/handout.py", lang=lang, ho_doc="ch1", ho_quiz="0")
    for chapter in CHAPTERS:
        at.selectbox(key="ho_doc").set_value(chapter).run()
        assert not at.exception, (chapter, [e.value for e in at.exception])
        blocks = handout.chapter_blocks(chapter, lang)
        items = [handout.widget_print(b.text, lang) for b in blocks if b.kind == "widget"]
        charts = [i for i in items if isinstance(i, PrintChart)]
        shown = _charts(at)
        assert [titles(json.loads(el.proto.spec)) for el in shown] == [c.figure.layout.title.text for c in charts]
        for el in shown:
            assert json.loads(el.proto.config)["staticPlot"] is True and not el.proto.theme  # print look, static
            assert json.loads(el.proto.spec)["layout"]["paper_bgcolor"] == "#FFFFFF"
        cards = sum(b.kind == "formula" for b in blocks)
        assert len(at.latex) == cards + sum(len(c.latex) for c in charts)
        text = "\n".join(m.value for m in at.markdown)
        for table in (i for i in items if isinstance(i, PrintTable)):
            assert all(row[0].split()[0] in text for row in table.rows), (chapter, table.title)
        assert not at.number_input and not at.slider and not at.select_slider  # no widget control is printed
