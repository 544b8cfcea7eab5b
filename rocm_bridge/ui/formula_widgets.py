"""The five formula widgets: inputs, the formula with the user's numbers (st.latex), and a chart.

render(formula_id, key_prefix, embedded) is used by the Formula lab (key_prefix "fl") and by the chapters
(key_prefix "ch2" ...). Every input lives in the URL query under f"{key_prefix}_<name>"; a bad value in a
link (negative, NaN, out of range, unknown choice) falls back to the default with a translated message.
The computation is rocm_bridge.formula_lab / rocm_bridge.formulas; this module only reads and draws.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Any

import plotly.graph_objects as go
import streamlit as st

from rocm_bridge import formula_lab as fl
from rocm_bridge import formulas, i18n, measured, style
from rocm_bridge.errors import InvalidInput
from rocm_bridge.text import md_escape
from rocm_bridge.ui import formula_card, lang, show_error, tr
from rocm_bridge.ui.charts import house_figure, reference_line, show_chart
from rocm_bridge.ui.state import push_url
from rocm_bridge.ui.theme import chart_theme, palette

COMPAT_MARKS = {1: "✓", 0: "✗"}  # Compatible heatmap cells: a check on the compatible ones, a cross elsewhere
FORMULA_IDS: tuple[str, ...] = ("compatible", "per_op_time", "throughput", "coverage", "speedup")


# --- inputs bound to the URL -------------------------------------------------------------------------------


class _Inputs:
    """Collects the keys a widget uses (to write them to the URL) and the notices for bad link values."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.keys: list[str] = []

    def key(self, name: str) -> str:
        return f"{self.prefix}_{name}"

    def _seed(self, key: str, default: Any, parse: Callable[[str], Any]) -> None:
        if key in st.session_state:
            return
        value = default
        raw = st.query_params.get(key)
        if raw is not None:
            try:
                value = parse(raw)
            except InvalidInput as err:
                # the message quotes the link's text: escape it so it shows as typed, never as Markdown
                st.warning(f"{md_escape(err.message(lang()))} {tr('formula_lab.used_default')}",
                           icon=":material/link_off:")
        st.session_state[key] = value

    def number(
        self, name: str, label_key: str, default: float, lo: float, hi: float, *,
        step: float | None = None, fmt: str | None = None, help_key: str | None = None, integer: bool = False,
    ) -> float:
        """The value the formula uses. A typed value outside [lo, hi] is not refused silently by the browser:
        the formula uses the nearest limit and the widget says so, with the value typed and the value used."""
        key = self.key(name)
        label = tr(label_key)

        def parse(raw: str) -> float:
            value = fl.parse_number(raw, label, lo, hi)
            if integer:
                value = formulas._count(label, value)
                return int(value)
            return value

        self._seed(key, int(default) if integer else float(default), parse)
        self.keys.append(key)
        helptext = tr(help_key) if help_key else None
        if integer:
            typed = st.number_input(label, step=int(step or 1), key=key, help=helptext)
        else:
            typed = st.number_input(label, step=step, format=fmt or "%g", key=key, help=helptext)
        used = min(max(typed, lo), hi)
        if used != typed:
            st.warning(tr("formula_lab.clamped", name=label, typed=fl.fmt(typed), used=fl.fmt(used),
                          lo=fl.fmt(lo), hi=fl.fmt(hi)), icon=":material/straighten:")
        return int(used) if integer else float(used)

    def choice(
        self, name: str, label_key: str, options: Sequence[str], default: str, *,
        format_func: Callable[[str], str] = str, on_change: Callable[[], None] | None = None,
    ) -> str:
        key = self.key(name)
        options = list(options)
        self._seed(key, default, lambda raw: fl.parse_choice(raw, tr(label_key), options))
        if st.session_state[key] not in options:  # options changed under a kept value (e.g. a preset vanished)
            st.session_state[key] = default
        self.keys.append(key)
        return st.selectbox(tr(label_key), options, format_func=format_func, key=key, on_change=on_change)

    def flag(self, name: str, label_key: str, default: bool = False, help_key: str | None = None) -> bool:
        key = self.key(name)
        self._seed(key, default, lambda raw: fl.parse_bool(raw, tr(label_key)))
        self.keys.append(key)
        return st.toggle(tr(label_key), key=key, help=tr(help_key) if help_key else None)

    def to_url(self) -> None:
        push_url(*self.keys)


# Python parameter names the formulas raise with -> the label of the input (or result) a learner sees
_PARAM_LABELS: dict[str, str] = {
    "t_before_s": "formula_lab.sp.before", "t_after_s": "formula_lab.sp.after",
    "fraction_optimised": "formula_lab.sp.part", "local_speedup": "formula_lab.sp.axis_local",
    "batch": "formula_lab.tp.batch", "gflop_per_sample": "formula_lab.tp.gflop", "mb_per_sample": "formula_lab.tp.mb",
    "efficiency": "formula_lab.tp.efficiency", "overhead_ms": "formula_lab.tp.overhead",
    "pipeline_us": "formula_lab.tp.pipeline", "t_compute_s": "formula_lab.tp.t_compute",
    "t_transfer_s": "formula_lab.tp.t_transfer", "dispatch_us": "formula_lab.po.dispatch",
    "sync_us": "formula_lab.po.sync", "tensor_mb": "formula_lab.cv.tensor_mb",
}


def _show_error(err: InvalidInput) -> None:
    """show_error with every parameter name in the message replaced by its field label."""
    name = err.params.get("name")
    if isinstance(name, str):
        err.params["name"] = re.sub(r"[a-z][a-z_]*", lambda m: tr(_PARAM_LABELS[m[0]]) if m[0] in _PARAM_LABELS
                                    else m[0], name)
    show_error(err)


def _figure(title: str, x_title: str, y_title: str, data: Any = None, **layout: Any) -> go.Figure:
    return house_figure(data, title=title, x_title=x_title, y_title=y_title, **layout)


def _metric(label_key: str, value: str, **params: Any) -> None:
    st.metric(tr(label_key, **params), value)


def _host() -> measured.HostMeasurement | None:
    return measured.from_session(st.session_state)


def _preset_label(p: fl.HardwarePreset) -> str:
    if p.key == fl.HOST_PRESET:
        tag = tr("formula_lab.preset.recorded_tag") if p.recorded else tr("formula_lab.preset.host_tag")
        return f"{tag}: {p.label}"
    return p.label


def _preset_sources(p: fl.HardwarePreset) -> list[str]:
    if p.key == fl.HOST_PRESET:
        return [(tr("formula_lab.preset.recorded_source") if p.recorded else tr("common.measured_here"))
                + f" ({p.sources[0]})"]
    return list(p.sources)


# --- 1. Compatible ----------------------------------------------------------------------------------------


def _render_compatible(inp: _Inputs, embedded: bool) -> None:
    choices = fl.compat_choices()
    c1, c2, c3 = st.columns(3)
    with c1:
        driver = inp.choice("cp_driver", "formula_lab.cp.driver", choices["driver"], "6.4")
    with c2:
        rocm = inp.choice("cp_rocm", "formula_lab.cp.rocm", choices["rocm"], "6.4.x")
    with c3:
        tf = inp.choice("cp_tf", "formula_lab.cp.tensorflow", choices["tensorflow"], "2.18.1")
    inp.to_url()
    try:
        check = fl.compat_check(driver, rocm, tf)
    except InvalidInput as err:
        _show_error(err)
        return
    st.latex(fl.latex_compatible(check))
    _metric("formula_lab.cp.result", str(check.result.value))
    names = {"driver": "amdgpu driver", "rocm": "ROCm", "tensorflow": "TensorFlow"}
    for ind in check.result.indicators:
        why = "ok" if ind.ok else "fail"
        text = tr(f"formula_lab.cp.why.{ind.name}_{why}", installed=ind.installed, minimum=ind.minimum)
        (st.success if ind.ok else st.error)(f"**{names[ind.name]}**: {text}", icon=":material/check:" if ind.ok
                                            else ":material/close:")
    for name in check.unsourced:
        st.info(tr("formula_lab.cp.unsourced", name=names[name], rocm=rocm), icon=":material/help:")
    listed = "listed_yes" if check.listed_pair else ("listed_no" if check.result.value else "listed_no_zero")
    st.caption(tr(f"formula_lab.cp.{listed}", rocm=rocm, tf=tf))
    grid = fl.compat_grid(driver)
    pal = palette()
    ok, fail = pal.status["ok"], pal.status["fail"]
    fig = _figure(tr("formula_lab.cp.chart_title", driver=driver), tr("formula_lab.cp.axis_tf"),
                  tr("formula_lab.cp.axis_rocm"))
    fig.add_trace(go.Heatmap(
        x=grid.tensorflow, y=grid.rocm, z=grid.values, zmin=0, zmax=1,
        # two flat colours from a colour-blind-safe pair, and a mark in every cell: colour is never the only cue
        colorscale=[[0, fail], [0.5, fail], [0.5, ok], [1, ok]],
        text=[[COMPAT_MARKS.get(v, "") for v in row] for row in grid.values], texttemplate="%{text}",
        textfont={"color": style.text_on(ok), "size": 13},
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
    show_chart(fig, [s for s in {check.sources["rocm"], check.sources["driver"]} if s] or ["tf_rocm_compat.csv"],
               key=inp.key("cp_chart"))


# --- 2. Per-op time ----------------------------------------------------------------------------------------


def _use_host_dispatch(dispatch_key: str, sync_key: str, dispatch_us: float) -> None:
    # the live lab measures dispatch and sync of a tiny op together: put it all in T_dispatch
    st.session_state[dispatch_key] = float(dispatch_us)
    st.session_state[sync_key] = 0.0


def _render_per_op(inp: _Inputs, embedded: bool) -> None:
    rec = fl.recorded_ops()
    host = _host()
    lists = list(rec.op_lists)
    c1, c2, c3 = st.columns(3)
    with c1:
        list_key = inp.choice("po_list", "formula_lab.po.list", lists, lists[0],
                              format_func=lambda k: tr(f"formula_lab.po.list_{k}"))
    op_list = rec.op_lists[list_key]
    with c2:
        dispatch_us = inp.number("po_dispatch", "formula_lab.po.dispatch", rec.dispatch_us, 0.0, 1e5, step=0.5,
                                 fmt="%g")
    with c3:
        sync_us = inp.number("po_sync", "formula_lab.po.sync", rec.sync_us, 0.0, 1e5, step=0.5, fmt="%g")
    names = [op.name for op in op_list.ops]
    c4, c5 = st.columns(2)
    with c4:
        op_name = inp.choice("po_op", "formula_lab.po.op", names, names[0])
    with c5:
        fusion = inp.flag("po_fusion", "formula_lab.po.fusion", help_key="formula_lab.po.fusion_help")
    inp.to_url()
    src = [tr("common.recorded", device=rec.device, date=rec.measured_at[:10]) + f" ({rec.backend}); {rec.source}"]
    if host is not None and host.dispatch_us:
        st.caption(tr("formula_lab.po.host_dispatch", value=fl.fmt(host.dispatch_us)))
        st.button(tr("formula_lab.po.use_host"), key=inp.key("po_use_host"), on_click=_use_host_dispatch,
                  args=(inp.key("po_dispatch"), inp.key("po_sync"), host.dispatch_us))
    try:
        result = fl.op_list_times(op_list.ops, dispatch_us, sync_us, fusion=fusion)
        plain = fl.op_list_times(op_list.ops, dispatch_us, sync_us, fusion=False)
    except InvalidInput as err:
        _show_error(err)
        return
    bar = next(b for b in result.bars if op_name in b.members)
    st.latex(fl.latex_per_op(bar.time))
    if bar.fused:
        st.caption(tr("formula_lab.po.in_group", group=bar.name))
    m1, m2, m3 = st.columns(3)
    with m1:
        _metric("formula_lab.po.op_total", fl.fmt(bar.time.total_s * 1e6), op=op_name)
    with m2:
        _metric("formula_lab.po.list_total", fl.fmt(result.total_s * 1e6))
    with m3:
        _metric("formula_lab.po.saved", fl.fmt((plain.total_s - result.total_s) * 1e6))
    if fusion:
        st.caption(tr("formula_lab.po.launches", n=result.launches, n_plain=plain.launches,
                      share=fl.fmt(100 * (plain.total_s - result.total_s) / plain.total_s, 3)))
    else:
        st.caption(tr("formula_lab.po.launches_plain", n=plain.launches))
    labels = [b.name for b in result.bars]
    parts = palette().part
    bars = [
        go.Bar(y=labels, x=[getattr(b.time, f"{part}_s") * 1e6 for b in result.bars], orientation="h",
               name=tr(f"formula_lab.po.part_{part}"), marker_color=parts[part])
        for part in ("dispatch", "kernel", "sync")
    ]
    fig = _figure(tr("formula_lab.po.chart_title", shape=op_list.shape), tr("formula_lab.po.axis_time"), "",
                  data=bars, barmode="stack", yaxis={"autorange": "reversed"},
                  legend={"traceorder": "normal"})  # Plotly reverses stacked bars' legend: keep the bars' order
    show_chart(fig, src, key=inp.key("po_chart"))
    if fusion:
        for name, separate, fused in fl.measured_fusion_kernels(op_list, result):
            st.caption(tr("formula_lab.po.measured_fused", group=name, separate=fl.fmt(separate),
                          fused=fl.fmt(fused), device=rec.device))


# --- 3. Throughput -----------------------------------------------------------------------------------------


def _render_throughput(inp: _Inputs, embedded: bool) -> None:
    all_presets = fl.presets(_host())
    keys = list(all_presets)
    gflop_key, mb_key = inp.key("tp_gflop"), inp.key("tp_mb")
    workload_key = inp.key("tp_workload")

    def apply_workload() -> None:
        w = fl.WORKLOADS.get(st.session_state.get(workload_key))
        if w is not None:
            st.session_state[gflop_key] = w.gflop_per_sample
            st.session_state[mb_key] = w.mb_per_sample

    c1, c2 = st.columns(2)
    with c1:
        hw_key = inp.choice("tp_hw", "formula_lab.tp.hardware", keys, "mi250_gcd",
                            format_func=lambda k: _preset_label(all_presets[k]))
    with c2:
        wl_key = inp.choice("tp_workload", "formula_lab.tp.workload_label", list(fl.WORKLOADS), "resnet50",
                            format_func=lambda k: tr(f"formula_lab.tp.wl.{k}"), on_change=apply_workload)
    hw = all_presets[hw_key]
    w = fl.WORKLOADS[wl_key]
    c3, c4, c5 = st.columns(3)
    with c3:
        gflop = inp.number("tp_gflop", "formula_lab.tp.gflop", w.gflop_per_sample, 0.0, 1e6, fmt="%.4g")
        batch = inp.number("tp_batch", "formula_lab.tp.batch", 256, 1, 65536, integer=True)
    with c4:
        mb = inp.number("tp_mb", "formula_lab.tp.mb", w.mb_per_sample, 0.0, 1e5, fmt="%.4g")
        eff = inp.number("tp_eff", "formula_lab.tp.efficiency", 50.0, 0.0, 100.0, step=5.0,
                         help_key="formula_lab.tp.efficiency_help")
    with c5:
        overhead = inp.number("tp_overhead", "formula_lab.tp.overhead", 2.0, 0.0, 1e4, step=0.5,
                              help_key="formula_lab.tp.overhead_help")
        pipeline = inp.number("tp_pipeline", "formula_lab.tp.pipeline", 0.0, 0.0, 1e6, step=50.0,
                              help_key="formula_lab.tp.pipeline_help")
    t1, t2 = st.columns(2)
    with t1:
        prefetch = inp.flag("tp_prefetch", "formula_lab.tp.prefetch", help_key="formula_lab.tp.prefetch_help")
    with t2:
        mixed = inp.flag("tp_mixed", "formula_lab.tp.mixed", help_key="formula_lab.tp.mixed_help")
    inp.to_url()
    st.caption(tr("formula_lab.tp.preset_line", label=hw.label, fp32=fl.fmt(hw.fp32_tflops),
                  fp16=fl.fmt(hw.fp16_tflops), link=hw.link_name, gbs=fl.fmt(hw.link_gbs)))
    if hw.note_key:
        st.caption(tr(hw.note_key))
    st.caption(tr(w.source_key))
    wl = fl.Workload(gflop, mb, eff / 100.0, overhead, pipeline)
    try:
        tc, tt = fl.step_times(batch, hw, wl, mixed)
        value = fl.step_throughput(batch, tc, tt, prefetch)
        curve = fl.throughput_curve(hw, wl, mixed=mixed, prefetch=prefetch)
        other = fl.throughput_curve(hw, wl, mixed=mixed, prefetch=not prefetch)
        ceiling = fl.throughput_ceiling(hw, wl, mixed=mixed, prefetch=prefetch)
    except InvalidInput as err:
        _show_error(err)
        return
    st.latex(fl.latex_throughput(batch, tc, tt, prefetch, value))
    m1, m2, m3 = st.columns(3)
    with m1:
        _metric("formula_lab.tp.result", fl.fmt(value))
    with m2:
        _metric("formula_lab.tp.t_compute", fl.fmt(tc * 1e3))
    with m3:
        _metric("formula_lab.tp.t_transfer", fl.fmt(tt * 1e3))
    st.caption(tr(f"formula_lab.tp.bound_{fl.bound_by(tc, tt)}"))
    mine = tr("formula_lab.tp.with_prefetch" if prefetch else "formula_lab.tp.without_prefetch")
    theirs = tr("formula_lab.tp.without_prefetch" if prefetch else "formula_lab.tp.with_prefetch")
    pal = palette()
    traces = [
        go.Scatter(x=[p.batch for p in curve], y=[p.throughput for p in curve], mode="lines+markers",
                   name=mine, line={"color": pal.vendor_color(hw.vendor)}),
        go.Scatter(x=[p.batch for p in other], y=[p.throughput for p in other], mode="lines",
                   name=theirs, line={"dash": "dot", "color": pal.vendor["CPU"]}),
        go.Scatter(x=[batch], y=[value], mode="markers", name=tr("formula_lab.tp.your_batch"),
                   marker={"size": 12, "symbol": "diamond", "color": pal.ink}),
    ]
    fig = _figure(tr("formula_lab.tp.chart_title", label=hw.label), tr("formula_lab.tp.axis_batch"),
                  tr("formula_lab.tp.axis_throughput"), data=traces, xaxis={"type": "log"})
    reference_line(fig, y=ceiling, text=tr("formula_lab.tp.ceiling", value=fl.fmt(ceiling)), color=pal.line)
    sources = _preset_sources(hw) + [tr("formula_lab.tp.model_source")]
    show_chart(fig, sources, key=inp.key("tp_chart"))


# --- 4. Coverage -------------------------------------------------------------------------------------------


def _model_label(key: str) -> str:
    for catalog_key in (f"coverage.example.{key}", f"formula_lab.cv.model_{key}"):
        if i18n.has(catalog_key):
            return tr(catalog_key)
    return key


def _status_label(status: str) -> str:
    key = f"formula_lab.cv.status_{status}"
    return tr(key) if i18n.has(key) else status


def _render_coverage(inp: _Inputs, embedded: bool) -> None:
    models, list_source = fl.example_models()
    all_presets = fl.presets(_host())
    rec = fl.recorded_ops()
    default_model = "cnn_mixed_bf16" if "cnn_mixed_bf16" in models else models[0]
    c1, c2, c3 = st.columns(3)
    with c1:
        model = inp.choice("cv_model", "formula_lab.cv.model", models, default_model, format_func=_model_label)
    with c2:
        target = inp.choice("cv_target", "formula_lab.cv.target", fl.COVERAGE_TARGETS, fl.COVERAGE_TARGETS[0],
                            format_func=lambda k: tr(f"formula_lab.cv.target_{k.split('-')[0]}"))
    with c3:
        hw_key = inp.choice("cv_hw", "formula_lab.cv.link", list(all_presets), "mi250_gcd",
                            format_func=lambda k: f"{_preset_label(all_presets[k])} ({all_presets[k].link_name})")
    c4, c5 = st.columns(2)
    with c4:
        tensor_mb = inp.number("cv_mb", "formula_lab.cv.tensor_mb", 16.0, 0.0, 1e5,
                               help_key="formula_lab.cv.tensor_mb_help")
    with c5:
        sync_us = inp.number("cv_sync", "formula_lab.cv.sync", rec.sync_us, 0.0, 1e6, step=0.5, fmt="%g")
    inp.to_url()
    hw = all_presets[hw_key]
    try:
        result = fl.model_coverage(model, target)
        ratio = result.ratio
        cost = fl.fallback_cost(tensor_mb, hw.link_gbs, sync_us, result.uncovered_calls)
    except InvalidInput as err:
        _show_error(err)
        return
    st.latex(fl.latex_coverage(result))
    m1, m2 = st.columns(2)
    with m1:
        _metric("formula_lab.cv.result", fl.fmt(ratio))
    with m2:
        _metric("formula_lab.cv.cost_step", fl.fmt(cost.per_step_s * 1e3))
    if result.uncovered:
        ops = ", ".join(f"`{o}` ({_status_label(result.statuses.get(o, 'no_gpu_kernel'))}, {result.calls.get(o, 1)}×)"
                        for o in result.uncovered)
        st.warning(tr("formula_lab.cv.uncovered", ops=ops), icon=":material/warning:")
        st.markdown(tr("formula_lab.cv.cost_explain", copy=fl.fmt(cost.copy_s * 1e6), sync=fl.fmt(cost.sync_s * 1e6),
                       per_call=fl.fmt(cost.per_call_s * 1e6), mb=fl.fmt(tensor_mb), gbs=fl.fmt(hw.link_gbs),
                       link=hw.link_name, calls=cost.calls, step=fl.fmt(cost.per_step_s * 1e3)))
    else:
        st.success(tr("formula_lab.cv.all_covered"), icon=":material/check:")
    fig = _figure(tr("formula_lab.cv.chart_title", model=_model_label(model)), tr("formula_lab.cv.axis_ops"), "")
    row = [tr("formula_lab.cv.op_types")]
    status = palette().status
    fig.add_trace(go.Bar(y=row, x=[result.n_supported], orientation="h", name=tr("formula_lab.cv.covered"),
                         marker_color=status["ok"]))
    fig.add_trace(go.Bar(y=row, x=[len(result.uncovered)], orientation="h", name=tr("formula_lab.cv.not_covered"),
                         marker_color=status["fail"]))
    fig.update_layout(barmode="stack", height=260)
    show_chart(fig, [list_source, f"data/tf_kernel_registry ({target})"] + _preset_sources(hw),
               key=inp.key("cv_chart"))


# --- 5. Speedup --------------------------------------------------------------------------------------------


def _render_speedup(inp: _Inputs, embedded: bool) -> None:
    c1, c2, c3 = st.columns(3)
    with c1:
        before = inp.number("sp_before", "formula_lab.sp.before", 12.0, 0.0, 1e7, fmt="%.4g")
    with c2:
        after = inp.number("sp_after", "formula_lab.sp.after", 8.0, 0.0, 1e7, fmt="%.4g")
    with c3:
        part = inp.number("sp_part", "formula_lab.sp.part", 60.0, 0.0, 100.0, step=5.0,
                          help_key="formula_lab.sp.part_help")
    inp.to_url()
    try:
        value = formulas.speedup(before, after)
    except InvalidInput as err:
        _show_error(err)
        return
    st.latex(fl.latex_speedup(before, after, value))
    _metric("formula_lab.sp.result", fl.fmt(value))
    view = None
    try:
        view = fl.amdahl_view(before, after, part / 100.0)
    except InvalidInput as err:
        _show_error(err)
    bars, amdahl = _speedup_figures(before, after, part, view, lang(), chart_theme())
    source = tr("formula_lab.sp.source")
    show_chart(bars, source, key=inp.key("sp_bars"))
    if view is None:
        return
    st.latex(fl.latex_amdahl(view))
    st.caption(tr("formula_lab.sp.amdahl_text", p=fl.fmt(part), local=fl.fmt(view.local_speedup),
                  ceiling=fl.fmt(view.ceiling)))
    show_chart(amdahl, source, key=inp.key("sp_amdahl"))


@functools.lru_cache(maxsize=256)
def _speedup_figures(before: float, after: float, part: float, view: Any, lang_code: str,
                     theme: str) -> tuple[go.Figure, Any]:
    """Before/after bars and the Amdahl curve, built once per input (building Plotly objects dominates a rerun;
    st.plotly_chart only reads them). lang_code and theme key the cache: the labels are translated and the
    colours follow the theme."""
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
    fig2.layout.xaxis.type = "log"
    return fig, fig2


_RENDERERS: dict[str, Callable[[_Inputs, bool], None]] = {
    "compatible": _render_compatible,
    "per_op_time": _render_per_op,
    "throughput": _render_throughput,
    "coverage": _render_coverage,
    "speedup": _render_speedup,
}


def render(formula_id: str, key_prefix: str = "fl", embedded: bool = False) -> None:
    """One formula's widget: inputs (in the URL), the formula with the user's numbers, and a chart."""
    if formula_id not in _RENDERERS:
        show_error(InvalidInput("formula_lab.errors.unknown_choice", name="formula", value=str(formula_id)[:40]))
        return
    if not embedded:
        formula_card(formula_id)
    inp = _Inputs(key_prefix)
    with st.container(border=embedded):
        _RENDERERS[formula_id](inp, embedded)
