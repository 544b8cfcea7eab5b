"""The chapter widgets (`::: widget <name>`): one registry for the content check (rocm_bridge.course.content), the chapter
renderer (rocm_bridge.ui.chapter) and the handout (rocm_bridge.course.handout). Adding a widget is one entry here.

Each entry names its Streamlit renderer and its headless print builder as "module:function" text, so that this
module imports neither Streamlit nor Plotly; only the caller that needs one imports it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rocm_bridge.visual.pictures import PICTURES

# the formula widgets (rocm_bridge.ui.formula_widgets); the occupancy formula has its own widgets below
FORMULA_WIDGETS: tuple[str, ...] = ("compatible", "per_op_time", "throughput", "coverage", "speedup")


@dataclass(frozen=True)
class Widget:
    name: str
    render: str  # "module:function" of the Streamlit renderer, called with key_prefix=<chapter> and `kwargs`
    printed: str  # "module:function" called with the print argument and lang: a PrintChart or a PrintTable
    print_arg: str | None = None  # the builder's first argument, if it takes one
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    formula: str | None = None  # the formula card a handout shows with it, unless the chapter already did


@dataclass(frozen=True)
class PrintChart:
    """One chart of a widget for paper: the figure (house layout, not yet in print colours) and its sources."""

    figure: Any
    sources: tuple[str, ...]
    latex: tuple[str, ...] = ()  # the widget's formula(s) with the numbers the chart uses


@dataclass(frozen=True)
class PrintPicture:
    """An explainer picture on paper: its SVG document (rocm_bridge.visual.svg), sources and the step's sentence."""

    svg: str
    sources: tuple[str, ...] = ()
    caption: str = ""


@dataclass(frozen=True)
class PrintTable:
    """A widget without a chart, on paper: a worked example or its table. Cells are plain text."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    sources: tuple[str, ...] = ()
    note: str = ""


WIDGETS: dict[str, Widget] = {
    **{
        f"formula:{fid}": Widget(f"formula:{fid}", "rocm_bridge.ui.formula_widgets:render",
                                 "rocm_bridge.formulas.figures:print_chart", fid,
                                 {"formula_id": fid, "embedded": True}, formula=fid)
        for fid in FORMULA_WIDGETS
    },
    **{
        f"picture:{pid}": Widget(f"picture:{pid}", "rocm_bridge.ui.pictures:render",
                                 "rocm_bridge.visual.pictures:print_item", pid, {"picture": pid})
        for pid in PICTURES
    },
    "stack": Widget("stack", "rocm_bridge.ui.stack_widgets:render_explorer", "rocm_bridge.stack.figure:print_chart",
                    kwargs={"compact": True}),
    "glossary": Widget("glossary", "rocm_bridge.ui.glossary_widgets:render", "rocm_bridge.course.widget_tables:glossary"),
    "occupancy": Widget("occupancy", "rocm_bridge.ui.occupancy_widget:render",
                        "rocm_bridge.course.widget_tables:occupancy_example", formula="occupancy"),
    "transpose_walkthrough": Widget("transpose_walkthrough", "rocm_bridge.ui.walkthrough_view:render",
                                    "rocm_bridge.kernels.figure:print_chart"),
}


def resolve(ref: str) -> Any:
    """The function a "module:function" reference names (imported now)."""
    import importlib

    module, func = ref.split(":")
    return getattr(importlib.import_module(module), func)


def print_item(name: str, lang: str) -> PrintChart | PrintTable | PrintPicture:
    """What a handout shows for the widget `name` in `lang`."""
    spec = WIDGETS[name]
    build = resolve(spec.printed)
    return build(spec.print_arg, lang) if spec.print_arg is not None else build(lang)
