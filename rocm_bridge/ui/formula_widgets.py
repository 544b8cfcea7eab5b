"""The five formula widgets: inputs, the formula with the user's numbers (st.latex), and a chart.

render(formula_id, key_prefix, embedded) is used by the Formula lab (key_prefix "fl") and by the chapters
(key_prefix "ch2" ...). Every input lives in the URL query under f"{key_prefix}_<name>"; a bad value in a
link (negative, NaN, out of range, unknown choice) falls back to the default with a translated message.
The computation is rocm_bridge.formulas.lab / rocm_bridge.formulas, the charts and default inputs
rocm_bridge.formulas.figures (the handout prints the same charts); this module only reads inputs and shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from rocm_bridge import formulas, i18n
from rocm_bridge.course.widgets import FORMULA_WIDGETS
from rocm_bridge.errors import InvalidInput
from rocm_bridge.formulas import figures as ff
from rocm_bridge.formulas import lab as fl
from rocm_bridge.hardware import measured
from rocm_bridge.text import md_escape
from rocm_bridge.ui import formula_card, lang, show_error, tr
from rocm_bridge.ui.charts import show_chart
from rocm_bridge.ui.state import push_url
from rocm_bridge.ui.theme import chart_theme

FORMULA_IDS: tuple[str, ...] = FORMULA_WIDGETS


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


def _metric(label_key: str, value: str, **params: Any) -> None:
    st.metric(tr(label_key, **params), value)


def _host() -> measured.HostMeasurement | None:
    return measured.from_session(st.session_state)


def _preset_label(p: fl.HardwarePreset) -> str:
    if p.key == fl.HOST_PRESET:
        tag = tr("formula_lab.preset.recorded_tag") if p.recorded else tr("formula_lab.preset.host_tag")
        return f"{tag}: {p.label}"
    return p.label


# --- 1. Compatible ----------------------------------------------------------------------------------------


def _render_compatible(inp: _Inputs, embedded: bool) -> None:
    choices = fl.compat_choices()
    d = ff.DEFAULTS["compatible"]
    c1, c2, c3 = st.columns(3)
    with c1:
        driver = inp.choice("cp_driver", "formula_lab.cp.driver", choices["driver"], d["driver"])
    with c2:
        rocm = inp.choice("cp_rocm", "formula_lab.cp.rocm", choices["rocm"], d["rocm"])
    with c3:
        tf = inp.choice("cp_tf", "formula_lab.cp.tensorflow", choices["tensorflow"], d["tf"])
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
    fig = ff.compatible_figure(fl.compat_grid(driver), driver, rocm, tf, lang(), chart_theme())
    show_chart(fig, ff.compatible_sources(check), key=inp.key("cp_chart"))


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
    src = ff.per_op_sources(rec, lang())
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
    fig = ff.per_op_figure(result, op_list.shape, lang(), chart_theme())
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
    d = ff.DEFAULTS["throughput"]

    def apply_workload() -> None:
        w = fl.WORKLOADS.get(st.session_state.get(workload_key))
        if w is not None:
            st.session_state[gflop_key] = w.gflop_per_sample
            st.session_state[mb_key] = w.mb_per_sample

    c1, c2 = st.columns(2)
    with c1:
        hw_key = inp.choice("tp_hw", "formula_lab.tp.hardware", keys, d["hw"],
                            format_func=lambda k: _preset_label(all_presets[k]))
    with c2:
        wl_key = inp.choice("tp_workload", "formula_lab.tp.workload_label", list(fl.WORKLOADS), d["workload"],
                            format_func=lambda k: tr(f"formula_lab.tp.wl.{k}"), on_change=apply_workload)
    hw = all_presets[hw_key]
    w = fl.WORKLOADS[wl_key]
    c3, c4, c5 = st.columns(3)
    with c3:
        gflop = inp.number("tp_gflop", "formula_lab.tp.gflop", w.gflop_per_sample, 0.0, 1e6, fmt="%.4g")
        batch = inp.number("tp_batch", "formula_lab.tp.batch", d["batch"], 1, 65536, integer=True)
    with c4:
        mb = inp.number("tp_mb", "formula_lab.tp.mb", w.mb_per_sample, 0.0, 1e5, fmt="%.4g")
        eff = inp.number("tp_eff", "formula_lab.tp.efficiency", d["efficiency"], 0.0, 100.0, step=5.0,
                         help_key="formula_lab.tp.efficiency_help")
    with c5:
        overhead = inp.number("tp_overhead", "formula_lab.tp.overhead", d["overhead_ms"], 0.0, 1e4, step=0.5,
                              help_key="formula_lab.tp.overhead_help")
        pipeline = inp.number("tp_pipeline", "formula_lab.tp.pipeline", d["pipeline_us"], 0.0, 1e6, step=50.0,
                              help_key="formula_lab.tp.pipeline_help")
    t1, t2 = st.columns(2)
    with t1:
        prefetch = inp.flag("tp_prefetch", "formula_lab.tp.prefetch", d["prefetch"],
                            help_key="formula_lab.tp.prefetch_help")
    with t2:
        mixed = inp.flag("tp_mixed", "formula_lab.tp.mixed", d["mixed"], help_key="formula_lab.tp.mixed_help")
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
        fig = ff.throughput_figure(hw, wl, batch, value, mixed=mixed, prefetch=prefetch, lang=lang(),
                                   theme=chart_theme())
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
    sources = ff.throughput_sources(hw, lang())
    show_chart(fig, sources, key=inp.key("tp_chart"))


# --- 4. Coverage -------------------------------------------------------------------------------------------


def _model_label(key: str) -> str:
    return ff.model_label(key, lang())


def _status_label(status: str) -> str:
    key = f"formula_lab.cv.status_{status}"
    return tr(key) if i18n.has(key) else status


def _render_coverage(inp: _Inputs, embedded: bool) -> None:
    models, list_source = fl.example_models()
    all_presets = fl.presets(_host())
    rec = fl.recorded_ops()
    d = ff.DEFAULTS["coverage"]
    default_model = d["model"] if d["model"] in models else models[0]
    c1, c2, c3 = st.columns(3)
    with c1:
        model = inp.choice("cv_model", "formula_lab.cv.model", models, default_model, format_func=_model_label)
    with c2:
        target = inp.choice("cv_target", "formula_lab.cv.target", fl.COVERAGE_TARGETS, fl.COVERAGE_TARGETS[0],
                            format_func=lambda k: tr(f"formula_lab.cv.target_{k.split('-')[0]}"))
    with c3:
        hw_key = inp.choice("cv_hw", "formula_lab.cv.link", list(all_presets), d["hw"],
                            format_func=lambda k: f"{_preset_label(all_presets[k])} ({all_presets[k].link_name})")
    c4, c5 = st.columns(2)
    with c4:
        tensor_mb = inp.number("cv_mb", "formula_lab.cv.tensor_mb", d["tensor_mb"], 0.0, 1e5,
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
    show_chart(ff.coverage_figure(result, model, lang(), chart_theme()),
               ff.coverage_sources(list_source, target, hw, lang()),
               key=inp.key("cv_chart"))


# --- 5. Speedup --------------------------------------------------------------------------------------------


def _render_speedup(inp: _Inputs, embedded: bool) -> None:
    d = ff.DEFAULTS["speedup"]
    c1, c2, c3 = st.columns(3)
    with c1:
        before = inp.number("sp_before", "formula_lab.sp.before", d["before"], 0.0, 1e7, fmt="%.4g")
    with c2:
        after = inp.number("sp_after", "formula_lab.sp.after", d["after"], 0.0, 1e7, fmt="%.4g")
    with c3:
        part = inp.number("sp_part", "formula_lab.sp.part", d["part"], 0.0, 100.0, step=5.0,
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
    bars, amdahl = ff.speedup_figures(before, after, part, view, lang(), chart_theme())
    source = tr("formula_lab.sp.source")
    show_chart(bars, source, key=inp.key("sp_bars"))
    if view is None:
        return
    st.latex(fl.latex_amdahl(view))
    st.caption(tr("formula_lab.sp.amdahl_text", p=fl.fmt(part), local=fl.fmt(view.local_speedup),
                  ceiling=fl.fmt(view.ceiling)))
    show_chart(amdahl, source, key=inp.key("sp_amdahl"))


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
