"""The walkthrough's chart, headless (Plotly imported when drawn): effective bandwidth of every step measured on
the recorded GPU, with the copy of the same bytes and the datasheet peak as reference lines. The widget
(rocm_bridge.ui.walkthrough_view) and the handout (print_chart) draw the same figure."""

from __future__ import annotations

import functools
from typing import Any

from rocm_bridge import hardware, i18n, kernels
from rocm_bridge.course.widgets import PrintChart
from rocm_bridge.kernels import lessons, recorded
from rocm_bridge.visual import style
from rocm_bridge.visual.figures import house_figure, reference_line

# Every text of this chart is at least 18 px, so it stays readable in presenter mode (?present=1) at 1280x720.
FONT_PX = 18


def sources(lang: str, run: recorded.RunRecord) -> list[str]:
    model = hardware.gpu(recorded.RUN_DATASHEET[run.name]).model
    return [i18n.t("walkthrough.chart.source_run", lang, date=run.date, gpu=run.gpu, driver=run.driver,
                   nvcc=run.nvcc, sm=run.sm_clock_mhz, sm_max=run.max_sm_clock_mhz, method=run.method["timing"],
                   name=run.name),
            i18n.t("walkthrough.chart.source_peak", lang, model=model)]


@functools.lru_cache(maxsize=16)
def figure(lang: str, theme: str = "light", run_name: str = recorded.RUNS[0]) -> Any:
    """Horizontal bars, one per step (step 1 on top), GB/s on the x axis; bar text: GB/s and milliseconds."""
    import plotly.graph_objects as go  # plotly only where a chart is drawn

    run = recorded.run_record(run_name)
    rows, cols = recorded.SIZE
    pal = style.palette(theme)
    labels = [lessons.step_label(s, lang) for s in kernels.STEPS]
    timings = [run.timing(s.id, rows, cols) for s in kernels.STEPS]
    copy = run.timing(kernels.REFERENCE.id, rows, cols)
    gpu = hardware.gpu(recorded.RUN_DATASHEET[run.name])
    peak = (gpu.value("memory_bandwidth_tbs") or 0) * 1000
    bars = go.Bar(
        x=[t.gbs for t in timings], y=labels, orientation="h", marker_color=pal.vendor["NVIDIA"],
        text=[i18n.t("walkthrough.chart.bar", lang, gbs=f"{t.gbs:.0f}", ms=f"{t.median_ms:.3f}") for t in timings],
        textposition="outside", textfont={"size": FONT_PX}, cliponaxis=False, hoverinfo="text",
        hovertext=[f"{label}: {t.gbs:.0f} GB/s, {t.median_ms:.3f} ms" for label, t in zip(labels, timings, strict=True)],
        showlegend=False)
    fig = house_figure(
        [bars], title=i18n.t("walkthrough.chart.title", lang, rows=rows, cols=cols, gpu=run.gpu),
        x_title=i18n.t("walkthrough.chart.x", lang),
        height=560, font={"family": style.FONT_FAMILY, "size": FONT_PX},
        margin={"l": 20, "r": 40, "t": 90, "b": 70},
        xaxis={"range": [0, peak * 1.32], "tickfont": {"size": FONT_PX}},
        yaxis={"autorange": "reversed", "automargin": True, "tickfont": {"size": FONT_PX}},
    )
    reference_line(fig, x=copy.gbs, color=pal.ink,
                   text=i18n.t("walkthrough.chart.copy", lang, gbs=f"{copy.gbs:.0f}"))
    reference_line(fig, x=peak, color=pal.line, dash="dot",
                   text=i18n.t("walkthrough.chart.peak", lang, model=gpu.model, gbs=f"{peak:.0f}"))
    # the two labels sit at the top of their lines; the second one below the first, so they never overlap
    notes = list(fig.layout.annotations)
    for i, note in enumerate(notes):
        note.update(font={"size": FONT_PX}, yanchor="bottom", y=1.0 if i == 0 else -0.001, yshift=0,
                    xanchor="right" if i == 0 else "left")
    fig.layout.annotations = notes
    return fig


def print_chart(lang: str) -> PrintChart:
    run = recorded.run_record()
    return PrintChart(figure(lang, "light"), tuple(sources(lang, run)))
