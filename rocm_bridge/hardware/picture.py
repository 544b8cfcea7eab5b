"""The roofline picture (chapter 7 and /hardware): MI250 and A100 roofs from data/gpu_specs.csv, their ridge
points, two workloads on either side of them, and a measured point (the live lab's, or the recorded one shipped
with the app). Drawn as SVG on log-log axes so every label stays >= 18 px (rocm_bridge.visual.svg)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from rocm_bridge import hardware as hw
from rocm_bridge.hardware.measured import HostMeasurement
from rocm_bridge.visual import style
from rocm_bridge.visual import svg as s
from rocm_bridge.visual.pictures import Frame
from rocm_bridge.wavefront.draw import fitted, legend, tr

PRECISION = "fp16"  # dense FP16 matrix peak: the rate mixed-precision training uses
X_RANGE = (0.1, 10000.0)  # FLOP/byte
Y_RANGE = (0.1, 1000.0)  # TFLOP/s
LEFT, RIGHT, TOP, BOTTOM = 120, 900, 64, 340
STEPS = ("mi250", "a100", "workloads", "you")
GEMM_N = 4096


@dataclass(frozen=True)
class Workload:
    key: str
    intensity: float  # FLOP/byte


def workloads() -> tuple[Workload, ...]:
    """An FP16 element-wise add (1 FLOP per 2 reads + 1 write of 2 bytes) and a square FP16 GEMM of GEMM_N
    (2 n^3 FLOPs over 3 n^2 two-byte matrices moved once)."""
    return (Workload("add", 1 / 6), Workload("gemm", 2 * GEMM_N**3 / (3 * GEMM_N**2 * 2)))


def recorded_measurement() -> HostMeasurement | None:
    """The first recorded live-lab result shipped with the app that has an FP16 rate and a memory bandwidth."""
    from rocm_bridge.live import results

    for doc in results.recorded_results():
        m = results.to_host_measurement(doc)
        if hw.host_point(m, PRECISION) is not None:
            return m
    return None


def _x(v: float) -> float:
    lo, hi = (math.log10(x) for x in X_RANGE)
    return LEFT + (math.log10(v) - lo) / (hi - lo) * (RIGHT - LEFT)


def _y(v: float) -> float:
    lo, hi = (math.log10(y) for y in Y_RANGE)
    return BOTTOM - (math.log10(v) - lo) / (hi - lo) * (BOTTOM - TOP)


def _roof_path(peak: float, bw: float) -> str:
    ridge = hw.ridge_point(peak, bw)
    x0 = X_RANGE[0]
    return (f"M{_x(x0):.1f},{_y(x0 * bw):.1f} L{_x(ridge):.1f},{_y(peak):.1f} "
            f"L{_x(X_RANGE[1]):.1f},{_y(peak):.1f}")


def roofline_frame(step: int, lang: str, theme: str = "light", measurement: HostMeasurement | None = None,
                   recorded: bool = True) -> Frame:
    """Step `step` of the picture; `measurement` is the point of the last step (the live lab's, else the recorded
    one when `recorded`)."""
    t = tr(lang, "roof")
    name = STEPS[step]
    p = s.Svg(s.WIDTH, 0, theme)
    pal = p.pal
    # axes with decade ticks
    p.line(LEFT, BOTTOM, RIGHT, BOTTOM, stroke=pal.line)
    p.line(LEFT, TOP, LEFT, BOTTOM, stroke=pal.line)
    for k in range(-1, 5):
        x = _x(10.0**k)
        p.line(x, BOTTOM, x, BOTTOM + 8, stroke=pal.line)
        p.text(x, BOTTOM + 30, f"{10.0**k:g}", anchor="middle", size=18)
    for k in range(-1, 4):
        y = _y(10.0**k)
        p.line(LEFT - 8, y, LEFT, y, stroke=pal.line)
        p.line(LEFT, y, RIGHT, y, stroke=pal.line, width=0.5, dash="2 6")
        p.text(LEFT - 12, y + 6, f"{10.0**k:g}", anchor="end", size=18)
    p.text((LEFT + RIGHT) / 2, BOTTOM + 62, t("x_axis"), anchor="middle", size=20)
    p.text(20, 40, t("y_axis"), size=20)
    gpus = [hw.gpu(g) for g in hw.DEFAULT_GPUS][: 1 if name == "mi250" else 2]
    items = []
    ridges = []
    for g in gpus:
        peak, bw = g.value(PRECISION), g.value("memory_bandwidth_tbs")
        colour = style.legible(pal.vendor_color(g.vendor), pal.background)  # NVIDIA green on white: 2.4:1
        p.path(_roof_path(peak, bw), stroke=colour, width=4)
        ridge = hw.ridge_point(peak, bw)
        ridges.append((g, ridge, peak, bw))
        p.circle(_x(ridge), _y(peak), 8, fill=colour, stroke=pal.ink)
        p.line(_x(ridge), _y(peak), _x(ridge), BOTTOM, stroke=colour, width=2, dash="6 5")
        items.append((t("ridge", model=g.model, ridge=f"{ridge:.0f}", peak=f"{peak:g}"), _swatch(colour)))
    lines = []
    if name in ("workloads", "you"):
        for w in workloads():
            x = _x(w.intensity)
            got = [hw.attainable_tflops(w.intensity, pk, bw) for _, _, pk, bw in ridges]
            p.line(x, _y(max(got)), x, BOTTOM, stroke=pal.ink, width=2, dash="3 4")
            label = t(f"w_{w.key}", i=f"{w.intensity:.3g}" if w.intensity < 100 else f"{w.intensity:.0f}")
            p.text(x + 8, BOTTOM - 16, label, size=20, weight="bold")
            lines.append(t(f"line_{w.key}", a=f"{got[0]:.3g}", b=f"{got[1]:.3g}", ma=ridges[0][0].model,
                           mb=ridges[1][0].model))
    point = None
    if name == "you":
        m = measurement or (recorded_measurement() if recorded else None)
        point = hw.host_point(m, PRECISION) if m else None
        if point:
            ridge, tflops = point
            p.path(_roof_path(tflops, m.d2d_gbs / 1000.0), stroke=pal.ink, width=2)
            you = style.legible(pal.status["warn"], pal.background)  # the fp32 orange on white: 2.1:1
            p.circle(_x(ridge), _y(tflops), 10, fill=you, stroke=pal.ink)
            who = t("recorded", device=m.device_name) if m.recorded else t("yours", device=m.device_name)
            items.append((t("you_point", who=who, ridge=f"{ridge:.0f}", tflops=f"{tflops:.0f}"),
                          _swatch(you)))
        else:
            lines.append(t("no_point"))
    y = BOTTOM + 100
    for line in lines:
        fitted(p, 20, y, line, 960, size=22)
        y += 34
    for item in items:  # one row each: the label carries the ridge point
        legend(p, [item], 20, y)
        y += 32
    p.height = y
    if name == "mi250":
        g, ridge, peak, bw = ridges[0]
        cap = t("cap_mi250", ridge=f"{ridge:.0f}", peak=f"{peak:g}", bw=f"{bw:g}")
    elif name == "a100":
        cap = t("cap_a100", ra=f"{ridges[0][1]:.0f}", rb=f"{ridges[1][1]:.0f}")
    elif name == "workloads":
        cap = t("cap_workloads")
    else:
        cap = (t("cap_recorded", device=m.device_name) if m.recorded else t("cap_you")) if point else t("no_point")
    return Frame(cap, svg=p.render(t("title")))


def _swatch(colour: str):
    def draw(q: s.Svg, x: float, y: float, w: float, h: float) -> None:
        q.line(x, y + h / 2, x + w, y + h / 2, stroke=colour, width=5)
    return draw


MEASURED = "measured"  # the page-context key of the visitor's own measurement (HostMeasurement.to_dict as JSON)


def measurement_from(context: Mapping[str, str] | None) -> HostMeasurement | None:
    """The visitor's measurement in a page context, or None (absent, unreadable, or without an FP16 point)."""
    import json

    raw = (context or {}).get(MEASURED)
    if not raw:
        return None
    try:
        m = HostMeasurement.from_dict(json.loads(raw))
    except (ValueError, TypeError, KeyError):
        return None
    return m if hw.host_point(m, PRECISION) is not None else None


def roofline(step: int, lang: str, theme: str = "light", context: Mapping[str, str] | None = None) -> Frame:
    """The registry's builder: the last step shows the visitor's point when the page context carries the live
    lab's measurement (rocm_bridge.ui.roofline_picture.context), else the recorded one (handouts too)."""
    return roofline_frame(step, lang, theme, measurement=measurement_from(context))
