"""Chapter 10's picture: one MI300X and what "one GPU" means under its compute partitions (SPX, DPX, QPX, CPX) and
memory partitions (NPS1, NPS4).

Headless SVG (rocm_bridge.visual.svg). The CU and XCD counts and the memory size come from data/gpu_specs.csv (the
MI300X row: "304 (38 per XCD, 8 XCDs)", 192 GB); the layout (4 AIDs, each with 2 XCDs and 2 HBM stacks) and the
partition counts (SPX 1, DPX 2, QPX 4, CPX 8 GPUs) from AMD SMI's GPU-partitioning guide.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rocm_bridge import i18n
from rocm_bridge.data import read_csv
from rocm_bridge.visual import style, svg
from rocm_bridge.visual.pictures import Frame

MODEL = "Instinct MI300X"
AIDS = 4  # active interposer dies; each carries 2 XCDs and 2 HBM stacks (AMD SMI partitioning guide)
STACKS_PER_AID = 2
SOURCES: tuple[str, ...] = (
    "data/gpu_specs.csv (Instinct MI300X: CUs per XCD, XCDs, memory)",
    "https://rocm.docs.amd.com/projects/amdsmi/en/latest/conceptual/partition.html",
    "https://rocm.blogs.amd.com/software-tools-optimization/compute-memory-modes/README.html",
)
# (compute mode, memory mode) per step; step 0 is the package without a partition drawn
MODES: tuple[tuple[str, str], ...] = (("", ""), ("SPX", "NPS1"), ("DPX", "NPS1"), ("QPX", "NPS1"), ("CPX", "NPS1"),
                                      ("CPX", "NPS4"))
GPUS = {"SPX": 1, "DPX": 2, "QPX": 4, "CPX": 8}
DOMAINS = {"NPS1": 1, "NPS4": 4}
STEPS = len(MODES)
# one colour per logical GPU (Okabe & Ito, as the rest of the app)
_GPU_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999")


@dataclass(frozen=True)
class Chip:
    xcds: int
    cus_per_xcd: int
    memory_gb: int

    @property
    def cus(self) -> int:
        return self.xcds * self.cus_per_xcd


@lru_cache(maxsize=1)
def chip() -> Chip:
    """The MI300X's XCDs, CUs per XCD and memory from data/gpu_specs.csv."""
    row = next(r for r in read_csv("gpu_specs.csv") if r["model"] == MODEL)
    per, xcds = re.search(r"(\d+) per XCD, (\d+) XCDs", row["compute_units_or_sms"]).groups()
    total = int(row["compute_units_or_sms"].split()[0])
    out = Chip(int(xcds), int(per), int(float(row["memory_gb"])))
    if out.cus != total:
        raise ValueError(f"gpu_specs.csv: {MODEL} CUs {total} != {xcds} x {per}")
    return out


def _t(lang: str, key: str, **params: object) -> str:
    return i18n.t(f"pictures.mi300x.{key}", lang, **params)


W = svg.WIDTH
PKG_X, PKG_Y, PKG_W = 16, 52, 968
AID_W, AID_GAP = 230, 8
XCD_H, HBM_H = 118, 66


def build(step: int, lang: str, theme: str = "light") -> Frame:
    c = chip()
    mode, nps = MODES[step]
    gpus = GPUS.get(mode, 0)
    per_gpu = c.xcds // gpus if gpus else 0
    domains = DOMAINS.get(nps, 0)
    doc = svg.Svg(W, 452, theme)
    pal = doc.pal
    if step == 0:
        head = _t(lang, "head0", xcds=c.xcds, cus=c.cus, mem=c.memory_gb)
    else:
        head = _t(lang, "head", mode=mode, nps=nps, gpus=gpus, cus=per_gpu * c.cus_per_xcd)
    text, size = svg.fitted(head, svg.TITLE_PX, W - 32)
    doc.text(16, 32, text, size=size, weight="bold")
    pkg_h = 20 + XCD_H + 16 + HBM_H + 44
    doc.rect(PKG_X, PKG_Y, PKG_W, pkg_h, fill=pal.background, stroke=pal.line, rx=14)
    xcd_w = (AID_W - 3 * 8) / 2
    for aid in range(AIDS):
        ax = PKG_X + 12 + aid * (AID_W + AID_GAP)
        ay = PKG_Y + 12
        doc.rect(ax, ay, AID_W, pkg_h - 24, fill=style.blend(pal.neutral, pal.background, 0.18), rx=10)
        doc.text(ax + AID_W / 2, ay + pkg_h - 24 - 10, f"AID {aid}", size=18, anchor="middle", fill=pal.ink)
        for k in range(2):
            xcd = aid * 2 + k
            x = ax + 8 + k * (xcd_w + 8)
            y = ay + 8
            if gpus:
                gpu = xcd // per_gpu
                fill = _GPU_COLOURS[gpu % len(_GPU_COLOURS)]
            else:
                gpu, fill = -1, style.blend(pal.vendor["AMD"], pal.background, 0.85)
            ink = style.text_on(fill)
            doc.rect(x, y, xcd_w, XCD_H, fill=fill, stroke=pal.ink, rx=6)
            doc.text(x + xcd_w / 2, y + 30, f"XCD {xcd}", size=svg.LABEL_PX, anchor="middle", fill=ink, weight="bold")
            doc.text(x + xcd_w / 2, y + 62, _t(lang, "cus", n=c.cus_per_xcd), size=18, anchor="middle", fill=ink)
            if gpu >= 0:
                doc.text(x + xcd_w / 2, y + 98, f"GPU {gpu}", size=svg.LABEL_PX, anchor="middle", fill=ink,
                         weight="bold")
        # memory: two HBM stacks per AID
        my = ay + 8 + XCD_H + 16
        stack_gb = c.memory_gb // (AIDS * STACKS_PER_AID)
        for k in range(STACKS_PER_AID):
            x = ax + 8 + k * (xcd_w + 8)
            doc.rect(x, my, xcd_w, HBM_H, fill=style.blend(pal.line, pal.background, 0.35), rx=6)
            doc.text(x + xcd_w / 2, my + 26, "HBM3", size=18, anchor="middle", fill=pal.ink)
            doc.text(x + xcd_w / 2, my + 55, f"{stack_gb} GB", size=18, anchor="middle", fill=pal.ink)
    # GPU outlines around the XCDs each logical GPU owns
    if gpus:
        for g in range(gpus):
            first, last = g * per_gpu, (g + 1) * per_gpu - 1
            x0 = _xcd_x(first, xcd_w) - 4
            x1 = _xcd_x(last, xcd_w) + xcd_w + 4
            doc.add(f'<rect x="{x0:g}" y="{PKG_Y + 16:g}" width="{x1 - x0:g}" height="{XCD_H + 8:g}" rx="9" '
                    f'fill="none" stroke="{pal.ink}" stroke-width="3"/>')
    # memory domains: NPS1 one band under all stacks, NPS4 one per AID
    band_y = PKG_Y + pkg_h + 10
    if domains:
        span = AIDS // domains
        for d in range(domains):
            x0 = PKG_X + 12 + d * span * (AID_W + AID_GAP)
            x1 = PKG_X + 12 + (d + 1) * span * (AID_W + AID_GAP) - AID_GAP
            colour = pal.part["kernel"]
            doc.rect(x0, band_y, x1 - x0, 36, fill=colour, rx=6)
            label = _t(lang, "domain", d=d, gb=c.memory_gb // domains)
            text, lsize = svg.fitted(label, 18, x1 - x0 - 12)
            doc.text((x0 + x1) / 2, band_y + 25, text, size=lsize, anchor="middle", fill=style.text_on(colour))
    # what the software sees, and the command that sets it
    sees = (_t(lang, "sees0", cus=c.cus, xcds=c.xcds, per=c.cus_per_xcd) if not gpus else
            _t(lang, f"sees_{nps}", gpus=gpus, cus=per_gpu * c.cus_per_xcd, gb=c.memory_gb // domains))
    text, s1 = svg.fitted(sees, svg.LABEL_PX, W - 32)
    doc.text(16, band_y + 72, text, size=s1, weight="bold", fill=pal.ink)
    if gpus:
        cmd = f"amd-smi set --compute-partition {mode}" + (f"  ·  amd-smi set --memory-partition {nps}" if step in (1, 5)
                                                          else "")
        text, s2 = svg.fitted(cmd, 18, W - 32, mono=True)
        doc.text(16, band_y + 104, text, size=s2, mono=True, fill=pal.ink)
    caption = _t(lang, f"caption{step}", xcds=c.xcds, cus=c.cus, per=c.cus_per_xcd, mem=c.memory_gb)
    return Frame(caption, svg=doc.render(_t(lang, "label")))


def _xcd_x(xcd: int, xcd_w: float) -> float:
    aid, k = divmod(xcd, 2)
    return PKG_X + 12 + aid * (AID_W + AID_GAP) + 8 + k * (xcd_w + 8)
