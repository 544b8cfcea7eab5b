"""Handout content (rocm_bridge/course/handout.py): each widget as one static chart or table, formula cards, and every
graded question on the sheet with its key. The widget registry (rocm_bridge/course/widgets.py) is the one list of widgets."""

import ast
import inspect
from pathlib import Path

import pytest

from rocm_bridge import i18n
from rocm_bridge.course import content, handout, widgets
from rocm_bridge.course.widgets import PrintChart, PrintPicture, PrintTable
from rocm_bridge.pages import CHAPTERS
from rocm_bridge.quiz.bank import bank
from rocm_bridge.visual import figures

ROOT = Path(__file__).resolve().parent.parent


def _chapter_widgets() -> set[str]:
    return {b.text for path in ROOT.glob("content/*/*.md")
            for b in content.parse(path.read_text(encoding="utf-8"), str(path)) if b.kind == "widget"}


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("chapter", CHAPTERS)
def test_sheet_has_every_graded_question_with_its_key(chapter, lang):
    items = handout.quiz_sheet(chapter, lang)
    graded = bank().select(chapters=[chapter], sets=["bank"], graded_only=True)
    assert [i.qid for i in items] == [q.id for q in graded] and [i.number for i in items] == list(range(1, len(items) + 1))
    for item, q in zip(items, graded, strict=True):
        if q.type in ("single", "code"):
            assert item.answer == handout.LETTERS[q.answer]
        elif q.type == "multiple":
            assert item.answer == ", ".join(handout.LETTERS[i] for i in sorted(q.answer))
        else:
            assert item.answer and not item.options


def test_chapter_handout_keeps_widgets_after_their_formula_card():
    blocks = handout.chapter_blocks("ch3", "en")
    kinds = [(b.kind, b.text) for b in blocks if b.kind in ("formula", "widget") and not b.text.startswith("picture:")]
    assert kinds == [("formula", "per_op_time"), ("widget", "formula:per_op_time")]  # the chapter's card, not twice
    assert any(b.kind == "markdown" for b in blocks)
    with pytest.raises(KeyError):
        handout.chapter_blocks("ch99", "en")


def test_a_widget_without_a_card_before_it_gets_one_once():
    ch9 = [(b.kind, b.text) for b in handout.chapter_blocks("ch9", "en") if b.kind in ("formula", "widget")]
    assert [b for b in ch9 if not b[1].startswith("picture:")] == [("formula", "occupancy"), ("widget", "occupancy"),
                                                                 ("widget", "transpose_walkthrough")]
    blocks = handout.with_cards(content.parse("Text.\n\n::: widget formula:speedup\n\n::: widget glossary\n"
                                              "::: formula speedup\n::: widget formula:speedup\n"))
    assert [(b.kind, b.text) for b in blocks if b.kind != "markdown"] == [
        ("formula", "speedup"), ("widget", "formula:speedup"), ("widget", "glossary"), ("formula", "speedup"),
        ("widget", "formula:speedup")]  # the chapter's own second card stays where the author put it


def test_one_registry_names_every_widget():
    assert tuple(widgets.WIDGETS) == content.WIDGETS
    assert _chapter_widgets() <= set(widgets.WIDGETS)
    for name, spec in widgets.WIDGETS.items():
        assert spec.name == name
        assert spec.render.startswith("rocm_bridge.ui.") and not spec.printed.startswith("rocm_bridge.ui.")
        assert spec.formula is None or spec.formula in content.FORMULAS
    from rocm_bridge.ui import formula_widgets  # imports streamlit: only the test walks into the UI
    assert tuple(formula_widgets._RENDERERS) == widgets.FORMULA_WIDGETS == formula_widgets.FORMULA_IDS
    for spec in widgets.WIDGETS.values():
        assert callable(widgets.resolve(spec.render)) and callable(widgets.resolve(spec.printed))


def test_an_unknown_widget_name_is_refused_by_the_content_check():
    with pytest.raises(content.ContentError):
        content.parse("::: widget formula:occupancy\n")  # a formula with no widget of its own
    with pytest.raises(content.ContentError):
        content.parse("::: widget nope\n")


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("name", sorted(_chapter_widgets()))
def test_every_chapter_widget_prints_a_titled_chart_or_a_table(name, lang):
    item = handout.widget_print(name, lang)
    if isinstance(item, PrintTable):
        assert item.header and item.rows and all(len(r) == len(item.header) for r in item.rows)
        assert all(cell.strip() for row in item.rows for cell in row)
        return
    if isinstance(item, PrintPicture):  # an explainer picture: its print step as an SVG, light, with its sentence
        import xml.etree.ElementTree as ET

        assert ET.fromstring(item.svg).attrib["aria-label"] and item.caption.strip() and item.sources
        return
    assert isinstance(item, PrintChart) and item.sources
    layout = item.figure.layout
    assert layout.title.text and layout.xaxis.title.text and layout.yaxis.title.text
    assert layout.width == figures.PRINT_WIDTH and layout.paper_bgcolor == figures.PRINT_PAPER
    assert layout.font.color == figures.PRINT_INK and layout.template.layout.plot_bgcolor in ("white", "#FFFFFF")
    assert len(item.figure.data) >= 1
    for line in layout.title.text.split("<br>"):
        assert figures._columns(line) <= figures.PRINT_TITLE_COLUMNS


def test_the_chapter_widgets_that_have_a_chart_are_the_planned_ones():
    kinds = {n: type(handout.widget_print(n, "en")).__name__ for n in _chapter_widgets()}
    assert kinds == {**{f"formula:{f}": "PrintChart" for f in widgets.FORMULA_WIDGETS}, "stack": "PrintChart",
                     "glossary": "PrintTable", "occupancy": "PrintTable", "transpose_walkthrough": "PrintChart",
                     **{n: "PrintPicture" for n in _chapter_widgets() if n.startswith("picture:")}}


def test_handout_chart_is_the_widgets_chart_at_its_defaults():
    """The same builder: the widget's figure at the default inputs equals the handout's before the print look."""
    from rocm_bridge.formulas import figures as ff
    from rocm_bridge.formulas import lab as fl

    d = ff.DEFAULTS["speedup"]
    view = fl.amdahl_view(d["before"], d["after"], d["part"] / 100)
    widget_fig = ff.speedup_figures(d["before"], d["after"], d["part"], view, "zh")[1]
    printed = handout.widget_print("formula:speedup", "zh").figure
    assert [t.y for t in printed.data] == [t.y for t in widget_fig.data]
    assert printed.layout.title.text.replace("<br>", "") == widget_fig.layout.title.text
    assert widget_fig.layout.paper_bgcolor is None  # the widget's own figure keeps the app's look


def test_no_widget_module_draws_its_own_formula_chart():
    """One builder per chart: the Streamlit modules of the chapter widgets build no Plotly traces for them."""
    for module in ("formula_widgets", "glossary_widgets", "occupancy_widget"):
        tree = ast.parse((ROOT / "rocm_bridge" / "ui" / f"{module}.py").read_text(encoding="utf-8"))
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom) for a in n.names}
        modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert "plotly.graph_objects" not in imported and not any(m and m.startswith("plotly") for m in modules)
    from rocm_bridge.ui import stack_widgets
    assert "def build_figure" not in inspect.getsource(stack_widgets)


def test_for_print_keeps_the_figure_and_wraps_a_long_title():
    long = handout.widget_print("formula:per_op_time", "en").figure
    assert "<br>" in long.layout.title.text and long.layout.margin.t > 60
    assert long.layout.hovermode is False and long.layout.xaxis.linecolor == figures.PRINT_INK


def test_tables_escape_their_cells_for_markdown():
    from rocm_bridge.course.widget_tables import markdown

    table = PrintTable("t", ("a", "b"), (("x|y", "*bold*"),))
    text = markdown(table)
    assert "x\\|y" in text and "\\*bold\\*" in text and text.count("\n") == 2
