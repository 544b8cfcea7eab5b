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
PRINT_TITLE_PX = 17
INSIDE_FRACTION = 0.33  # a bar this share of the axis holds its 18 px label


def sources(lang: str, run: recorded.RunRecord) -> list[str]:
    model = hardware.gpu(recorded.RUN_DATASHEET[run.name]).model
    return [i18n.t("walkthrough.chart.source_run", lang, date=run.date, gpu=run.gpu, driver=run.driver,
                   nvcc=run.nvcc, sm=run.sm_clock_mhz, sm_max=run.max_sm_clock_mhz,
                   method=i18n.t("walkthrough.chart.method", lang, **run.protocol), name=run.name),
            i18n.t("walkthrough.chart.source_peak", lang, model=model), i18n.t("walkthrough.chart.gb", lang)]


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
    # the label inside a long bar, outside a short one (18 px text never shrinks to fit)
    inside = [t.gbs > INSIDE_FRACTION * peak for t in timings]
    bars = go.Bar(
        x=[t.gbs for t in timings], y=labels, orientation="h", marker_color=pal.vendor["NVIDIA"],
        text=[i18n.t("walkthrough.chart.bar", lang, gbs=f"{t.gbs:.0f}", ms=f"{t.median_ms:.3f}") for t in timings],
        textposition=["inside" if i else "outside" for i in inside], insidetextanchor="end",
        insidetextfont={"size": FONT_PX, "color": style.text_on(pal.vendor["NVIDIA"])},
        outsidetextfont={"size": FONT_PX}, constraintext="none", cliponaxis=False, hoverinfo="text",
        hovertext=[f"{label}: {t.gbs:.0f} GB/s, {t.median_ms:.3f} ms" for label, t in zip(labels, timings, strict=True)],
        showlegend=False)
    # two lines of title: the chart is about 700 px wide in a chapter column
    title = i18n.t("walkthrough.chart.title", lang, rows=rows, cols=cols, gpu=run.gpu).replace(" | ", "<br>")
    fig = house_figure(
        [bars], title=title, x_title=i18n.t("walkthrough.chart.x", lang), y_title=i18n.t("walkthrough.pick", lang),
        height=560, font={"family": style.FONT_FAMILY, "size": FONT_PX},
        margin={"l": 20, "r": 30, "t": 175, "b": 70},
        xaxis={"range": [0, peak * 1.04], "tickfont": {"size": FONT_PX}},
        yaxis={"autorange": "reversed", "automargin": True, "tickfont": {"size": FONT_PX}},
    )
    # the reference lines, each labelled above the plot and right-aligned on its line, one label row apart
    reference_line(fig, x=copy.gbs, color=pal.ink)
    reference_line(fig, x=peak, color=pal.line, dash="dot")
    notes = [(copy.gbs, i18n.t("walkthrough.chart.copy", lang, gbs=f"{copy.gbs:.0f}"), 0),
             (peak, i18n.t("walkthrough.chart.peak", lang, model=gpu.model, gbs=f"{peak:.0f}"), FONT_PX + 8)]
    fig.layout.annotations = [
        {"xref": "x", "x": x, "yref": "paper", "y": 1.0, "xanchor": "right", "yanchor": "bottom", "yshift": shift,
         "text": text, "showarrow": False, "font": {"size": FONT_PX}} for x, text, shift in notes]
    return fig


def print_chart(lang: str) -> PrintChart:
    """The same chart for the handout; its title on one logical line, which the print layout wraps to its width."""
    import plotly.graph_objects as go

    run = recorded.run_record()
    fig = go.Figure(figure(lang, "light"))
    rows, cols = recorded.SIZE
    fig.layout.title.text = i18n.t("walkthrough.chart.title", lang, rows=rows, cols=cols, gpu=run.gpu).replace(" | ", "; ")
    fig.layout.title.font.size = PRINT_TITLE_PX  # the size the print layout wraps titles for (figures.for_print)
    return PrintChart(fig, tuple(sources(lang, run)))
