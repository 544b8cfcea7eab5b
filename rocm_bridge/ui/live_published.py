"""The live lab's matmul figures beside published AMD Instinct figures (rocm_bridge.live.published): one chart with
every bar labelled "measured here" or "published by <who>, <date>", the datasheet peak of each chip as a marker,
measured / peak on every bar, a table, the sources' own words, and why the numbers differ."""

from __future__ import annotations

import functools

import plotly.graph_objects as go
import streamlit as st

from rocm_bridge import i18n, style
from rocm_bridge.live import BACKEND_LABELS
from rocm_bridge.live import published as pub
from rocm_bridge.text import md_escape, source_link
from rocm_bridge.ui import lang, tr
from rocm_bridge.ui.charts import house_figure, show_chart
from rocm_bridge.ui.theme import chart_theme

# Two-line bar labels in a fixed size: presenter mode caps a chart at 80 % of the screen height, and larger
# theme fonts would make nine two-line labels overlap there.
LABEL_PX = 12
_KIND_KEYS = {"sustained": "sustained", "burst": "burst", "max-achievable": "max_achievable"}


def _size(size: str, lang_code: str) -> str:
    return size.replace("x", "×") if size else i18n.t("live.pub.size_unknown", lang_code)


def _short_gpu(name: str) -> str:
    """'Instinct MI300X' -> 'MI300X', 'NVIDIA H200' -> 'H200': the chart is narrow on a page."""
    return name.removeprefix("AMD ").removeprefix("NVIDIA ").removeprefix("Instinct ")


def bar_label(bar: pub.Bar, lang_code: str) -> str:
    """Two lines: which chip and which figure; then who measured it (here, or published by whom and when)."""
    gpu = _short_gpu(bar.gpu) + (i18n.t("live.pub.one_gcd", lang_code) if bar.scope == "1 GCD" else "")
    kind = i18n.t(f"live.pub.kind.{_KIND_KEYS[bar.kind]}", lang_code)
    if bar.origin == "published":
        who = i18n.t("live.pub.published_by", lang_code, who=bar.publisher, date=bar.date)
    else:
        who = i18n.t(f"live.pub.ours_{bar.origin}", lang_code)
    return f"{gpu} · {kind}<br>{who}"


def hover_text(bar: pub.Bar, lang_code: str) -> str:
    size = i18n.t("live.pub.size", lang_code, size=_size(bar.size, lang_code))
    return f"{bar.gpu} · {size}<br>{bar.tflops:.1f} TFLOP/s · {ratio_text(bar, lang_code)}"


def ratio_text(bar: pub.Bar, lang_code: str) -> str:
    if bar.ratio is None:
        return i18n.t("live.pub.no_peak", lang_code)
    return i18n.t("live.pub.pct_of_peak", lang_code, pct=f"{100 * bar.ratio:.0f}")


@functools.lru_cache(maxsize=64)
def figure(bars: tuple[pub.Bar, ...], dtype: str, lang_code: str, theme: str = "light") -> go.Figure:
    """Horizontal bars (own figures, then published ones) with the datasheet peaks as markers. Cached per input,
    language and theme: building Plotly objects costs more than the rest of a rerun."""
    pal = style.palette(theme)
    labels = [bar_label(b, lang_code) for b in bars]
    texts = [f"{b.tflops:.0f} TFLOP/s<br>{ratio_text(b, lang_code)}" for b in bars]
    hovers = [hover_text(b, lang_code) for b in bars]
    traces = []
    groups = (
        ("recorded", pal.vendor["RECORDED"]),
        ("measured", pal.vendor["HOST"]),
        ("published", pal.vendor["AMD"]),
    )
    for origin, color in groups:
        idx = [i for i, b in enumerate(bars) if b.origin == origin]
        if not idx:
            continue
        name_key = "live.pub.legend_published" if origin == "published" else f"live.pub.ours_{origin}"
        traces.append(
            go.Bar(
                x=[bars[i].tflops for i in idx],
                y=[labels[i] for i in idx],
                orientation="h",
                name=i18n.t(name_key, lang_code),
                marker_color=color,
                hovertext=[hovers[i] for i in idx],
                hoverinfo="text",
            )
        )
    with_peak = [i for i, b in enumerate(bars) if b.peak_tflops]
    traces.append(
        go.Scatter(
            x=[bars[i].peak_tflops for i in with_peak],
            y=[labels[i] for i in with_peak],
            mode="markers",
            name=i18n.t("live.pub.legend_peak", lang_code),
            marker={"symbol": "line-ns-open", "size": 26, "line": {"width": 3}, "color": pal.ink},
        )
    )
    # The figure and its share of the peak in a column right of the plot, where no bar or marker covers them.
    notes = [
        {"xref": "paper", "x": 1.01, "xanchor": "left", "yref": "y", "y": label, "text": text, "showarrow": False, "align": "left",
         "font": {"size": LABEL_PX}}
        for label, text in zip(labels, texts, strict=True)
    ]
    most = max([b.tflops for b in bars] + [b.peak_tflops or 0 for b in bars])
    return house_figure(
        traces,
        title=i18n.t("live.chart.published", lang_code, dtype=dtype),
        x_title=i18n.t("live.axis.tflops", lang_code),
        height=max(style.CHART_HEIGHT, 120 + 52 * len(bars)),
        margin={"r": 120},
        annotations=notes,
        xaxis={"range": [0, most * 1.05]},
        yaxis={
            "autorange": "reversed",
            "automargin": True,
            "categoryorder": "array",
            "categoryarray": labels,
            "tickfont": {"size": LABEL_PX},
        },
    )


def _distinct_sources(bars: list[pub.Bar]) -> list[str]:
    """Each published source once, even where two rows cite the same page in different words."""
    out: dict[str, str] = {}
    for b in bars:
        for part in filter(None, b.source.split(" | ")):
            label, url = source_link(part)
            out.setdefault(url or label, part)
    return list(out.values())


def _table(bars: list[pub.Bar], doc: dict) -> list[dict]:
    rows = []
    software = f"{BACKEND_LABELS.get(doc['backend'], doc['backend'])} {doc['env']['version']}"
    for b in bars:
        rows.append(
            {
                tr("live.pub.col.figure"): bar_label(b, lang()).replace("<br>", " — "),
                tr("live.pub.col.size"): _size(b.size, lang()),
                tr("live.res.col.tflops"): round(b.tflops, 1),
                tr("live.res.col.pct_peak"): "-" if b.ratio is None else f"{100 * b.ratio:.0f}",
                tr("live.pub.col.peak"): "-" if b.peak_tflops is None else f"{b.peak_tflops:g}",
                tr("live.pub.col.software"): b.published.software if b.published else software,
            }
        )
    return rows


def show_published(doc: dict, src: str) -> None:
    """The comparison for one result document; nothing for a CPU run or when no dtype has published figures."""
    dtypes = pub.dtypes_for(doc)
    if not dtypes:
        return
    st.markdown(f"#### {tr('live.pub.title')}")
    st.caption(tr("live.pub.intro"))
    dtype = st.selectbox(
        tr("live.pub.dtype"),
        dtypes,
        index=dtypes.index("bf16") if "bf16" in dtypes else 0,
        key=f"lv_pub_{doc.get('file', 'live')}",
    )
    bars = pub.comparison(doc, dtype)
    sources = [src, *_distinct_sources(bars), tr("live.source.spec")]
    show_chart(figure(tuple(bars), dtype, lang(), chart_theme()), sources, key=f"lv_pub_chart_{doc.get('file', 'live')}")
    st.caption(tr("live.pub.ratio_note"))
    st.dataframe(_table(bars, doc), hide_index=True)
    with st.expander(tr("live.pub.quotes")):
        for p in pub.for_dtype(dtype):
            st.markdown(f"**{md_escape(p.gpu)} · {md_escape(p.publisher)} · {p.date}**")
            st.markdown(f"> {md_escape(p.quote)}")
            st.caption(md_escape(f"{p.software}. {p.note} ({p.date_note})"))
    st.markdown(tr("live.pub.why"))
