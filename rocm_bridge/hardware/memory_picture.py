"""Chapter 12's picture: where a load goes on an MI300X (lane / VGPRs, LDS and L1 per CU, L2 per XCD, Infinity
Cache, HBM3), then the round-robin dispatch of consecutive workgroups over the XCDs and what it does to L2 reuse
(the story's "eight trips for one tub"), then the workgroup-id remap of the chapter's code.

Headless SVG (rocm_bridge.visual.svg). From data/gpu_specs.csv (the MI300X row): XCDs, CUs per XCD, HBM size and
bandwidth, the 256 MiB Infinity Cache (its notes); from data/amdgpu_targets.csv (gfx940, the MI300 instruction set
gfx942 shares): the VGPR file and LDS per CU. The L1 (32 KiB per CU) and L2 (4 MiB per XCD) sizes are not in those
tables: ROCm's GPU specifications page (the Picture row's source), as chapter 12 cites it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rocm_bridge import i18n
from rocm_bridge.data import read_csv
from rocm_bridge.hardware import partitions
from rocm_bridge.visual import style
from rocm_bridge.visual import svg as s
from rocm_bridge.visual.pictures import Frame

TARGET = "gfx940"  # data/amdgpu_targets.csv row of the MI300 instruction set (gfx942 shares it)
L1_KIB = 32  # vector L1 per CU: ROCm GPU specifications (MI300X)
L2_MIB = 4  # L2 per XCD: ROCm GPU specifications (MI300X)
STEPS = ("regs", "l1", "l2", "mall", "hbm", "rr", "remap")
GRID = 64  # workgroups drawn in the dispatch steps: 8 per XCD
GROUP = 8  # consecutive workgroups that share one operand (one "tub")


@dataclass(frozen=True)
class Levels:
    xcds: int
    cus_per_xcd: int
    vgpr_kib: int
    lds_kib: int
    l1_kib: int
    l2_mib: int
    mall_mib: int
    hbm_gb: int
    hbm_tbs: float


@lru_cache(maxsize=1)
def levels() -> Levels:
    chip = partitions.chip()
    row = next(r for r in read_csv("gpu_specs.csv") if r["model"] == partitions.MODEL)
    mall = re.search(r"(\d+) MiB Infinity Cache", row["notes"])
    if mall is None:
        raise ValueError("gpu_specs.csv: the MI300X notes no longer give the Infinity Cache size")
    target = next(r for r in read_csv("amdgpu_targets.csv") if r["target"] == TARGET)
    return Levels(chip.xcds, chip.cus_per_xcd, int(target["vgpr_file_kib_docs"]),
                  int(target["lds_per_cu_bytes"]) // 1024, L1_KIB, L2_MIB, int(mall.group(1)), chip.memory_gb,
                  float(row["memory_bandwidth_tbs"]))


def placement(xcds: int, n: int = GRID, remap: bool = False) -> list[list[int]]:
    """The tiles each XCD works on, in the order it receives them. The hardware sends workgroup `wg` to XCD
    wg % xcds (SPX); with the chapter's remap that workgroup works on tile xcd * (n / xcds) + wg // xcds."""
    out: list[list[int]] = [[] for _ in range(xcds)]
    for wg in range(n):
        xcd, slot = wg % xcds, wg // xcds
        out[xcd].append(xcd * (n // xcds) + slot if remap else wg)
    return out


def l2_fills(xcds: int, n: int = GRID, group: int = GROUP, remap: bool = False) -> int:
    """How many times a shared operand is brought into an L2: one fill per (XCD, group of tiles sharing it)."""
    return sum(len({tile // group for tile in tiles}) for tiles in placement(xcds, n, remap))


# --- drawing ---------------------------------------------------------------------------------------------------

LEFT_W = 300  # the one-CU panel
COL_X0 = 340  # the XCD columns
COL_GAP = 8
HBM_Y, MALL_Y, BAR_H = 16, 92, 56
L2_Y, L2_H = 172, 66
CU_Y = 274
CELL_H = 27
GROUP_COLOURS = partitions._GPU_COLOURS


def _tr(lang: str):
    return lambda key, /, **params: i18n.t(f"pictures2.mem.{key}", lang, **params)


def _box(p: s.Svg, x: float, y: float, w: float, h: float, on: bool, lines: list[str], tint: str) -> None:
    pal = p.pal
    fill = style.blend(tint, pal.background, 0.45 if on else 0.12)
    p.rect(x, y, w, h, fill=fill, stroke=pal.ink if on else pal.line, rx=8)
    if on:
        p.rect(x - 4, y - 4, w + 8, h + 8, fill="none", stroke=pal.ink, rx=10)
    gap = 30
    top = y + h / 2 - (len(lines) - 1) * gap / 2 + 7
    for i, line in enumerate(lines):
        text, size = s.fitted(line, 20, w - 12)
        p.text(x + w / 2, top + i * gap, text, size=size, anchor="middle", weight="bold" if i == 0 else "normal")


def build(step: int, lang: str, theme: str = "light") -> Frame:
    lv = levels()
    _t = _tr(lang)
    name = STEPS[step]
    at = STEPS.index(name)
    dispatch = name in ("rr", "remap")
    p = s.Svg(s.WIDTH, 0, theme)
    pal = p.pal
    amd = pal.vendor["AMD"]
    mem = pal.neutral
    col_w = (s.WIDTH - 20 - COL_X0 - (lv.xcds - 1) * COL_GAP) / lv.xcds

    def xcd_x(i: int) -> float:
        return COL_X0 + i * (col_w + COL_GAP)

    right = xcd_x(lv.xcds - 1) + col_w
    _box(p, 20, HBM_Y, right - 20, BAR_H, name == "hbm",
         [_t("hbm", gb=lv.hbm_gb, tbs=f"{lv.hbm_tbs:g}")], mem)
    _box(p, 20, MALL_Y, right - 20, BAR_H, name in ("mall", "rr", "remap"),
         [_t("mall", mib=lv.mall_mib, n=lv.xcds)], mem)
    cu_h = lv.xcds * CELL_H + 14
    for i in range(lv.xcds):
        x = xcd_x(i)
        _box(p, x, L2_Y, col_w, L2_H, name == "l2" or dispatch, ["L2", f"{lv.l2_mib} MiB"], amd)
        p.text(x + col_w / 2, L2_Y + L2_H + 26, f"XCD {i}", size=18, anchor="middle", weight="bold")
    # the one-CU panel: lane -> VGPRs, LDS, L1 (inside one of the 38 CUs of XCD 0)
    panel_h = 4 * 62 + 56
    p.rect(20, L2_Y, LEFT_W, panel_h, fill=pal.background, stroke=pal.line, rx=10)
    p.text(20 + LEFT_W / 2, L2_Y + 30, _t("one_cu", n=lv.cus_per_xcd), size=20, anchor="middle", weight="bold")
    y = L2_Y + 48
    for key, on, vals in (("l1", name == "l1", {"kib": lv.l1_kib}), ("lds", name == "regs", {"kib": lv.lds_kib}),
                          ("vgpr", name == "regs", {"kib": lv.vgpr_kib}), ("lane", name == "regs", {})):
        _box(p, 36, y, LEFT_W - 32, 50, on, [_t(key, **vals)], amd if key != "lane" else pal.status["ok"])
        y += 62
    # the load's path up the levels, drawn to the level this step shows
    if at >= 3 and not dispatch:
        p.line(xcd_x(0) + col_w / 2, L2_Y - 4, xcd_x(0) + col_w / 2, MALL_Y + BAR_H + 6, stroke=pal.ink, width=3,
               arrow=True)
    if at >= 4 and not dispatch:
        p.line(xcd_x(0) + col_w / 2, MALL_Y - 4, xcd_x(0) + col_w / 2, HBM_Y + BAR_H + 6, stroke=pal.ink, width=3,
               arrow=True)
    y0 = CU_Y + 40
    bottom = max(L2_Y + panel_h, y0 - 6 + cu_h)  # the same height in every step: the picture does not jump
    if not dispatch:  # each XCD's CUs, where the dispatch steps put the workgroups
        p.text(xcd_x(0), CU_Y + 22, _t("cus", n=lv.cus_per_xcd * lv.xcds, x=lv.xcds), size=18, weight="bold")
        for i in range(lv.xcds):
            x = xcd_x(i)
            p.rect(x, y0 - 6, col_w, cu_h, fill=style.blend(amd, pal.background, 0.12), stroke=pal.line, rx=6)
            p.text(x + col_w / 2, y0 + cu_h / 2 - 14, f"{lv.cus_per_xcd}", size=24, anchor="middle", weight="bold")
            p.text(x + col_w / 2, y0 + cu_h / 2 + 14, _t("cu_unit"), size=18, anchor="middle")
    else:
        remap = name == "remap"
        tiles = placement(lv.xcds, GRID, remap)
        text, size = s.fitted(_t("grid_remap" if remap else "grid_rr", n=GRID), 20, right - xcd_x(0))
        p.text(xcd_x(0), CU_Y + 22, text, size=size, weight="bold")
        for i, column in enumerate(tiles):
            x = xcd_x(i)
            p.rect(x, y0 - 6, col_w, cu_h, fill=pal.background, stroke=pal.line, rx=6)
            for j, tile in enumerate(column):
                colour = style.blend(GROUP_COLOURS[(tile // GROUP) % len(GROUP_COLOURS)], "#FFFFFF", 0.6)
                cy = y0 + j * CELL_H
                p.rect(x + 6, cy, col_w - 12, CELL_H - 4, fill=colour, rx=4,
                       title=_t("tile_tip", tile=tile, wg=i + j * lv.xcds, xcd=i))
                p.text(x + col_w / 2, cy + CELL_H - 9, str(tile), size=18, anchor="middle", fill="#000000")
        # the trips: one arrow from the Infinity Cache into each L2 that fetches the first group's operand
        fetchers = [i for i, column in enumerate(tiles) if any(tile // GROUP == 0 for tile in column)]
        for i in fetchers:
            x = xcd_x(i) + col_w / 2
            p.line(x, MALL_Y + BAR_H + 4, x, L2_Y - 6, stroke=GROUP_COLOURS[0], width=4, arrow=True)
    fills = l2_fills(lv.xcds, GRID, GROUP, name == "remap")
    lines = {
        "regs": [_t("regs_1", vgpr=lv.vgpr_kib, lds=lv.lds_kib), _t("regs_2")],
        "l1": [_t("l1_1", kib=lv.l1_kib), _t("l1_2")],
        "l2": [_t("l2_1", mib=lv.l2_mib, n=lv.xcds, total=lv.l2_mib * lv.xcds, cus=lv.cus_per_xcd), _t("l2_2")],
        "mall": [_t("mall_1", mib=lv.mall_mib, n=lv.xcds), _t("mall_2")],
        "hbm": [_t("hbm_1", gb=lv.hbm_gb, tbs=f"{lv.hbm_tbs:g}"), _t("hbm_2")],
        "rr": [_t("rr_1", n=lv.xcds), _t("rr_2", g=GRID // GROUP, fills=fills, n=lv.xcds)],
        "remap": [_t("remap_1"), _t("remap_2", g=GRID // GROUP, fills=fills)],
    }[name]
    y = bottom + 44
    for i, line in enumerate(lines):
        text, size = s.fitted(line, 22, 960)
        p.text(20, y, text, size=size, weight="bold" if i == 0 else "normal")
        y += 34
    if name == "remap":
        code = "int tile = xcd * (nblocks / 8) + slot;   // xcd = wg % 8, slot = wg / 8"
        text, size = s.fitted(code, 20, 940, mono=True)
        p.rect(20, y - 22, 960, 40, fill=pal.neutral, opacity=0.15, rx=6)
        p.text(30, y + 5, text, size=size, mono=True)
        y += 40
    p.height = y
    return Frame(_t(f"cap_{name}", n=lv.xcds, fills=fills), svg=p.render(_t("title")))
