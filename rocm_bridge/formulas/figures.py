"""The formula widgets' charts and default inputs, headless: rocm_bridge.ui.formula_widgets draws them with the
learner's inputs, the handout (rocm_bridge.course.handout) with the defaults. One builder per chart, nothing else draws
them. Texts come from the catalog in the language given; Plotly is imported inside the builders.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from rocm_bridge import formulas, i18n
from rocm_bridge.course.widgets import PrintChart
from rocm_bridge.formulas import lab as fl
from rocm_bridge.visual import style
from rocm_bridge.visual.figures import house_figure, reference_line

COMPAT_MARKS = {1: "✓", 0: "✗"}  # Compatible heatmap cells: a check on the compatible ones, a cross elsewhere

# Each widget's inputs before a learner touches them (per-op time and coverage also take recorded defaults).
DEFAULTS: dict[str, dict[str, Any]] = {
    "compatible": {"driver": "6.4", "rocm": "6.4.x", "tf": "2.18.1"},
    "throughput": {"hw": "mi250_gcd", "workload": "resnet50", "batch": 256, "efficiency": 50.0, "overhead_ms": 2.0,
                   "pipeline_us": 0.0, "prefetch": False, "mixed": False},
    "coverage": {"model": "cnn_mixed_bf16", "hw": "mi250_gcd", "tensor_mb": 16.0},
    "speedup": {"before": 12.0, "after": 8.0, "part": 60.0},
}


def _tr(lang: str) -> Callable[..., str]:
    return lambda key, /, **params: i18n.t(key, lang, **params)


def _figure(title: str, x_title: str, y_title: str, data: Any = None, **layout: Any) -> Any:
    return house_figure(data, title=title, x_title=x_title, y_title=y_title, **layout)


def preset_sources(p: fl.HardwarePreset, lang: str) -> list[str]:
    if p.key == fl.HOST_PRESET:
        tr = _tr(lang)
        return [(tr("formula_lab.preset.recorded_source") if p.recorded else tr("common.measured_here"))
                + f" ({p.sources[0]})"]
    return list(p.sources)


def model_label(key: str, lang: str) -> str:
    for catalog_key in (f"coverage.example.{key}", f"formula_lab.cv.model_{key}"):
        if i18n.has(catalog_key):
            return i18n.t(catalog_key, lang)
    return key


# --- the charts --------------------------------------------------------------------------------------------


def compatible_figure(grid: fl.CompatGrid, driver: str, rocm: str, tf: str, lang: str,
                      theme: str = "light") -> Any:
    import plotly.graph_objects as go

    tr = _tr(lang)
    pal = style.palette(theme)
    fig = _figure(tr("formula_lab.cp.chart_title", driver=driver), tr("formula_lab.cp.axis_tf"),
                  tr("formula_lab.cp.axis_rocm"))
    fig.add_trace(go.Heatmap(
        x=grid.tensorflow, y=grid.rocm, z=grid.values, zmin=0, zmax=1,
        # two flat colours from a colour-blind-safe pair, and a mark in every cell: colour is never the only cue
        colorscale=[[0, pal.status["fail"]], [0.5, pal.status["fail"]],
                    [0.5, pal.status["ok"]], [1, pal.status["ok"]]],
        text=[[COMPAT_MARKS.get(v, "") for v in row] for row in grid.values], texttemplate="%{text}",
        textfont={"color": style.text_on(pal.status["ok"]), "size": 13},
        colorbar={"tickvals": [0.25, 0.75], "ticktext": [f"✗ 0 · {tr('formula_lab.cp.legend_0')}",
                                                          f"✓ 1 · {tr('formula_lab.cp.legend_1')}"],
                  "thickness": 14, "len": 0.5, "title": {"text": "Compatible"}},
        hovertemplate="ROCm %{y} · TF %{x}: %{z}<extra></extra>",
    ))
    if tf in grid.tensorflow:
        fig.add_trace(go.Scatter(x=[tf], y=[rocm], mode="markers", name=tr("formula_lab.cp.picked"),
                                 marker={"symbol": "square-open", "size": 22, "color": pal.ink,
                                         "line": {"width": 3}}))
    fig.update_xaxes(type="category")
    fig.update_yaxes(type="category", autorange="reversed")
    return fig


def compatible_sources(check: fl.CompatCheck) -> list[str]:
    return [s for s in {check.sources["rocm"], check.sources["driver"]} if s] or ["tf_rocm_compat.csv"]


def per_op_figure(result: fl.OpListResult, shape: str, lang: str, theme: str = "light") -> Any:
    import plotly.graph_objects as go

    tr = _tr(lang)
    pal = style.palette(theme)
    labels = [b.name for b in result.bars]
    bars = [
        go.Bar(y=labels, x=[getattr(b.time, f"{part}_s") * 1e6 for b in result.bars], orientation="h",
               name=tr(f"formula_lab.po.part_{part}"), marker_color=pal.part[part])
        for part in ("dispatch", "kernel", "sync")
    ]
    return _figure(tr("formula_lab.po.chart_title", shape=shape), tr("formula_lab.po.axis_time"),
                   tr("formula_lab.po.axis_launch"),
                   data=bars, barmode="stack", yaxis={"autorange": "reversed"},
                   legend={"traceorder": "normal"})  # Plotly reverses stacked bars' legend: keep the bars' order


def per_op_sources(rec: fl.RecordedOps, lang: str) -> list[str]:
    return [i18n.t("common.recorded", lang, device=rec.device, date=rec.measured_at[:10])
            + f" ({rec.backend}); {rec.source}"]


def throughput_figure(hw: fl.HardwarePreset, wl: fl.Workload, batch: int, value: float, *, mixed: bool,
                      prefetch: bool, lang: str, theme: str = "light") -> Any:
    import plotly.graph_objects as go

    tr = _tr(lang)
    pal = style.palette(theme)
    curve = fl.throughput_curve(hw, wl, mixed=mixed, prefetch=prefetch)
    other = fl.throughput_curve(hw, wl, mixed=mixed, prefetch=not prefetch)
    ceiling = fl.throughput_ceiling(hw, wl, mixed=mixed, prefetch=prefetch)
    mine = tr("formula_lab.tp.with_prefetch" if prefetch else "formula_lab.tp.without_prefetch")
    theirs = tr("formula_lab.tp.without_prefetch" if prefetch else "formula_lab.tp.with_prefetch")
    traces = [
        go.Scatter(x=[p.batch for p in curve], y=[p.throughput for p in curve], mode="lines+markers",
                   name=mine, line={"color": pal.vendor_color(hw.vendor)}),
        go.Scatter(x=[p.batch for p in other], y=[p.throughput for p in other], mode="lines",
                   name=theirs, line={"dash": "dot", "color": pal.vendor["CPU"]}),
        go.Scatter(x=[batch], y=[value], mode="markers", name=tr("formula_lab.tp.your_batch"),
                   marker={"size": 12, "symbol": "diamond", "color": pal.ink}),
    ]
    fig = _figure(tr("formula_lab.tp.chart_title", label=hw.label), tr("formula_lab.tp.axis_batch"),
                  tr("formula_lab.tp.axis_throughput"), data=traces,
                  xaxis={"type": "log", "dtick": 1})  # labels at powers of ten only
    reference_line(fig, y=ceiling, text=tr("formula_lab.tp.ceiling", value=fl.fmt(ceiling)), color=pal.line)
    return fig


def throughput_sources(hw: fl.HardwarePreset, lang: str) -> list[str]:
    return preset_sources(hw, lang) + [i18n.t("formula_lab.tp.model_source", lang)]


def coverage_figure(result: fl.CoverageResult, model: str, lang: str, theme: str = "light") -> Any:
    import plotly.graph_objects as go

    tr = _tr(lang)
    pal = style.palette(theme)
    # one bar: the axis title names it, so its tick label would only repeat it
    fig = _figure(tr("formula_lab.cv.chart_title", model=model_label(model, lang)), tr("formula_lab.cv.axis_ops"),
                  tr("formula_lab.cv.op_types"), yaxis={"showticklabels": False})
    row = [tr("formula_lab.cv.op_types")]
    fig.add_trace(go.Bar(y=row, x=[result.n_supported], orientation="h", name=tr("formula_lab.cv.covered"),
                         marker_color=pal.status["ok"]))
    fig.add_trace(go.Bar(y=row, x=[len(result.uncovered)], orientation="h", name=tr("formula_lab.cv.not_covered"),
                         marker_color=pal.status["fail"]))
    fig.update_layout(barmode="stack", height=260)
    return fig


def coverage_sources(list_source: str, target: str, hw: fl.HardwarePreset, lang: str) -> list[str]:
    return [list_source, f"data/tf_kernel_registry ({target})"] + preset_sources(hw, lang)


@functools.lru_cache(maxsize=256)
def speedup_figures(before: float, after: float, part: float, view: Any, lang: str,
                    theme: str = "light") -> tuple[Any, Any]:
    """Before/after bars and the Amdahl curve (None without a view), built once per input (building Plotly objects
    dominates a rerun; st.plotly_chart only reads them). lang and theme key the cache: the labels are translated
    and the colours follow the visitor's theme (style.palette; the handout prints in the light one)."""
    import plotly.graph_objects as go

    tr = _tr(lang)
    pal = style.palette(theme)
    fig = _figure(tr("formula_lab.sp.chart_title"), "", tr("formula_lab.sp.axis_time"))
    labels = [tr("formula_lab.sp.before_bar"), tr("formula_lab.sp.after_bar")]
    if view is None:
        fig.add_trace(go.Bar(x=labels, y=[before, after], marker_color=pal.vendor["AMD"], showlegend=False))
        return fig, None
    fig.add_trace(go.Bar(x=labels, y=[view.untouched_s, view.untouched_s], name=tr("formula_lab.sp.untouched"),
                         marker_color=pal.vendor["CPU"]))
    fig.add_trace(go.Bar(x=labels, y=[view.part_before_s, view.part_after_s], name=tr("formula_lab.sp.optimised"),
                         marker_color=pal.vendor["AMD"]))
    fig.layout.barmode = "stack"
    curve = fl.amdahl_curve(view.fraction_optimised, fl.LOCAL_SPEEDUPS)
    fig2 = _figure(tr("formula_lab.sp.amdahl_title", p=fl.fmt(part)), tr("formula_lab.sp.axis_local"),
                   tr("formula_lab.sp.axis_whole"))
    fig2.add_trace(go.Scatter(x=[c[0] for c in curve], y=[c[1] for c in curve], mode="lines",
                              name=tr("formula_lab.sp.curve"), line={"color": pal.vendor["AMD"]}))
    fig2.add_trace(go.Scatter(x=[view.local_speedup], y=[view.speedup], mode="markers",
                              name=tr("formula_lab.sp.you"), marker={"size": 12, "symbol": "diamond", "color": pal.ink}))
    if view.ceiling != float("inf"):
        reference_line(fig2, y=view.ceiling, text=tr("formula_lab.sp.ceiling", value=fl.fmt(view.ceiling)),
                       color=pal.line)
    fig2.layout.xaxis.update(type="log", dtick=1)  # labels at powers of ten only
    return fig, fig2


# --- each widget at its defaults, for the handout ----------------------------------------------------------


def _compatible(lang: str) -> PrintChart:
    d = DEFAULTS["compatible"]
    check = fl.compat_check(d["driver"], d["rocm"], d["tf"])
    fig = compatible_figure(fl.compat_grid(d["driver"]), d["driver"], d["rocm"], d["tf"], lang)
    return PrintChart(fig, tuple(compatible_sources(check)), (fl.latex_compatible(check),))


def _per_op_time(lang: str) -> PrintChart:
    rec = fl.recorded_ops()
    op_list = next(iter(rec.op_lists.values()))
    result = fl.op_list_times(op_list.ops, rec.dispatch_us, rec.sync_us, fusion=False)
    first = result.bars[0]
    return PrintChart(per_op_figure(result, op_list.shape, lang), tuple(per_op_sources(rec, lang)),
                      (fl.latex_per_op(first.time),))


def _throughput(lang: str) -> PrintChart:
    d = DEFAULTS["throughput"]
    hw, w = fl.hardware_preset(d["hw"]), fl.WORKLOADS[d["workload"]]
    wl = fl.Workload(w.gflop_per_sample, w.mb_per_sample, d["efficiency"] / 100.0, d["overhead_ms"], d["pipeline_us"])
    tc, tt = fl.step_times(d["batch"], hw, wl, d["mixed"])
    value = fl.step_throughput(d["batch"], tc, tt, d["prefetch"])
    fig = throughput_figure(hw, wl, d["batch"], value, mixed=d["mixed"], prefetch=d["prefetch"], lang=lang)
    return PrintChart(fig, tuple(throughput_sources(hw, lang)),
                      (fl.latex_throughput(d["batch"], tc, tt, d["prefetch"], value),))


def _coverage(lang: str) -> PrintChart:
    d = DEFAULTS["coverage"]
    models, list_source = fl.example_models()
    model = d["model"] if d["model"] in models else models[0]
    target = fl.COVERAGE_TARGETS[0]
    result = fl.model_coverage(model, target)
    sources = coverage_sources(list_source, target, fl.hardware_preset(d["hw"]), lang)
    return PrintChart(coverage_figure(result, model, lang), tuple(sources), (fl.latex_coverage(result),))


def _speedup(lang: str) -> PrintChart:
    """The Amdahl curve: the before/after bars only restate the two times the worked formulas already show."""
    d = DEFAULTS["speedup"]
    view = fl.amdahl_view(d["before"], d["after"], d["part"] / 100.0)
    _, amdahl = speedup_figures(d["before"], d["after"], d["part"], view, lang)
    value = formulas.speedup(d["before"], d["after"])
    latex = (fl.latex_speedup(d["before"], d["after"], value), fl.latex_amdahl(view))
    return PrintChart(amdahl, (i18n.t("formula_lab.sp.source", lang),), latex)


PRINTS: dict[str, Callable[[str], PrintChart]] = {
    "compatible": _compatible,
    "per_op_time": _per_op_time,
    "throughput": _throughput,
    "coverage": _coverage,
    "speedup": _speedup,
}


def print_chart(formula_id: str, lang: str) -> PrintChart:
    """A formula widget's chart at its default inputs, with its sources and the formula with those numbers."""
    return PRINTS[formula_id](lang)
