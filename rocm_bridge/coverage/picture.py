"""The coverage picture (chapter 5 and /coverage): every node of a traced example graph as a dot, coloured by
what the kernel registry says about it (GPU kernel, DEFAULT kernel, missing dtype, no GPU kernel at all).

Headless, no TensorFlow: the nodes are the recorded example (data/example_model_ops.json), the verdicts come from
the bundled registry snapshots (data/tf_kernel_registry) through rocm_bridge.coverage.analyze.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rocm_bridge import coverage, i18n
from rocm_bridge.coverage.analysis import CoverageReport, node_status
from rocm_bridge.coverage.chart import status_colors
from rocm_bridge.coverage.registry import COVERED, STATUSES
from rocm_bridge.coverage.trace import OpNode
from rocm_bridge.visual import svg as s
from rocm_bridge.visual.pictures import Frame
from rocm_bridge.wavefront.draw import filled, fitted, legend, off_cell, tr

MODEL = coverage.DEFAULT_EXAMPLE  # cnn_mixed_bf16: a real gap on ROCm 2.14 (no bfloat16 Relu kernel)
TARGETS = {"cuda": "cuda-2.14", "rocm": "rocm-2.14"}
# String ops of a text input pipeline traced into the same graph (tf.raw_ops names): no GPU kernel in any build.
PIPELINE_OPS = ("StringSplit", "StringToHashBucketFast")
STEPS = ("traced", "cuda", "rocm", "pipeline")
COLS, DOT = 30, 20


@dataclass(frozen=True)
class CoverageView:
    nodes: tuple[OpNode, ...]  # in drawing order
    report: CoverageReport | None  # None: traced, not yet checked
    status: tuple[str, ...]  # per node ("" before the check)




@lru_cache(maxsize=8)
def view(step: int) -> CoverageView:
    name = STEPS[step]
    nodes = list(coverage.example_nodes(MODEL))
    if name == "pipeline":
        nodes += [OpNode(op) for op in PIPELINE_OPS]
    nodes.sort(key=lambda n: (coverage.PHASES.index(n.phase) if n.phase in coverage.PHASES else 9, n.op))
    if name == "traced":
        return CoverageView(tuple(nodes), None, ("",) * len(nodes))
    registry = coverage.resolve(TARGETS["cuda" if name == "cuda" else "rocm"])
    report = coverage.analyze(nodes, registry, MODEL)
    return CoverageView(tuple(nodes), report, tuple(node_status(registry, n) for n in nodes))


def coverage_picture(step: int, lang: str, theme: str = "light") -> Frame:
    t = tr(lang, "cov")
    v = view(step)
    name = STEPS[step]
    p = s.Svg(s.WIDTH, 0, theme)
    pal = p.pal
    colours = status_colors(theme)
    registry = TARGETS["cuda" if name == "cuda" else "rocm"]
    head = t("head_traced", model=MODEL, n=len(v.nodes)) if v.report is None else \
        t("head", model=MODEL, n=len(v.nodes), registry=coverage.resolve(registry).label)
    fitted(p, 20, 36, head, 960, size=22, weight="bold")
    top = 60
    for i, (node, status) in enumerate(zip(v.nodes, v.status, strict=True)):
        x, y = 20 + (i % COLS) * DOT, top + (i // COLS) * DOT
        tip = f"{node.op} ({', '.join(node.dtypes) or '-'})"
        if status:
            p.rect(x + 1, y + 1, DOT - 3, DOT - 3, fill=colours[status], rx=8, title=tip)
        else:
            off_cell(p, x + 1, y + 1, DOT - 3, DOT - 3, tip)
    rows = -(-len(v.nodes) // COLS)
    # the right column: what is not on the GPU, op by op
    rx = 20 + COLS * DOT + 24
    width = s.WIDTH - rx - 20
    y = 82
    if v.report is None:
        fitted(p, rx, y, t("types", n=len({n.op for n in v.nodes})), width, size=20)
    else:
        gaps = [r for r in v.report.rows if not r.covered]
        p.text(rx, y, t("gaps") if gaps else t("no_gaps"), weight="bold")
        for r in gaps:
            y += 34
            why = t("why_dtype", dtypes=", ".join(r.missing_dtypes)) if r.missing_dtypes else \
                i18n.t(f"coverage.status.{r.status}", lang)
            fitted(p, rx, y, f"{r.op} ×{r.nodes}", width, size=20, fill=pal.ink, weight="bold")
            y += 28
            fitted(p, rx + 12, y, why, width - 12, size=18)
    y = max(top + rows * DOT + 50, y + 50)
    if v.report is not None:
        rep = v.report
        p.text(20, y, t("r_ops", ok=rep.n_ops_covered, n=rep.n_ops, r=f"{rep.r_ops:.1%}"), size=s.BIG_PX, weight="bold")
        y += 38
        fitted(p, 20, y, t("r_nodes", ok=rep.n_nodes_covered, n=rep.n_nodes, r=f"{rep.r_nodes:.1%}"), 960, size=22)
        y += 40
    shown = [st for st in STATUSES if st in set(v.status)]
    items = [(i18n.t(f"coverage.status.{st}", lang), filled(colours[st])) for st in shown] or \
        [(t("unchecked"), off_cell)]
    # two legend rows at most: the labels are long
    first, second = items[:2], items[2:]
    legend(p, first, 20, y)
    if second:
        y += 36
        legend(p, second, 20, y)
    p.height = y + 26
    if v.report is None:
        cap = t("cap_traced", n=len(v.nodes), types=len({n.op for n in v.nodes}))
    else:
        rep = v.report
        fallback = sum(c for st, c in rep.status_nodes.items() if st not in COVERED)
        cap = t(f"cap_{name}", r=f"{rep.r_ops:.1%}", ok=rep.n_ops_covered, n=rep.n_ops, k=fallback,
                ops=", ".join(PIPELINE_OPS), gaps=", ".join(r.op for r in rep.rows if r.missing_dtypes))
    return Frame(cap, svg=p.render(t("title")))
