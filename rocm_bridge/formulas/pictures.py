"""The formula chapters' pictures (2, 3, 4, 6): Compatible as three valves, per-op time as a timeline, throughput
as a pipeline timeline and speedup as bars under Amdahl's ceiling. Headless SVG (rocm_bridge.visual.svg); every
number comes from the formula lab's models and data (compat tables, recorded op times, hardware presets).
"""

from __future__ import annotations

from dataclasses import dataclass

from rocm_bridge import formulas
from rocm_bridge.formulas import lab as fl
from rocm_bridge.formulas.figures import DEFAULTS
from rocm_bridge.visual import style
from rocm_bridge.visual import svg as s
from rocm_bridge.visual.pictures import Frame
from rocm_bridge.wavefront.draw import filled, fitted, legend, tr


def _n(x: float, digits: int = 4) -> str:
    return fl.fmt(x, digits)


# --- Compatible: three valves in series ----------------------------------------------------------------------

# (driver, ROCm, TensorFlow) picks: all open (the lab's default), then each gate closed in turn by a real pick.
COMPAT_PICKS: tuple[tuple[str, str, str], ...] = (
    (DEFAULTS["compatible"]["driver"], DEFAULTS["compatible"]["rocm"], DEFAULTS["compatible"]["tf"]),
    ("6.4", "6.3.x", "2.18.1"),  # ROCm too old for TF 2.18.1
    ("6.0", "6.4.x", "2.18.1"),  # driver older than the ROCm 6.4 line lists
    ("6.4", "6.4.x", "2.14.0"),  # TensorFlow older than ROCm 6.4 supports
)
GATES = ("driver", "rocm", "tensorflow")


def compat_state(step: int) -> fl.CompatCheck:
    return fl.compat_check(*COMPAT_PICKS[step])


def compatible(step: int, lang: str, theme: str = "light") -> Frame:
    t = tr(lang, "compat")
    check = compat_state(step)
    by_name = {i.name: i for i in check.result.indicators}
    p = s.Svg(s.WIDTH, 380, theme)
    pal = p.pal
    ok, bad = pal.status["ok"], pal.status["fail"]
    pipe_y = 140
    # the pipe: flow reaches each stretch only through open gates; past a closed one it is dashed and thin
    flowing = True
    edges = [20] + [30 + k * 255 + 112 for k in range(len(GATES))] + [832]
    for k in range(len(edges) - 1):
        if k and not (by_name.get(GATES[k - 1]) and by_name[GATES[k - 1]].ok):
            flowing = False
        p.line(edges[k], pipe_y, edges[k + 1], pipe_y, stroke=pal.line, width=10 if flowing else 4,
               dash=None if flowing else "10 8")
    for k, name in enumerate(GATES):
        ind = by_name.get(name)
        x = 30 + k * 255
        is_open = bool(ind and ind.ok)
        colour = ok if is_open else bad
        p.rect(x, 20, 225, 240, fill=pal.background, stroke=colour, rx=10)
        p.text(x + 112, 52, t(f"gate_{name}"), anchor="middle", weight="bold", size=s.TITLE_PX)
        # the valve: a disc with a bar along the pipe when open, across it when closed
        p.circle(x + 112, pipe_y, 34, fill=colour)
        if is_open:
            p.rect(x + 72, pipe_y - 6, 80, 12, fill=style.text_on(colour), rx=4)
        else:
            p.rect(x + 106, pipe_y - 40, 12, 80, fill=style.text_on(colour), rx=4)
        installed = ind.installed if ind else "?"
        minimum = ind.minimum if ind else "?"
        fitted(p, x + 12, 208, t("installed", v=installed), 205, size=20)
        fitted(p, x + 12, 240, t("needs", v=minimum), 205, size=20)
    # the lamp: lit only when the product is 1
    value = check.result.value
    lamp = pal.status["warn"] if value else pal.background
    p.circle(890, pipe_y, 58, fill=lamp, stroke=pal.ink)
    p.text(890, pipe_y + 12, "1" if value else "0", anchor="middle", size=s.BIG_PX + 6, weight="bold",
           fill=style.text_on(lamp) if value else pal.ink)
    p.text(890, 52, t("product"), anchor="middle", weight="bold", size=s.TITLE_PX)
    factors = " × ".join(str(by_name[g].value) for g in GATES if g in by_name)
    p.text(30, 320, f"Compatible = {factors} = {value}", size=s.BIG_PX, weight="bold")
    failing = [t(f"gate_{i.name}") for i in check.result.failing]
    fitted(p, 30, 362, t("closed", gates=", ".join(failing)) if failing else t("all_open"), 940, size=22)
    if value:
        cap = t("cap_open", rocm=check.minimums["rocm"], tf=COMPAT_PICKS[step][2])
    else:
        ind = check.result.failing[0]
        cap = t(f"cap_{ind.name}", v=ind.installed, m=ind.minimum, rocm=COMPAT_PICKS[step][1],
                tf=COMPAT_PICKS[step][2])
    return Frame(cap, svg=p.render(t("title")))


# --- per-op time: dispatch / kernel / sync on a timeline -------------------------------------------------------

PARTS = ("dispatch", "kernel", "sync")
OP_STEPS = ("one", "chain", "fused", "big")


@dataclass(frozen=True)
class OpTimeline:
    rows: tuple[tuple[str, fl.OpListResult], ...]  # (row label key, result)
    scale_us: float  # the time the picture's width stands for


def op_timeline(step: int) -> OpTimeline:
    rec = fl.recorded_ops()
    small, big = (rec.op_lists[k] for k in ("mlp_64", "mlp_8192"))
    name = OP_STEPS[step]
    if name == "one":
        res = fl.op_list_times(small.ops[:1], rec.dispatch_us, rec.sync_us)
        return OpTimeline((("row_one", res),), res.total_s * 1e6)
    ops = big.ops if name == "big" else small.ops
    plain = fl.op_list_times(ops, rec.dispatch_us, rec.sync_us)
    fused = fl.op_list_times(ops, rec.dispatch_us, rec.sync_us, fusion=True)
    rows = (("row_unfused", plain),) if name == "chain" else (("row_unfused", plain), ("row_fused", fused))
    return OpTimeline(rows, plain.total_s * 1e6)


def per_op_time(step: int, lang: str, theme: str = "light") -> Frame:
    t = tr(lang, "op")
    tl = op_timeline(step)
    name = OP_STEPS[step]
    rec = fl.recorded_ops()
    p = s.Svg(s.WIDTH, 0, theme)
    pal = p.pal
    x0, width = 20, 960
    px = width / tl.scale_us
    y = 40
    p.text(x0, y, t("head", device=rec.device, d=_n(rec.dispatch_us), s=_n(rec.sync_us)), size=20)
    y += 30
    for key, res in tl.rows:
        p.text(x0, y + 22, t(key, n=res.launches, total=_n(res.total_s * 1e6, 4)), weight="bold")
        y += 34
        x = x0
        for bar in res.bars:
            start = x
            for part in PARTS:
                w = getattr(bar.time, f"{part}_s") * 1e6 * px
                p.rect(x, y, max(w, 0.5), 56, fill=pal.part[part], rx=0,
                       title=f"{bar.name}: {part} {_n(getattr(bar.time, f'{part}_s') * 1e6)} µs")
                if name == "one" and w > 90:
                    label = f"{t(part)} {_n(getattr(bar.time, f'{part}_s') * 1e6)} µs"
                    fitted(p, x + 8, y + 36, label, w - 12, fill=style.text_on(pal.part[part]))
                x += w
            _bar_edge(p, start, y, 56)
        _bar_edge(p, x, y, 56)
        y += 90
    # time axis
    p.line(x0, y - 20, x0 + width, y - 20, stroke=pal.line)
    p.text(x0, y + 6, "0", size=18)
    p.text(x0 + width, y + 6, f"{_n(tl.scale_us, 4)} µs", anchor="end", size=18)
    y += 50
    last = tl.rows[-1][1]
    if name == "one":
        bar = last.bars[0]
        line = (f"T = {_n(bar.time.dispatch_s * 1e6)} + {_n(bar.time.kernel_s * 1e6)} + "
                f"{_n(bar.time.sync_s * 1e6)} = {_n(bar.time.total_s * 1e6, 4)} µs")
        cap = t("cap_one", op=bar.name, share=round(100 * bar.time.shares["kernel"]))
    elif name == "chain":
        kernel = sum(b.time.kernel_s for b in last.bars)
        line = t("kernel_share", share=round(100 * kernel / last.total_s))
        cap = t("cap_chain", n=last.launches, share=round(100 * kernel / last.total_s))
    else:
        line = t("saved", saved=_n(last.saved_s * 1e6), pct=_n(100 * last.saved_s / last.unfused_total_s, 2),
                 before=tl.rows[0][1].launches, after=last.launches)
        cap = t("cap_fused" if name == "fused" else "cap_big", saved=_n(last.saved_s * 1e6),
                pct=_n(100 * last.saved_s / last.unfused_total_s, 2))
    p.text(x0, y, line, size=s.TITLE_PX, weight="bold")
    y += 40
    legend(p, [(t(part), filled(pal.part[part])) for part in PARTS], x0, y)
    p.height = y + 26
    return Frame(cap, svg=p.render(t("title")))


# --- throughput: CPU load / host -> device / compute -------------------------------------------------------------

# The CPU time to read, decode and augment one ResNet-50 sample on one core is ILLUSTRATIVE (it depends on the CPU,
# the image size and the augmentation); the picture says so. Compute and copy come from the lab's step model.
CPU_MS_PER_SAMPLE = 2.0
PARALLEL_CALLS = 8
TP_STEPS: tuple[tuple[bool, bool], ...] = ((False, False), (True, False), (False, True), (True, True))  # prefetch, map
WINDOW_S = 2.4


@dataclass(frozen=True)
class Pipeline:
    batch: int
    t_cpu_s: float
    t_copy_s: float
    t_compute_s: float
    prefetch: bool
    workers: int
    spans: tuple[tuple[str, int, float, float], ...]  # (lane, batch index, start s, end s)

    @property
    def step_s(self) -> float:
        """The steady step time read off the timeline: between the last two compute ends."""
        ends = [end for lane, _, _, end in self.spans if lane == "compute"]
        return ends[-1] - ends[-2]

    @property
    def throughput(self) -> float:
        return self.batch / self.step_s


def pipeline(prefetch: bool, parallel: bool, batches: int = 12) -> Pipeline:
    """Schedule `batches` steps: the CPU prepares a batch, it is copied to the GPU, the GPU computes it. Without
    prefetch each stage waits for the previous step; with it the CPU prepares batch n+1 while the GPU computes n."""
    d = DEFAULTS["throughput"]
    hw, w = fl.hardware_preset(d["hw"]), fl.WORKLOADS[d["workload"]]
    wl = fl.Workload(w.gflop_per_sample, w.mb_per_sample, d["efficiency"] / 100.0, d["overhead_ms"], 0.0)
    t_compute, t_copy = fl.step_times(d["batch"], hw, wl, d["mixed"])
    workers = PARALLEL_CALLS if parallel else 1
    t_cpu = d["batch"] * CPU_MS_PER_SAMPLE * 1e-3 / workers
    spans: list[tuple[str, int, float, float]] = []
    cpu_end = gpu_end = 0.0
    for i in range(batches):
        cpu_start = cpu_end if prefetch else gpu_end
        cpu_end = cpu_start + t_cpu
        copy_start = max(cpu_end, gpu_end)
        copy_end = copy_start + t_copy
        gpu_end = copy_end + t_compute
        spans += [("cpu", i, cpu_start, cpu_end), ("copy", i, copy_start, copy_end), ("compute", i, copy_end, gpu_end)]
    return Pipeline(d["batch"], t_cpu, t_copy, t_compute, prefetch, workers, tuple(spans))


def _bar_edge(p: s.Svg, x: float, y: float, h: float) -> None:
    """Where one op's bar ends: ink ticks above and below the bar, a dark cut through it (an ink cut is white on a
    dark page, 1.8:1 against the dispatch yellow; style.CASING keeps >= 4.5:1 against every part colour)."""
    p.line(x, y - 4, x, y, stroke=p.pal.ink, width=2)
    p.line(x, y + h, x, y + h + 4, stroke=p.pal.ink, width=2)
    p.line(x, y, x, y + h, stroke=style.CASING, width=2)


def throughput(step: int, lang: str, theme: str = "light") -> Frame:
    t = tr(lang, "tp")
    prefetch, parallel = TP_STEPS[step]
    pl = pipeline(prefetch, parallel)
    p = s.Svg(s.WIDTH, 0, theme)
    pal = p.pal
    lanes = (("cpu", pal.dtype["fp32"]), ("copy", pal.part["transfer"]), ("compute", pal.vendor["AMD"]))
    label_w, x0 = 200, 210
    width = s.WIDTH - x0 - 20
    px = width / WINDOW_S
    on = lambda flag: t("on") if flag else t("off")  # noqa: E731
    fitted(p, 20, 36, t("head", prefetch=on(prefetch), workers=pl.workers), 960, size=22, weight="bold")
    y = 64
    for lane, colour in lanes:
        fitted(p, 20, y + 32, t(f"lane_{lane}"), label_w - 24, size=20)
        for name, i, start, end in pl.spans:
            if name != lane or start >= WINDOW_S:
                continue
            x, w = x0 + start * px, min(end, WINDOW_S) * px - start * px
            opacity = 1.0 if i % 2 == 0 else 0.7
            p.rect(x, y, max(w, 1.5), 46, fill=colour, opacity=opacity, rx=2,
                   title=t("span_tip", lane=t(f"lane_{lane}"), n=i + 1, ms=_n((end - start) * 1e3)))
            if w > 26:  # the number reads against the span as painted (a 0.7 span over the page)
                p.text(x + w / 2, y + 30, str(i + 1), anchor="middle", size=18,
                       fill=style.text_on(style.blend(colour, pal.background, opacity)))
        y += 60
    # the time axis, in seconds
    for k in range(int(WINDOW_S / 0.4) + 1):
        x = x0 + k * 0.4 * px
        p.line(x, y, x, y + 8, stroke=pal.line)
        p.text(x, y + 30, f"{k * 0.4:.1f} s", anchor="middle" if k else "start", size=18)
    # one step read off the timeline: between the last two compute ends inside the window
    ends = [end for name, _, _, end in pl.spans if name == "compute" and end <= WINDOW_S]
    y += 60
    if len(ends) >= 2:
        a, b = x0 + ends[-2] * px, x0 + ends[-1] * px
        p.line(a, y, b, y, stroke=pal.ink, width=3)
        p.line(a, y - 10, a, y + 10, stroke=pal.ink, width=3)
        p.line(b, y - 10, b, y + 10, stroke=pal.ink, width=3)
        label = t("one_step", ms=_n(pl.step_s * 1e3))
        lx = min(max((a + b) / 2, 20 + s.text_width(label, 20) / 2), s.WIDTH - 20 - s.text_width(label, 20) / 2)
        p.text(lx, y + 34, label, anchor="middle", size=20)
    y += 80
    formula = (f"{pl.batch} / {_n(pl.step_s, 3)} s = {_n(pl.throughput, 4)} " + t("unit"))
    p.text(20, y, formula, size=s.BIG_PX, weight="bold")
    y += 38
    parts = t("parts", cpu=_n(pl.t_cpu_s * 1e3), copy=_n(pl.t_copy_s * 1e3), compute=_n(pl.t_compute_s * 1e3))
    fitted(p, 20, y, parts, 960, size=20)
    y += 32
    fitted(p, 20, y, t("illustrative", ms=_n(CPU_MS_PER_SAMPLE)), 960, size=18, fill=pal.muted)
    p.height = y + 16
    key = ("cap_serial", "cap_prefetch", "cap_map", "cap_both")[step]
    return Frame(t(key, tp=_n(pl.throughput, 4), cpu=_n(pl.t_cpu_s * 1e3), compute=_n(pl.t_compute_s * 1e3)),
                 svg=p.render(t("title")))


# --- speedup: before / after bars under Amdahl's ceiling --------------------------------------------------------

SPEEDUP_STEPS = ("before", "after", "faster", "ceiling")
FASTER_PART = 10.0  # "what if the optimised part were 10x faster"


def speedup_rows(step: int) -> list[tuple[str, float, float]]:
    """(row key, untouched s, optimised-part s) for the rows shown at `step`."""
    d = DEFAULTS["speedup"]
    v = fl.amdahl_view(d["before"], d["after"], d["part"] / 100.0)
    rows = [("before", v.untouched_s, v.part_before_s), ("after", v.untouched_s, v.part_after_s),
            ("faster", v.untouched_s, v.part_before_s / FASTER_PART), ("ceiling", v.untouched_s, 0.0)]
    return rows[: step + 1]


def speedup(step: int, lang: str, theme: str = "light") -> Frame:
    t = tr(lang, "sp")
    d = DEFAULTS["speedup"]
    v = fl.amdahl_view(d["before"], d["after"], d["part"] / 100.0)
    rows = speedup_rows(step)
    p = s.Svg(s.WIDTH, 0, theme)
    pal = p.pal
    x0, width = 250, 600
    px = width / d["before"]
    fitted(p, 20, 36, t("head", before=_n(d["before"]), part=_n(d["part"])), 960, size=22, weight="bold")
    y = 64
    for key, untouched, part in rows:
        total = untouched + part
        fitted(p, 20, y + 34, t(f"row_{key}"), x0 - 30, size=20)
        p.rect(x0, y, untouched * px, 50, fill=pal.neutral, rx=2, title=t("untouched"))
        if part > 0:
            p.rect(x0 + untouched * px, y, part * px, 50, fill=pal.vendor["AMD"], rx=2, title=t("optimised"))
        s_value = d["before"] / total
        p.text(x0 + total * px + 10, y + 34, f"{_n(total)} s · {_n(s_value)}×", size=20, weight="bold")
        y += 74
    # the ceiling: the untouched time, however fast the part gets
    cx = x0 + v.untouched_s * px
    # over the bars: a halo of the page's colour keeps it apart from the grey (white on #9E9E9E is 2.7:1 in dark)
    p.line(cx, 52, cx, y, stroke=pal.ink, width=3, dash="8 6", casing=pal.background)
    y += 24
    p.text(20, y + 10, t("ceiling_line", ceiling=_n(v.ceiling), p=_n(d["part"])), size=s.TITLE_PX, weight="bold")
    y += 44
    legend(p, [(t("untouched"), filled(pal.neutral)), (t("optimised"), filled(pal.vendor["AMD"])),
               (t("ceiling_mark"), lambda q, x, yy, w, h: q.line(x + 11, yy, x + 11, yy + h, stroke=pal.ink,
                                                                 width=3, dash="6 4"))], 20, y)
    p.height = y + 28
    key = SPEEDUP_STEPS[step]
    cap = t(f"cap_{key}", before=_n(d["before"]), untouched=_n(v.untouched_s), part=_n(v.part_before_s),
            after=_n(d["after"]), s=_n(v.speedup), local=_n(v.local_speedup), x=_n(FASTER_PART),
            s10=_n(formulas.amdahl_speedup(v.fraction_optimised, FASTER_PART)), ceiling=_n(v.ceiling))
    return Frame(cap, svg=p.render(t("title")))

