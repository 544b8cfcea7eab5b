"""The hero picture: the CUDA and ROCm stacks side by side in a dozen groups, and one TensorFlow op (tf.matmul or
tf.nn.conv2d) flowing down both step by step, the op map M: op^CUDA -> op^HIP drawn as the bridge between them.

Headless (rocm_bridge.visual.svg). Everything drawn comes from the stack model (rocm_bridge.stack, that is
data/stack_equivalents.csv and its traces), the HIPIFY tables (data/hipify_mappings.csv: the API names on the
bridge) and TensorFlow's kernel-registry snapshots (the dtypes of the op's GPU kernels).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rocm_bridge import i18n, stack
from rocm_bridge.data import read_csv
from rocm_bridge.stack.figure import HIGHLIGHT, display_name, side_color
from rocm_bridge.visual import style, svg
from rocm_bridge.visual.pictures import Frame

# The groups, top to bottom, each with its headline layer (the one drawn) first. Every layer of the stack table
# belongs to exactly one group (tests/test_stack.py checks it), so a group's detail lists the whole table.
_GROUP_TIERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("tools", ("monitoring", "tools")),
    ("framework", ("frameworks",)),
    ("xla", ()),
    ("dl", ("dl",)),
    ("math", ("math",)),
    ("comm", ("communication", "inference")),
    ("compiler", ("programming", "compiler")),
    ("runtime", ("runtime",)),
    ("driver", ("driver",)),
    ("hardware", ("hardware",)),
)
_HEADLINE: dict[str, str] = {
    "tools": "monitoring-cli", "framework": "frameworks-tensorflow", "xla": "compiler-xla", "dl": "dl-primitives",
    "math": "math-blas", "comm": "communication", "compiler": "compiler", "runtime": "runtime-api",
    "driver": "kernel-driver", "hardware": "hardware",
}
_XLA = "compiler-xla"
TRACE_OPS: tuple[str, ...] = tuple(stack.TRACES)  # the picture's variants: "tf.matmul", "tf.nn.conv2d"

# The steps: 0 = overview, 1..6 = the op at one group, 7 = the whole path. The library group depends on the op.
STEP_GROUPS: tuple[str, ...] = ("", "framework", "xla", "library", "runtime", "driver", "hardware", "")
STEPS = len(STEP_GROUPS)

# The CUDA API call at the library and runtime steps; its HIP and ROC twins come from the HIPIFY tables.
_API_CALL: dict[str, str] = {"math-blas": "cublasSgemm", "dl-primitives": "cudnnConvolutionForward",
                             "runtime": "cudaLaunchKernel"}

W = svg.WIDTH
COL = {"label": (0, 180), "cuda": (186, 286), "hip": (488, 188), "rocm": (692, 288)}  # x, width
TOP = 88  # first row
ROW_H, PITCH, OPEN_H = 38, 43, 74  # a row, a row plus its gap, the row the op is at (two lines)
FLOW_X = 16  # the op's path runs down each column this far in from its left edge


def _t(lang: str, key: str, **params: object) -> str:
    return i18n.t(f"pictures.hero.{key}", lang, **params)


@lru_cache(maxsize=1)
def groups() -> tuple[tuple[str, tuple[stack.Layer, ...]], ...]:
    """(group id, its layers), top to bottom; the headline layer first, then the rest in the table's order."""
    out = []
    for gid, tiers in _GROUP_TIERS:
        members = [la for la in stack.layers() if la.tier in tiers and la.slug != _XLA]
        if gid == "xla":
            members = [stack.layer(_XLA)]
        head = stack.layer(_HEADLINE[gid])
        out.append((gid, (head, *[la for la in members if la.slug != head.slug])))
    return tuple(out)


def group_of(layer_slug: str) -> str:
    return next(gid for gid, layers in groups() if any(la.slug == layer_slug for la in layers))


def step_group(step: int, op: str) -> str:
    """The group the op is at in `step` ("" in the overview and the last step)."""
    gid = STEP_GROUPS[step]
    return group_of(stack.trace(op).library_layer) if gid == "library" else gid


def path_groups(op: str) -> tuple[str, ...]:
    return tuple(step_group(s, op) for s in range(1, STEPS - 1))


@lru_cache(maxsize=8)
def api_twins(cuda_name: str) -> tuple[str, str]:
    """(HIP name, ROC name) of a CUDA API name in the HIPIFY tables ("" where the table has none)."""
    hip = roc = ""
    for row in read_csv(stack.HIPIFY_CSV):
        if row["cuda_name"] == cuda_name and row["hip_name"]:
            if row["variant"] == "hip":
                hip = hip or row["hip_name"]
            else:
                roc = roc or row["hip_name"]
    return hip, roc


@dataclass(frozen=True)
class Cell:
    text: str
    second: str = ""  # the open row's second line (an API name, a dtype count ...)
    more: int = 0  # further layers in the group ("+N")


def _cells(gid: str, layers: tuple[stack.Layer, ...], op: str, lang: str, open_: bool) -> dict[str, Cell | None]:
    tr_ = stack.trace(op)
    head = layers[0]
    out: dict[str, Cell | None] = {}
    for side in stack.SIDES:
        cid = head.component_id(side)
        more = sum(1 for la in layers[1:] if la.component_id(side))
        name = _name(cid, lang) if cid else ""
        if cid is None and not more:
            out[side] = None
            continue
        second = ""
        if open_:
            if gid == "framework":
                second = op if side != "hip" else tr_.raw_op
            elif gid == "xla" and side != "hip":
                n = len(stack.gpu_kernel_dtypes(tr_.raw_op, side))
                second = _t(lang, "dtypes", op=tr_.raw_op, n=n)
            elif gid in ("dl", "math"):
                cuda_call = _API_CALL[tr_.library_layer]
                hip_call, roc_call = api_twins(cuda_call)
                second = {"cuda": cuda_call, "hip": hip_call, "rocm": roc_call}[side]
            elif gid == "runtime":
                hip_call, _ = api_twins(_API_CALL["runtime"])
                second = {"cuda": _API_CALL["runtime"], "hip": hip_call, "rocm": hip_call}[side]
            elif gid == "driver" and side != "hip":
                second = _t(lang, f"driver_{side}")
            elif gid == "hardware" and side != "hip":
                second = _t(lang, f"lanes_{side}")
        if gid == "framework" and side == "hip":
            name = ""
        if gid == "runtime" and side != "hip" and open_:  # both runtime layers: the API over the low-level one
            name, more = _t(lang, f"runtime_{side}"), more - 1
        out[side] = Cell(name, second, max(more, 0)) if (name or second) else None
    return out


def _name(cid: str, lang: str) -> str:
    """The block's label: the stack's short name without its remark ("RCCL (NCCL API)" -> "RCCL"), or the
    picture's own shorter one where the stack's is a description ("NVIDIA data-center GPU" -> "NVIDIA GPU")."""
    key = f"pictures.hero.name.{cid}"
    if i18n.has(key):
        return i18n.t(key, lang)
    name = display_name(stack.component(cid), lang)
    return stack.short_name(name) if stack.component(cid).side == "hip" else name


def _box(doc: svg.Svg, side: str, y: float, h: float, cell: Cell, *, lit: bool, dim: bool, current: bool,
         lang: str) -> None:
    x, w = COL[side]
    pal = doc.pal
    base = side_color(side, doc.theme)
    fill = style.blend(base, pal.background, 0.28) if dim else base
    ink = style.text_on(fill)
    doc.rect(x, y, w, h, fill=fill, stroke=HIGHLIGHT if current else (pal.ink if lit else None), rx=8)
    left = x + (FLOW_X + 16 if side != "hip" else 12)
    more = f"+{cell.more}" if cell.more else ""
    more_w = svg.text_width(more, 18) + 10 if more else 0
    room = x + w - left - 10 - more_w
    if cell.text:
        text, size = svg.fitted(cell.text, svg.LABEL_PX, room)
        doc.text(left, y + 26, text, size=size, fill=ink, weight="bold" if lit or current else "normal")
    if more:
        doc.text(x + w - 10, y + 26, more, size=18, fill=ink, anchor="end")
    if cell.second and h > ROW_H:
        mono = _is_code(cell.second)
        text, size = svg.fitted(cell.second, svg.LABEL_PX, x + w - left - 10, mono)
        doc.text(left, y + 60, text, size=size, fill=ink, mono=mono)


def _is_code(text: str) -> bool:
    return text.isascii() and " " not in text and any(c.islower() for c in text)


def build(step: int, lang: str, theme: str = "light", op: str = "tf.matmul") -> Frame:
    """The hero at `step` (0: the two stacks; 1-6: the op at framework, XLA / kernel selection, library, runtime,
    driver, GPU; 7: the whole path and the op map)."""
    tr_ = stack.trace(op)
    at = step_group(step, op)
    path = path_groups(op)
    lit = set(path[:step]) if step < STEPS - 1 else set(path)
    open_group = at or (group_of(tr_.library_layer) if step == STEPS - 1 else "")
    rows = groups()
    height = TOP + PITCH * len(rows) + (OPEN_H - ROW_H) + 48
    doc = svg.Svg(W, height, theme)
    pal = doc.pal
    # the headline: which op, which step
    names = {"op": op, "raw": tr_.raw_op, **_map_names(op),
             **{f"lib_{side}": short_name(stack.component(f"{side}.{tr_.library_layer}"))
                for side in stack.SIDES}}
    head = _t(lang, f"step{step}", **names)
    text, size = svg.fitted(head, svg.TITLE_PX, W - 16)
    doc.text(8, 30, text, size=size, weight="bold")
    for side in stack.SIDES:
        x, w = COL[side]
        label = _t(lang, f"col_{side}")
        doc.text(x + w / 2, 70, label, size=svg.fit(label, svg.LABEL_PX, w), anchor="middle", weight="bold",
                 fill=pal.ink)
    y = TOP
    centres: dict[str, tuple[float, float]] = {}  # group -> (top, bottom) of its row
    for gid, layers in rows:
        open_ = gid == open_group
        h = OPEN_H if open_ else ROW_H
        label = _t(lang, f"group_{gid}")
        label, lsize = svg.fitted(label, svg.LABEL_PX, COL["label"][1] - 8)
        doc.text(COL["label"][0] + 4, y + 26, label, size=lsize,
                 weight="bold" if gid in lit or open_ else "normal", fill=pal.ink if (step == 0 or gid in lit or open_)
                 else pal.muted)
        cells = _cells(gid, layers, op, lang, open_)
        dim = step > 0 and gid not in lit and not open_
        for side, cell in cells.items():
            if cell is not None:
                _box(doc, side, y, h, cell, lit=gid in lit, dim=dim, current=open_ and step < STEPS - 1, lang=lang)
        # the bridge: CUDA -> HIP -> ROCm where the layer has a HIP twin
        if cells.get("hip") is not None and cells.get("cuda") is not None:
            strong = step == 0 or open_ or (step == STEPS - 1 and gid in lit)
            colour = side_color("hip", theme) if strong else style.faded(side_color("hip", theme), pal.background, 0.35)
            mid = y + (26 if not open_ else 44)
            cx, cw = COL["cuda"]
            hx, hw = COL["hip"]
            rx, _ = COL["rocm"]
            doc.line(cx + cw + 1, mid, hx - 2, mid, stroke=colour, width=3 if strong else 2, arrow=strong)
            doc.line(hx + hw + 1, mid, rx - 2, mid, stroke=colour, width=3 if strong else 2, arrow=strong)
        centres[gid] = (y, y + h)
        y += h + (PITCH - ROW_H)
    # the op's path down both stacks, to the group it has reached
    reached = [g for g in path if g in lit or g == at]
    for side in ("cuda", "rocm"):
        x = COL[side][0] + FLOW_X
        for a, b in zip(reached, reached[1:], strict=False):
            # cased: the highlight alone is 1.3:1 against NVIDIA green, 1.1:1 against a dimmed AMD block
            doc.line(x, centres[a][0] + 20, x, centres[b][0] + 12, stroke=HIGHLIGHT, width=5, arrow=False,
                     casing=style.CASING)
        for g in reached:
            doc.circle(x, centres[g][0] + 19, 8 if g == at else 6, fill=HIGHLIGHT, stroke=pal.ink)
    # the op map, under the picture
    legend = _t(lang, "map0" if step == 0 else "map", **names)
    legend, lsize = svg.fitted(legend, svg.LABEL_PX, W - 16)
    doc.text(8, height - 14, legend, size=lsize, fill=pal.ink)
    caption = _t(lang, f"caption{step}", **names)
    return Frame(caption, svg=doc.render(f"{_t(lang, 'label')} — {head}"))


def short_name(comp: stack.Component) -> str:
    """A library's name without the data's remark ("hipDNN (HIPIFY tables)" -> "hipDNN")."""
    return stack.short_name(comp.name)


def _map_names(op: str) -> dict[str, str]:
    cuda_call = _API_CALL[stack.trace(op).library_layer]
    hip_call, roc_call = api_twins(cuda_call)
    return {"cuda": cuda_call, "hip": hip_call, "roc": roc_call}
