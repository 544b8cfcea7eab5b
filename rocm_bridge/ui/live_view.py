"""Widgets of the live GPU lab: environment check, benchmark runner, results (tables + charts), GPU monitor."""

from __future__ import annotations

import json

import plotly.graph_objects as go
import streamlit as st

from rocm_bridge.errors import RocmBridgeError
from rocm_bridge.hardware import measured
from rocm_bridge.live import BACKEND_LABELS, get_backend
from rocm_bridge.live.install import install_hints, this_platform
from rocm_bridge.live.results import recorded_results, software_summary, to_host_measurement
from rocm_bridge.live.suite import BENCHMARKS, SuiteOptions, run_suite
from rocm_bridge.text import md_escape
from rocm_bridge.ui import lang, show_error, source_note, tr
from rocm_bridge.ui.charts import house_layout, reference_line, show_chart
from rocm_bridge.ui.live_published import show_published
from rocm_bridge.ui.theme import palette

RESULT_KEY = "lv_result"
CHECK_KEY = "lv_check"
MONITOR_ON = "lv_monitor_on"
MONITOR_HISTORY = "lv_monitor_history"
MONITOR_EVERY_S = 1.0
METRICS = ("util_pct", "mem_used_bytes", "temp_c", "power_w")


@st.cache_resource(show_spinner=False)
def _backend(name: str):
    """One backend object per framework per server: importing TensorFlow twice buys nothing."""
    return get_backend(name)


def _date(doc: dict) -> str:
    return doc["date"][:10]


def source_line(doc: dict) -> str:
    """Where the numbers come from: this machine, or a recorded run (device, software, date)."""
    env = doc["env"]
    label = BACKEND_LABELS.get(doc["backend"], doc["backend"])
    if doc.get("source") == "recorded":
        soft = software_summary(doc)
        cuda = soft.get("cuda") or soft.get("cuda_driver")
        parts = [
            f"CUDA {cuda}" if cuda else "",
            f"ROCm {soft['rocm']}" if soft.get("rocm") else "",
            f"HIP {soft['hip']}" if soft.get("hip") else "",
            f"driver {soft['driver']}" if soft.get("driver") else "",
        ]
        extras = ", ".join(p for p in parts if p)
        return tr(
            "live.res.source_recorded",
            device=doc["device"]["name"],
            date=_date(doc),
            backend=label,
            version=env["version"],
            software=extras,
        )
    return tr(
        "live.res.source_measured", device=doc["device"]["name"], backend=label, version=env["version"], date=_date(doc)
    )


# --- how to install a framework ------------------------------------------------------------------------
def install_help(frameworks: list[str]) -> None:
    """The pip command for each missing framework on AMD, NVIDIA and CPU machines, this machine's kind first."""
    here = this_platform()
    with st.expander(tr("live.install.title"), expanded=False, icon=":material/download:"):  # results first
        st.caption(tr("live.install.here", platform=tr(f"live.install.platform_{here}")))
        for name in frameworks:
            st.markdown(f"**{BACKEND_LABELS[name]}**")
            hints = sorted(install_hints(name), key=lambda h: h.platform != here)
            for hint in hints:
                note = hint.note_zh if lang() == "zh" and hint.note_zh else hint.note
                st.caption(tr(f"live.install.platform_{hint.platform}") + f" — {md_escape(note)}")
                st.code(hint.command, language="bash")
            source_note(*{h.source: None for h in hints}, tr("live.install.as_of", date=hints[0].as_of))


# --- environment check --------------------------------------------------------------------------------
def env_check(name: str) -> None:
    st.subheader(tr("live.check.title"))
    if st.button(tr("live.check.run"), key="lv_check_run"):
        with st.spinner(tr("live.check.running", backend=BACKEND_LABELS[name])):
            try:
                st.session_state.setdefault(CHECK_KEY, {})[name] = _backend(name).env_check()
            except RocmBridgeError as err:
                show_error(err)
            except Exception as exc:  # a broken install must give a message, not a traceback
                show_error(RocmBridgeError("errors.generic", detail=f"{type(exc).__name__}: {exc}"[:300]))
    check = st.session_state.get(CHECK_KEY, {}).get(name)
    if check:
        show_check(check)


def show_check(check: dict) -> None:
    label = BACKEND_LABELS.get(check.get("backend"), check.get("backend", "?"))
    if "error" in check:
        st.error(check["error"])
        return
    st.markdown(tr("live.check.build", backend=label, version=check["version"], build=check["build"]))
    st.markdown(tr("live.check.gpus", gpus=", ".join(check["gpus"]) or "-"))
    where = {"requested": check["requested_device"], "ran_on": check["ran_on"], "backend": label}
    if check["on_gpu"]:
        st.success(tr("live.check.on_gpu", **where), icon=":material/check_circle:")
    else:
        st.warning(tr("live.check.no_gpu", **where), icon=":material/memory:")
        st.caption(tr("live.check.try_recorded"))
    growth = check.get("memory_growth")
    state = tr("live.unknown") if growth is None else tr("live.yes" if growth else "live.no")
    st.markdown(tr("live.check.memory_growth", state=state, note=check.get("memory_growth_note", "")))
    ok_key = "live.check.result_ok" if check.get("ok") else "live.check.result_bad"
    st.markdown(tr(ok_key, err=check.get("max_rel", float("nan"))))
    if check.get("backend") == "tensorflow":
        st.caption(tr("live.check.soft_placement"))


# --- runner -------------------------------------------------------------------------------------------
def runner(name: str) -> None:
    st.subheader(tr("live.run.title"))
    st.caption(tr("live.run.busy_note"))
    picked = st.multiselect(
        tr("live.run.pick"),
        BENCHMARKS,
        default=list(BENCHMARKS),
        key="lv_pick",
        format_func=lambda b: tr(f"live.bench.{b}"),
    )
    c1, c2 = st.columns(2)
    # 120 s, as the command line: the whole suite on a CPU with TensorFlow's first calls (about 20 s measured, small)
    budget = c1.slider(tr("live.run.budget"), 10, 300, 120, step=10, key="lv_budget")
    small = c2.checkbox(tr("live.run.small"), value=True, key="lv_small")
    if not st.button(tr("live.run.start"), type="primary", key="lv_start", disabled=not picked):
        return
    with st.status(tr("live.run.status", backend=BACKEND_LABELS[name]), expanded=True) as status:
        bar = st.progress(0.0)

        def progress(fraction: float, step: str) -> None:
            if step in BENCHMARKS:
                bar.progress(min(1.0, fraction), text=tr("live.run.step", name=tr(f"live.bench.{step}")))

        try:
            opts = SuiteOptions(
                benchmarks=tuple(b for b in BENCHMARKS if b in picked), budget_s=float(budget), small=small
            )
            doc = run_suite(_backend(name), opts, progress)
        except RocmBridgeError as err:
            status.update(state="error")
            show_error(err)
            return
        except Exception as exc:  # the suite reports per-benchmark failures; this is the framework itself
            status.update(state="error")
            show_error(RocmBridgeError("errors.generic", detail=f"{type(exc).__name__}: {exc}"[:300]))
            return
        bar.progress(1.0)
        status.update(label=tr("live.run.done", seconds=doc["elapsed_s"]), state="complete", expanded=False)
    st.session_state[RESULT_KEY] = doc
    st.session_state[measured.SESSION_KEY] = to_host_measurement(doc)
    st.success(tr("live.run.saved"), icon=":material/save:")


# --- results ------------------------------------------------------------------------------------------
def pick_recorded() -> dict | None:
    docs = recorded_results()
    if not docs:
        return None
    labels = [
        f"{d['device']['name']} · {BACKEND_LABELS.get(d['backend'], d['backend'])} {d['env']['version']} · {_date(d)}"
        for d in docs
    ]
    i = st.selectbox(tr("live.res.recorded_pick"), range(len(docs)), format_func=labels.__getitem__, key="lv_rec")
    doc = docs[i]
    st.info(tr("live.res.recorded_banner", device=doc["device"]["name"], date=_date(doc)), icon=":material/history:")
    return doc


def show_results(doc: dict) -> None:
    src = source_line(doc)
    st.caption(src)
    spec = doc.get("spec")
    if spec:
        note = f" — {spec['per_device_note']}" if spec.get("per_device_note") else ""
        st.caption(tr("live.res.spec_match", model=spec["model"], note=note))
    else:
        st.caption(tr("live.res.spec_none", device=doc["device"]["name"]))
    if doc.get("env_check"):
        with st.expander(tr("live.check.title")):
            show_check(doc["env_check"])
    bench = doc["benchmarks"]
    for name in BENCHMARKS:
        if name not in bench:
            continue
        res = bench[name]
        st.markdown(f"#### {tr(f'live.bench.{name}')}")
        st.caption(tr(f"live.expl.{name}"))
        if res["status"] not in ("ok", "partial"):
            detail = res.get("message") or res.get("reason") or ""
            status_text = tr(f"live.res.status.{res['status']}")
            st.warning(f"{status_text}: {detail}")
            continue
        if res["status"] == "partial":
            st.caption(tr("live.res.status.partial"))
        _SHOW[name](res, doc, src)
    _show_speedups(bench, doc, src)
    st.download_button(
        tr("live.run.download"),
        json.dumps(doc, indent=1, default=str),
        file_name="rocm_bridge_bench.json",
        mime="application/json",
        key=f"lv_dl_{doc.get('file', 'live')}",
    )


def _fmt(value, spec=".1f"):
    return "-" if value is None else format(value, spec)


def _show_matmul(res: dict, doc: dict, src: str) -> None:
    rows = res["rows"]
    has_ref = any(r.get("reference_tflops") for r in rows)
    has_burst = any(r.get("burst_tflops") for r in rows)
    table = []
    for r in rows:
        row = {
            tr("live.res.col.dtype"): r["dtype"],
            tr("live.res.col.n"): r["n"],
            tr("live.res.col.tflops"): _fmt(r["tflops"]),
        }
        if has_burst:
            row[tr("live.res.col.burst")] = _fmt(r.get("burst_tflops"))
        if has_ref:
            row[tr("live.res.col.reference")] = _fmt(r.get("reference_tflops"))
            row[tr("live.res.col.ratio")] = _fmt(r.get("ratio"), ".3f")
        row[tr("live.res.col.pct_peak")] = _fmt(r.get("pct_peak"))
        table.append(row)
    st.dataframe(table, hide_index=True)
    st.caption(tr("live.res.burst_note") if has_burst else tr("live.res.sustained_note"))
    fig = go.Figure()
    for dtype in dict.fromkeys(r["dtype"] for r in rows):
        pts = [r for r in rows if r["dtype"] == dtype]
        color = palette().dtype.get(dtype)
        fig.add_scatter(
            x=[r["n"] for r in pts],
            y=[r["tflops"] for r in pts],
            mode="lines+markers",
            name=dtype,
            line={"color": color},
        )
        peak = (doc.get("spec") or {}).get("peaks_tflops", {}).get(dtype)
        if peak:
            fig.add_scatter(
                x=[pts[0]["n"], pts[-1]["n"]],
                y=[peak, peak],
                mode="lines",
                line={"dash": "dot", "color": color},
                name=tr("live.label.peak", dtype=dtype),
            )
    sizes = sorted({r["n"] for r in rows})
    fig.update_xaxes(type="log", tickvals=sizes, ticktext=[str(n) for n in sizes])
    house_layout(fig, title=tr("live.chart.matmul"), x_title=tr("live.axis.n"), y_title=tr("live.axis.tflops"))
    sources = [src] + ([tr("live.source.spec")] if doc.get("spec") else [])
    show_chart(fig, sources, key=f"lv_mm_{doc.get('file', 'live')}")
    show_published(doc, src)


def _show_h2d(res: dict, doc: dict, src: str) -> None:
    rows = [r for r in res["rows"] if r.get("gbs")]
    st.dataframe(
        [
            {
                tr("live.res.col.mode"): r["mode"],
                tr("live.res.col.mib"): round(r["bytes"] / 2**20),
                tr("live.res.col.gbs"): _fmt(r.get("gbs"), ".2f"),
            }
            for r in res["rows"]
        ],
        hide_index=True,
    )
    fig = go.Figure(
        go.Bar(x=[r["mode"] for r in rows], y=[r["gbs"] for r in rows], marker_color=palette().part["transfer"])
    )
    house_layout(fig, title=tr("live.chart.h2d"), y_title=tr("live.axis.gbs"))
    show_chart(fig, src, key=f"lv_h2d_{doc.get('file', 'live')}")


def dispatch_parts(res: dict) -> tuple[float, float, float]:
    """(total, dispatch, rest) in µs, the chart's bars summing to the metric: one tiny op with its wait. On a CPU
    the back-to-back dispatch time can exceed one synced op (the suite then clamps the wait to 0): the dispatch bar
    is cut to the total instead of drawing past the number shown above it."""
    total = float(res["tiny_synced_us"])
    dispatch = min(float(res["dispatch_us"]), total)
    return total, dispatch, total - dispatch


def _show_dispatch(res: dict, doc: dict, src: str) -> None:
    total, dispatch, rest = dispatch_parts(res)
    c1, c2 = st.columns(2)
    c1.metric(tr("live.metric.dispatch"), f"{total:.1f} µs")
    c2.metric(tr("live.metric.kernel"), f"{res['kernel_gbs']:.0f} GB/s")
    fig = go.Figure()
    for part, value in (("dispatch", dispatch), ("sync", rest)):
        fig.add_bar(
            x=[value], y=["T"], orientation="h", name=tr(f"live.part.{part}"), marker_color=palette().part[part],
            text=[f"{value:.1f} µs"], textposition="inside",
        )
    fig.update_layout(barmode="stack")
    house_layout(fig, title=tr("live.chart.dispatch_total", total=f"{total:.1f}"), x_title=tr("live.axis.us"))
    fig.update_layout(height=260)
    show_chart(fig, src, key=f"lv_disp_{doc.get('file', 'live')}")
    if float(res["dispatch_us"]) > total:
        st.caption(tr("live.res.dispatch_over", dispatch=f"{float(res['dispatch_us']):.1f}", total=f"{total:.1f}"))


def _show_fusion(res: dict, doc: dict, src: str) -> None:
    c1, c2 = st.columns(2)
    c1.metric(tr("live.metric.fusion"), f"{res['speedup']:.2f}×", help=res["how"])
    c2.metric(tr("live.metric.first_call"), f"{res['first_call_s']:.2f} s")
    st.caption(f"{res['how']}: {res['unfused_s'] * 1e3:.3f} ms → {res['fused_s'] * 1e3:.3f} ms")


def _show_mixed_precision(res: dict, doc: dict, src: str) -> None:
    st.metric(tr("live.metric.mixed"), f"{res['speedup']:.2f}×")
    st.caption(
        f"{res['fp32_label']}: {res['fp32_s'] * 1e3:.3f} ms → {res['mixed_label']}: {res['mixed_s'] * 1e3:.3f} ms"
    )


def _show_pipeline(res: dict, doc: dict, src: str) -> None:
    st.metric(tr("live.metric.pipeline"), f"{res['serial_s'] / res['prefetch_s']:.2f}×")
    keys = (
        "serial_items_per_s",
        "prefetch_items_per_s",
        "predicted_serial_items_per_s",
        "predicted_overlap_items_per_s",
    )
    labels = (
        "live.label.serial_measured",
        "live.label.prefetch_measured",
        "live.label.serial_formula",
        "live.label.overlap_formula",
    )
    fig = go.Figure(
        go.Bar(
            x=[tr(k) for k in labels],
            y=[res[k] for k in keys],
            marker_color=[palette().vendor["HOST"]] * 2 + [palette().status["skipped"]] * 2,
        )
    )
    house_layout(fig, title=tr("live.chart.pipeline"), y_title=tr("live.axis.items"))
    show_chart(fig, src, key=f"lv_pipe_{doc.get('file', 'live')}")


def _show_consistency(res: dict, doc: dict, src: str) -> None:
    if res.get("same_device"):
        st.caption(tr("live.consistency.same_device"))
    st.dataframe(
        [
            {
                tr("live.res.col.op"): r["op"],
                tr("live.res.col.max_abs"): f"{r['max_abs']:.2e}",
                tr("live.res.col.max_rel"): f"{r['max_rel']:.2e}",
                tr("live.res.col.tol"): f"{r['tol']:.0e}",
                tr("live.res.col.ok"): tr("live.res.pass" if r["ok"] else "live.res.fail"),
                tr("live.res.col.note"): r.get("note", ""),
            }
            for r in res["rows"]
        ],
        hide_index=True,
    )


def _show_speedups(bench: dict, doc: dict, src: str) -> None:
    """The three S = T_before / T_after measurements side by side (the speedup formula's widget)."""
    parts = [("fusion", "speedup"), ("mixed_precision", "speedup"), ("pipeline", "speedup")]
    labels = {"fusion": "live.label.fusion", "mixed_precision": "live.label.mixed", "pipeline": "live.label.prefetch"}
    shown = [(tr(labels[b]), bench[b][k]) for b, k in parts if bench.get(b, {}).get("status") == "ok"]
    if len(shown) < 2:
        return
    fig = go.Figure(go.Bar(x=[x for x, _ in shown], y=[y for _, y in shown], marker_color=palette().vendor["HOST"]))
    reference_line(fig, y=1.0, dash="dot")
    house_layout(fig, title=tr("live.chart.speedups"), y_title=tr("live.axis.speedup"))
    show_chart(fig, src, key=f"lv_speed_{doc.get('file', 'live')}")


_SHOW = {
    "matmul": _show_matmul,
    "h2d": _show_h2d,
    "dispatch": _show_dispatch,
    "fusion": _show_fusion,
    "mixed_precision": _show_mixed_precision,
    "pipeline": _show_pipeline,
    "consistency": _show_consistency,
}


# --- GPU monitor --------------------------------------------------------------------------------------
def monitor() -> None:
    from rocm_bridge.live.monitor import History, sample

    st.subheader(tr("live.monitor.title"))
    first = sample()
    if not first:
        st.info(tr("live.monitor.no_gpu"), icon=":material/info:")
        return
    history = st.session_state.setdefault(MONITOR_HISTORY, History(maxlen=240))
    c1, c2, c3 = st.columns([1, 1, 3])
    if c1.button(tr("live.monitor.start"), key="lv_mon_start"):
        st.session_state[MONITOR_ON] = True
    if c2.button(tr("live.monitor.stop"), key="lv_mon_stop"):
        st.session_state[MONITOR_ON] = False
    metric = c3.selectbox(
        tr("live.monitor.metric"), METRICS, format_func=lambda m: tr(f"live.monitor.{m}"), key="lv_mon_metric"
    )
    library = "nvidia-ml-py" if first[0].vendor == "NVIDIA" else "amdsmi"
    if st.session_state.get(MONITOR_ON):
        _monitor_live(history, metric, library)
    else:
        history.add(first)
        _monitor_chart(history, metric, library)


def _monitor_chart(history, metric: str, library: str) -> None:
    fig = go.Figure()
    for name, (xs, ys) in history.series(metric).items():
        fig.add_scatter(x=xs, y=ys, mode="lines", name=name)
    house_layout(
        fig,
        title=tr("live.monitor.chart", metric=tr(f"live.monitor.{metric}"), every=MONITOR_EVERY_S),
        x_title=tr("live.axis.seconds"),
        y_title=tr(f"live.monitor.{metric}"),
    )
    show_chart(fig, tr("live.monitor.source", library=library), key="lv_monitor_chart")


@st.fragment(run_every=MONITOR_EVERY_S)
def _monitor_live(history, metric: str, library: str) -> None:
    from rocm_bridge.live.monitor import sample

    history.add(sample())
    _monitor_chart(history, metric, library)
