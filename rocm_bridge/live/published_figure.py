"""The chart of published AMD Instinct matmul figures beside a live-lab result (rocm_bridge.live.published):
every bar labelled "measured here" or "published by <who>, <date>", the datasheet peak of each chip as a marker,
measured / peak on every bar. Headless (no Streamlit), in the language and theme it is given."""

from __future__ import annotations

import functools
from typing import Any

from rocm_bridge import i18n
from rocm_bridge.live.published import Bar
from rocm_bridge.visual import style
from rocm_bridge.visual.figures import house_figure

# Two-line bar labels in a fixed size: presenter mode caps a chart at 80 % of the screen height, and larger
# theme fonts would make nine two-line labels overlap there.
LABEL_PX = 12
_KIND_KEYS = {"sustained": "sustained", "burst": "burst", "max-achievable": "max_achievable"}


def size_text(size: str, lang_code: str) -> str:
    return size.replace("x", "×") if size else i18n.t("live.pub.size_unknown", lang_code)


def _short_gpu(name: str) -> str:
    """'Instinct MI300X' -> 'MI300X', 'NVIDIA H200' -> 'H200': the chart is narrow on a page."""
    return name.removeprefix("AMD ").removeprefix("NVIDIA ").removeprefix("Instinct ")


def bar_label(bar: Bar, lang_code: str) -> str:
    """Two lines: which chip and which figure; then who measured it (here, or published by whom and when)."""
    gpu = _short_gpu(bar.gpu) + (i18n.t("live.pub.one_gcd", lang_code) if bar.scope == "1 GCD" else "")
    kind = i18n.t(f"live.pub.kind.{_KIND_KEYS[bar.kind]}", lang_code)
    if bar.origin == "published":
        who = i18n.t("live.pub.published_by", lang_code, who=bar.publisher, date=bar.date)
    else:
        who = i18n.t(f"live.pub.ours_{bar.origin}", lang_code)
    return f"{gpu} · {kind}<br>{who}"


def hover_text(bar: Bar, lang_code: str) -> str:
    size = i18n.t("live.pub.size", lang_code, size=size_text(bar.size, lang_code))
    return f"{bar.gpu} · {size}<br>{bar.tflops:.1f} TFLOP/s · {ratio_text(bar, lang_code)}"


def ratio_text(bar: Bar, lang_code: str) -> str:
    if bar.ratio is None:
        return i18n.t("live.pub.no_peak", lang_code)
    return i18n.t("live.pub.pct_of_peak", lang_code, pct=f"{100 * bar.ratio:.0f}")


@functools.lru_cache(maxsize=64)
def figure(bars: tuple[Bar, ...], dtype: str, lang_code: str, theme: str = "light") -> Any:
    """Horizontal bars (own figures, then published ones) with the datasheet peaks as markers. Cached per input,
    language and theme: building Plotly objects costs more than the rest of a rerun."""
    import plotly.graph_objects as go  # plotly only where a chart is drawn

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
