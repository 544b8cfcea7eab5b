"""The hardware comparison page: peaks per precision, memory, ratios, roofline and measured results.

Numbers come from rocm_bridge.hardware (data/gpu_specs.csv, data/benchmarks_mi250_vs_a100.csv) or, for
"your machine", from the HostMeasurement the live lab leaves in session state. A missing figure is drawn as
no bar and listed as "not published"; a DERIVED figure carries a '*' and a footnote.
"""

from __future__ import annotations

import re

import plotly.graph_objects as go
import streamlit as st

from rocm_bridge import hardware as hw
from rocm_bridge.errors import InvalidInput
from rocm_bridge.hardware import measured
from rocm_bridge.text import md_escape, source_markdown
from rocm_bridge.ui import lang, show_error, source_note, tr
from rocm_bridge.ui.charts import house_layout, reference_line, show_chart
from rocm_bridge.ui.state import parse_flag, share_link, url_state
from rocm_bridge.ui.theme import palette
from rocm_bridge.visual.style import text_on

GPUS_KEY, GCD_KEY, BASE_KEY, PREC_KEY = "hw_gpus", "hw_gcd", "hw_base", "hw_prec"
MAX_GPUS = 6  # more bars or roofs than this in one chart cannot be told apart
# log axes labelled at powers of ten only: Plotly's default labels the 2 and 5 minor ticks of short ranges ("2 5")
LOG_AXIS = {"type": "log", "dtick": 1, "minor": {"ticks": "outside", "showgrid": True}}
DEFAULT_PRECISION = "fp16"
PATTERNS = ("", "/", "x", ".", "\\", "+", "-", "|")
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")


def _style_of(ids: list[str]) -> dict[str, tuple[str, str, str]]:
    """GPU id -> (colour, bar pattern, line dash): vendor colour, and patterns to tell same-vendor GPUs apart."""
    seen: dict[str, int] = {}
    out = {}
    pal = palette()
    for gid in ids:
        vendor = hw.gpu(gid).vendor
        n = seen.get(vendor, 0)
        seen[vendor] = n + 1
        out[gid] = (pal.vendor_color(vendor), PATTERNS[n % len(PATTERNS)], DASHES[n % len(DASHES)])
    return out


def _first_source(g: hw.Gpu) -> str:
    src = g.sources[0] if g.sources else hw.SPECS_SOURCE
    return src if len(src) <= 90 else src[:89] + "…"


def _fmt(value: float | None, derived: bool = False) -> str:
    if value is None:
        return tr("hardware.not_published")
    return f"{value:,.4g}" + ("*" if derived else "")


def host_label(host: measured.HostMeasurement) -> str:
    return (
        tr("hardware.your_machine_recorded", device=host.device_name) if host.recorded else tr("hardware.your_machine")
    )


def host_color(host: measured.HostMeasurement) -> str:
    return palette().vendor["RECORDED" if host.recorded else "HOST"]


def peaks_figure(ids: list[str], per_gcd: bool, host: measured.HostMeasurement | None = None) -> go.Figure:
    precisions = list(hw.PRECISIONS)
    labels = [tr(f"hardware.metric.{p}") for p in precisions]
    styles = _style_of(ids)
    fig = go.Figure()
    for gid in ids:
        g = hw.gpu(gid)
        values = [g.value(p, per_gcd) for p in precisions]
        derived = [g.is_derived(p, per_gcd) for p in precisions]
        color, pattern, _ = styles[gid]
        fig.add_trace(
            go.Bar(
                name=g.model,
                x=labels,
                y=values,
                text=[_fmt(v, d) if v is not None else "" for v, d in zip(values, derived, strict=True)],
                textposition="outside",
                marker={"color": color, "pattern": {"shape": pattern}},
                customdata=[
                    [hw.PRECISIONS[p][1], tr("hardware.derived_mark") if d else "", _first_source(g)]
                    for p, d in zip(precisions, derived, strict=True)
                ],
                hovertemplate=(
                    f"<b>{g.model}</b><br>%{{x}}: %{{y}} %{{customdata[0]}} ({tr('hardware.dense_short')}) %{{customdata[1]}}"
                    f"<br>{tr('common.source')}: %{{customdata[2]}}<extra></extra>"
                ),
            )
        )
    if host is not None:
        values = [hw.host_tflops(host, p) for p in precisions]
        fig.add_trace(
            go.Bar(
                name=host_label(host),
                x=labels,
                y=values,
                text=[f"{v:,.4g}" if v is not None else "" for v in values],
                textposition="outside",
                marker={"color": host_color(host), "pattern": {"shape": ""}},
                hovertemplate=f"<b>{host_label(host)}</b><br>%{{x}}: %{{y}} TFLOP/s<extra>{host.device_name}</extra>",
            )
        )
    _mark_not_published(fig, ids, precisions, per_gcd, n_groups=len(ids) + (host is not None))
    house_layout(fig, title=tr("hardware.peaks_title"), x_title=tr("hardware.peaks_x"), y_title=tr("hardware.peaks_y"))
    fig.update_layout(barmode="group", height=480)
    fig.update_yaxes(**LOG_AXIS)
    return fig


def _mark_not_published(fig: go.Figure, ids: list[str], precisions: list[str], per_gcd: bool, n_groups: int) -> None:
    """Write 'not published' where a bar is missing, so an empty slot never reads as zero."""
    width = 0.8 / n_groups  # Plotly's default bargap 0.2 split evenly between the grouped traces
    muted = palette().muted
    for i, gid in enumerate(ids):
        g = hw.gpu(gid)
        for j, precision in enumerate(precisions):
            if g.value(precision, per_gcd) is None:
                fig.add_annotation(
                    x=j - 0.4 + (i + 0.5) * width,
                    y=0,
                    xref="x",
                    yref="paper",
                    yanchor="bottom",
                    text=tr("hardware.not_published"),
                    textangle=-90,
                    showarrow=False,
                    font={"size": 10, "color": muted},
                    hovertext=f"{g.model}: {tr('hardware.not_published')}",
                )


def memory_figure(
    ids: list[str], metric: str, per_gcd: bool, host: measured.HostMeasurement | None = None
) -> go.Figure:
    models, values, colors, patterns, texts, sources = [], [], [], [], [], []
    styles = _style_of(ids)
    for gid in ids:
        g = hw.gpu(gid)
        v = g.value(metric, per_gcd)
        models.append(g.model)
        values.append(v)
        colors.append(styles[gid][0])
        patterns.append(styles[gid][1])
        texts.append(_fmt(v, g.is_derived(metric, per_gcd)) if v is not None else tr("hardware.not_published"))
        sources.append(_first_source(g))
    if host is not None and metric == "memory_bandwidth_tbs" and host.d2d_gbs:
        models.append(host_label(host))
        values.append(host.d2d_gbs / 1000.0)
        colors.append(host_color(host))
        patterns.append("")
        texts.append(f"{host.d2d_gbs / 1000.0:,.3g}")
        sources.append(tr("common.measured_here") if not host.recorded else host.device_name)
    unit = hw.UNITS[metric]
    fig = go.Figure(
        go.Bar(
            x=models,
            y=values,
            text=texts,
            textposition="outside",
            marker={"color": colors, "pattern": {"shape": patterns}},
            customdata=sources,
            hovertemplate=f"<b>%{{x}}</b>: %{{y}} {unit}<br>{tr('common.source')}: %{{customdata}}<extra></extra>",
        )
    )
    key = "mem" if metric == "memory_gb" else "bw"
    house_layout(
        fig, title=tr(f"hardware.{key}_title"), x_title=tr("hardware.gpu_axis"), y_title=tr(f"hardware.{key}_y")
    )
    fig.update_layout(showlegend=False)
    return fig


def roofline_figure(
    ids: list[str], precision: str, per_gcd: bool, host: measured.HostMeasurement | None = None
) -> tuple[go.Figure, list[str]]:
    """The log-log roofline of each GPU for one precision, with ridge points; returns (figure, GPUs left out)."""
    styles = _style_of(ids)
    fig = go.Figure()
    missing = []
    unit = hw.PRECISIONS[precision][1]
    for gid in ids:
        g = hw.gpu(gid)
        roof = hw.gpu_roofline(gid, precision, per_gcd)
        if roof is None:
            missing.append(g.model)
            continue
        color, _, dash = styles[gid]
        fig.add_trace(
            go.Scatter(
                # the ridge value lives in the legend: labels at the points overlapped once GPUs shared a ridge
                name=f"{g.model} · {tr('hardware.ridge', value=roof.ridge)}",
                x=list(roof.intensities),
                y=list(roof.attainable),
                mode="lines",
                line={"color": color, "dash": dash, "width": 2.5},
                hovertemplate=f"<b>{g.model}</b><br>%{{x:.3g}} FLOP/B -> %{{y:.4g}} {unit}<extra></extra>",
            )
        )
        fig.add_trace(
            go.Scatter(
                name=f"{g.model} ridge",
                x=[roof.ridge],
                y=[roof.peak_tflops],
                mode="markers",
                marker={"color": color, "size": 11, "symbol": "circle"},
                showlegend=False,
                hovertemplate=(
                    f"<b>{g.model}</b><br>ridge %{{x:.3g}} FLOP/B, peak %{{y:.4g}} {unit}"
                    f"<br>{tr('common.source')}: {_first_source(g)}<extra></extra>"
                ),
            )
        )
    if host is not None:
        point = hw.host_point(host, precision)
        if point is not None:
            ridge, tflops = point
            host_roof = hw.roofline(host_label(host), tflops, host.d2d_gbs / 1000.0)
            fig.add_trace(
                go.Scatter(
                    name=host_label(host),
                    x=list(host_roof.intensities),
                    y=list(host_roof.attainable),
                    mode="lines",
                    line={"color": host_color(host), "dash": "dot", "width": 2},
                    hoverinfo="skip",
                )
            )
            fig.add_trace(
                go.Scatter(
                    name=f"{host_label(host)} point",
                    x=[ridge],
                    y=[tflops],
                    mode="markers+text",
                    marker={"color": host_color(host), "size": 16, "symbol": "star"},
                    text=[host_label(host)],
                    textposition="bottom right",
                    showlegend=False,
                    hovertemplate=(
                        f"<b>{host_label(host)}</b> ({host.device_name})<br>%{{y:.4g}} TFLOP/s, "
                        f"{host.d2d_gbs:,.0f} GB/s<extra></extra>"
                    ),
                )
            )
    title = tr("hardware.roof_title", precision=tr(f"hardware.metric.{precision}"))
    house_layout(fig, title=title, x_title=tr("hardware.roof_x"), y_title=tr("hardware.roof_y"))
    fig.update_xaxes(**LOG_AXIS)
    fig.update_yaxes(**LOG_AXIS)
    fig.update_layout(height=480)
    return fig, missing


def measured_figure() -> go.Figure:
    rows = [b for b in hw.benchmarks() if b.ratio is not None]
    pal = palette()
    fig = go.Figure(
        go.Bar(
            orientation="h",
            y=[hw.short_workload(b) for b in rows],
            x=[b.ratio for b in rows],
            text=[f"{b.ratio:.2f}x" for b in rows],
            # inside the bar's end: a label outside sat on the x = 1 reference line (0.90x) or past the plot (1.69x)
            textposition="inside", insidetextanchor="end", cliponaxis=False,
            textfont={"color": [text_on(pal.vendor["AMD"] if b.ratio >= 1 else pal.neutral) for b in rows]},
            marker={"color": [pal.vendor["AMD"] if b.ratio >= 1 else pal.neutral for b in rows]},
            customdata=[[b.who, b.date, b.software[:80]] for b in rows],
            hovertemplate="<b>%{y}</b>: %{x:.2f}x<br>%{customdata[0]}, %{customdata[1]}<br>%{customdata[2]}<extra></extra>",
        )
    )
    reference_line(fig, x=1.0)
    house_layout(
        fig, title=tr("hardware.measured_chart"), x_title=tr("hardware.measured_x"), y_title=tr("hardware.measured_y")
    )
    fig.update_layout(height=460, showlegend=False, margin={"l": 260}, uniformtext={"minsize": 18, "mode": "show"})
    fig.update_xaxes(range=[0, max(b.ratio for b in rows) * 1.05])
    return fig


def _values_table(ids: list[str], per_gcd: bool) -> list[dict[str, str]]:
    rows = []
    for metric in hw.RATIO_METRICS:
        row = {tr("hardware.metric_col"): tr(f"hardware.metric.{metric}"), tr("hardware.unit_col"): hw.UNITS[metric]}
        for gid in ids:
            g = hw.gpu(gid)
            row[g.model] = _fmt(g.value(metric, per_gcd), g.is_derived(metric, per_gcd))
        rows.append(row)
    return rows


def _ratio_rows(ids: list[str], base: str, per_gcd: bool) -> list[dict[str, str]]:
    out = []
    for row in hw.ratio_table(ids, base, per_gcd):
        line = {tr("hardware.metric_col"): tr(f"hardware.metric.{row['metric']}")}
        for gid in ids:
            value = row[gid]
            line[hw.gpu(gid).model] = tr("hardware.not_published") if value is None else f"{value:.2f}x"
        out.append(line)
    return out


def _missing_and_derived(ids: list[str], per_gcd: bool) -> None:
    missing, derived = [], []
    for gid in ids:
        g = hw.gpu(gid)
        for metric in (*hw.PRECISIONS, *hw.MEMORY_METRICS):
            label = f"{g.model} {tr(f'hardware.metric.{metric}')}"
            if g.value(metric) is None:
                missing.append(label)
            elif metric in g.derived:
                derived.append(label)
    if missing:
        st.caption(tr("hardware.missing", items="; ".join(missing)))
    if derived:
        st.caption(tr("hardware.derived_note", items="; ".join(derived)))
    if per_gcd and any(hw.gpu(g).gcds > 1 for g in ids):
        st.caption(tr("hardware.mode_gcd"))


def _sources_of(ids: list[str]) -> list[str]:
    return [f"{hw.gpu(gid).model}: {' | '.join(hw.gpu(gid).sources)}" for gid in ids]


def _host_caption(host: measured.HostMeasurement) -> None:
    key = "hardware.host_note_recorded" if host.recorded else "hardware.host_note"
    st.caption(
        tr(
            key,
            device=host.device_name,
            backend=host.backend,
            version=host.backend_version,
            date=host.measured_at,
        )
    )


def render_hardware() -> None:
    st.markdown(tr("hardware.intro"))
    all_ids = [g.id for g in hw.gpus()]
    url_state(GPUS_KEY, list(hw.DEFAULT_GPUS), cast=lambda s: list(hw.parse_gpu_list(s)))
    url_state(GCD_KEY, False, cast=parse_flag)
    if len(st.session_state[GPUS_KEY]) > MAX_GPUS:  # a link may name more than a chart can show
        st.session_state[GPUS_KEY] = st.session_state[GPUS_KEY][:MAX_GPUS]
        st.info(tr("hardware.capped", n=MAX_GPUS), icon=":material/filter_list:")
    ids = st.multiselect(
        tr("hardware.gpus"),
        all_ids,
        key=GPUS_KEY,
        max_selections=MAX_GPUS,
        format_func=lambda gid: hw.gpu(gid).model,
        help=tr("hardware.gpus_help"),
    )
    st.caption(tr("hardware.which_a100"))
    per_gcd = st.toggle(tr("hardware.per_gcd"), key=GCD_KEY, help=tr("hardware.per_gcd_help"))
    if ids:
        st.query_params[GPUS_KEY] = ",".join(ids)
    else:
        st.query_params.pop(GPUS_KEY, None)
    if per_gcd:
        st.query_params[GCD_KEY] = "1"
    else:
        st.query_params.pop(GCD_KEY, None)
    if not ids:
        st.info(tr("hardware.pick_one"))
        return
    host = measured.from_session(st.session_state)
    st.caption(tr("hardware.mode_gcd") if per_gcd else tr("hardware.mode_package"))
    st.info(tr("hardware.dense") + " " + tr("hardware.tf32_note"), icon=":material/info:")

    show_chart(peaks_figure(ids, per_gcd, host), _sources_of(ids), key="hw_peaks")
    _missing_and_derived(ids, per_gcd)
    if host is not None:
        _host_caption(host)
    left, right = st.columns(2)
    with left:
        show_chart(memory_figure(ids, "memory_gb", per_gcd), hw.SPECS_SOURCE, key="hw_mem")
    with right:
        show_chart(memory_figure(ids, "memory_bandwidth_tbs", per_gcd, host), hw.SPECS_SOURCE, key="hw_bw")

    default_base = "a100-80gb-sxm4" if "a100-80gb-sxm4" in ids else ids[0]
    url_state(BASE_KEY, default_base)
    if st.session_state[BASE_KEY] not in ids:
        st.session_state[BASE_KEY] = default_base
    base = st.selectbox(tr("hardware.ratio_base"), ids, key=BASE_KEY, format_func=lambda gid: hw.gpu(gid).model)
    st.query_params[BASE_KEY] = base
    st.subheader(tr("hardware.ratio_title", base=hw.gpu(base).model))
    st.dataframe(_ratio_rows(ids, base, per_gcd), hide_index=True, width="stretch")
    st.caption(tr("hardware.ratio_caption"))
    with st.expander(tr("hardware.values_title")):
        st.dataframe(_values_table(ids, per_gcd), hide_index=True, width="stretch")
        source_note(hw.SPECS_SOURCE)

    url_state(PREC_KEY, DEFAULT_PRECISION, valid=list(hw.PRECISIONS))
    precision = st.selectbox(
        tr("hardware.roof_precision"),
        list(hw.PRECISIONS),
        key=PREC_KEY,
        format_func=lambda p: tr(f"hardware.metric.{p}"),
    )
    st.query_params[PREC_KEY] = precision
    try:
        fig, missing = roofline_figure(ids, precision, per_gcd, host)
    except InvalidInput as err:
        show_error(err)
        return
    show_chart(fig, _sources_of(ids), key="hw_roof")
    st.caption(tr("hardware.roof_explain"))
    if missing:
        st.caption(tr("hardware.roof_missing", items=", ".join(missing)))
    if host is not None and hw.host_point(host, precision) is None:
        st.caption(tr("hardware.host_none_for_precision", precision=tr(f"hardware.metric.{precision}")))

    st.subheader(tr("hardware.measured_title"))
    st.markdown(tr("hardware.measured_intro"))
    show_chart(measured_figure(), hw.BENCH_SOURCE, key="hw_measured")
    st.caption(tr("hardware.measured_gcd"))
    bench_table()
    source_note(hw.BENCH_SOURCE)

    with st.expander(tr("hardware.notes_title")):
        for gid in ids:
            g = hw.gpu(gid)
            st.markdown(f"**{g.model}** ({g.architecture})")
            st.text(g.notes)
            st.caption(f"{tr('common.sources')}: {source_markdown(g.source)}")
    share_link()


_URL = re.compile(r"https?://[^\s)]+")


def _bench_rows() -> list[dict[str, object]]:
    """One compact row per measurement: short workload, the two numbers, the ratio, who and when, a source link.
    The data's prose (workload, metric, precision, software, note) is English source text: bench_details shows it,
    labelled as such, instead of stretching every row to hundreds of pixels."""
    rows = []
    for b in hw.benchmarks():
        link = _URL.search(b.source)
        rows.append({
            "workload": hw.short_workload(b),
            "mi250": _fmt(b.mi250) if b.mi250 is not None else "—",  # a narrow column: the dash is explained below
            "a100": _fmt(b.a100) if b.a100 is not None else "—",
            "unit": b.unit.split(" (")[0],  # "tokens/s (dataset 'Throughput' column)": the rest is in the details
            "ratio": f"{b.ratio:.2f}x" if b.ratio is not None else "—",
            "date": b.date,
            "who": _who(b.who),
            "source": link.group(0) if link else "",
        })
    return rows


def _who(text: str) -> str:
    """'independent (Argonne National Laboratory)' -> 'Independent: Argonne National Laboratory', translated."""
    kind, _, name = text.partition(" (")
    key = {"independent": "hardware.who.independent", "vendor statement": "hardware.who.vendor"}.get(kind.strip())
    name = name.rstrip(")").split(",")[0]
    return tr(key, name=name) if key else text


def bench_table() -> None:
    cols = ("workload", "mi250", "a100", "unit", "ratio", "date", "who")  # the source links are in the details
    labels = {c: tr(f"hardware.col.{c}") for c in cols}
    # short cells in a wrapping table: every column on screen at 1280x720, a row a line or two (st.table renders
    # Markdown, hence md_escape)
    st.table([{labels[c]: md_escape(str(r[c])) for c in cols} for r in _bench_rows()])
    st.caption(tr("hardware.dash_not_published", na=tr("hardware.not_published")))
    bench_details()


def bench_details() -> None:
    """The measurements' own words (the data file's English), one block per row, folded."""
    with st.expander(tr("hardware.bench_details"), icon=":material/notes:"):
        if lang() != "en":
            st.caption(tr("hardware.english_source"))
        for b in hw.benchmarks():
            st.markdown(f"**{md_escape(hw.short_workload(b))}** · {md_escape(b.date)} · {source_markdown(b.source)}")
            st.markdown("\n".join(f"- *{tr(f'hardware.col.{key}')}*: {md_escape(value)}" for key, value in (
                ("workload", b.workload), ("metric", b.metric), ("precision", b.precision),
                ("unit", b.unit), ("software", b.software), ("who", b.who), ("note", b.note)) if value))
