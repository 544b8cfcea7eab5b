"""Chapter 9's pictures: the wavefront's 64 lanes against a 32-lane warp, LDS banks, and a SIMD's wave slots.

Builders are called as build(step, lang, theme) -> Frame (rocm_bridge.visual.pictures); every number comes from
the models in rocm_bridge.wavefront and rocm_bridge.compile.occupancy.
"""

from __future__ import annotations

from dataclasses import dataclass

from rocm_bridge import wavefront as wf
from rocm_bridge.visual import style
from rocm_bridge.visual import svg as s
from rocm_bridge.visual.pictures import Frame
from rocm_bridge.wavefront.draw import dark_cell, filled, fitted, legend, off_cell, spans, tr

# --- the wavefront -----------------------------------------------------------------------------------------

WAVE_STEPS = ("warp", "wave", "ballot", "reduce", "fix")
MASK32 = 0xFFFFFFFF
CELL, GAP, X0 = 26, 2, 62


def _votes(wave: int) -> tuple[bool, ...]:
    return tuple(lane % 3 == 0 for lane in range(wave))


@dataclass(frozen=True)
class WaveState:
    """What a step shows: per lane of the warp and of the wavefront, "on", "off" or "dark"."""

    warp: tuple[str, ...]
    wave: tuple[str, ...]
    facts: dict


def wave_state(step: str) -> WaveState:
    """The lanes each step lights, from the lane model (tests check the dark lanes against the masks)."""
    if step in ("warp", "wave"):
        warp = tuple("on" if lane in wf.mask_lanes(MASK32, wf.WARP) else "dark" for lane in range(wf.WARP))
        lit = wf.mask_lanes(MASK32, wf.WAVE64)
        wave = tuple("on" if lane in lit else "dark" for lane in range(wf.WAVE64))
        return WaveState(warp, wave if step == "wave" else ("off",) * wf.WAVE64,
                         {"lit": spans(lit), "dark": spans(wf.dark_lanes(MASK32)), "n_dark": len(wf.dark_lanes(MASK32))})
    if step == "ballot":
        votes = _votes(wf.WAVE64)
        full = wf.ballot(votes)
        kept = wf.truncate(full, 32)
        kept_lanes = set(wf.mask_lanes(kept))
        wave = tuple(("on" if lane in kept_lanes else "dark") if v else "off" for lane, v in enumerate(votes))
        warp = tuple("on" if v else "off" for v in _votes(wf.WARP))
        return WaveState(warp, wave, {"full": f"0x{full:016x}", "kept": f"0x{kept:08x}",
                                      "n_full": bin(full).count("1"), "n_kept": bin(kept).count("1")})
    offsets = wf.halving_offsets(wf.WARP if step == "reduce" else wf.WAVE64)
    reach = set(wf.shuffle_down_reach(offsets, wf.WAVE64))
    warp_reach = set(wf.shuffle_down_reach(wf.halving_offsets(wf.WARP), wf.WARP))
    return WaveState(tuple("on" if lane in warp_reach else "dark" for lane in range(wf.WARP)),
                     tuple("on" if lane in reach else "dark" for lane in range(wf.WAVE64)),
                     {"first": offsets[0], "n": len(reach), "lit": spans(reach),
                      "dark": spans(set(range(wf.WAVE64)) - reach)})


def _lane_row(p: s.Svg, states: tuple[str, ...], first: int, y: float, colour: str, tip: str) -> None:
    for i, state in enumerate(states):
        x = X0 + i * (CELL + GAP)
        title = tip.format(lane=first + i)
        if state == "on":
            p.rect(x, y, CELL, 34, fill=colour, rx=3, title=title)
        elif state == "dark":
            dark_cell(p, x, y, CELL, 34, title)
        else:
            off_cell(p, x, y, CELL, 34, title)
    p.text(X0 - 8, y + 24, str(first), anchor="end", size=18)
    p.text(X0 + len(states) * (CELL + GAP) + 2, y + 24, str(first + len(states) - 1), size=18)


CODE = {
    "warp": "unsigned mask = 0xffffffff;   // every lane of a warp",
    "wave": "unsigned mask = 0xffffffff;   // on CDNA: lanes 0-31 only",
    "ballot": "unsigned m = __ballot(lane % 3 == 0);",
    "reduce": "for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);",
    "fix": "for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);",
}


def wavefront(step: int, lang: str, theme: str = "light") -> Frame:
    t = tr(lang, "wave")
    name = WAVE_STEPS[step]
    st = wave_state(name)
    p = s.Svg(s.WIDTH, 470, theme)
    pal = p.pal
    p.rect(0, 0, s.WIDTH, 56, fill=pal.neutral, opacity=0.15, rx=8)
    fitted(p, 20, 37, CODE[name], 960, size=22, mono=True)
    p.text(X0, 90, t("warp_label"), weight="bold")
    _lane_row(p, st.warp, 0, 102, pal.vendor["NVIDIA"], t("lane_tip", lane="{lane}"))
    p.text(X0, 182, t("wave_label"), weight="bold")
    tip = t("lane_tip", lane="{lane}")
    _lane_row(p, st.wave[:32], 0, 194, pal.vendor["AMD"], tip)
    _lane_row(p, st.wave[32:], 32, 236, pal.vendor["AMD"], tip)
    f = st.facts
    lines = {
        "warp": lambda: [t("warp_1"), t("warp_2")],
        "wave": lambda: [t("wave_1", lit=f["lit"]), t("wave_2", dark=f["dark"], n=f["n_dark"])],
        "ballot": lambda: [t("ballot_1", mask=f["full"], n=f["n_full"]), t("ballot_2", mask=f["kept"], n=f["n_kept"])],
        "reduce": lambda: [t("reduce_1", o=f["first"], lit=f["lit"], n=f["n"]), t("reduce_2", dark=f["dark"])],
        "fix": lambda: [t("fix_1", o=f["first"], n=f["n"]), t("fix_2")],
    }[name]()
    for i, line in enumerate(lines):
        fitted(p, 20, 322 + i * 36, line, 960, size=22, weight="bold" if i == 0 else "normal")
    shown = set(st.warp) | set(st.wave)
    items = [(t("on"), filled(pal.vendor["AMD"])), (t("off"), off_cell), (t("dark"), dark_cell)]
    legend(p, [item for item, state in zip(items, ("on", "off", "dark"), strict=True) if state in shown], 20, 440)
    return Frame(t(f"cap_{name}"), svg=p.render(t("title")))


# --- LDS banks ------------------------------------------------------------------------------------------------

LDS_STRIDES = (1, 2, 64, 65)
BANK_W = 29
SHOWN_TURNS = 6


def lds_banks(step: int, lang: str, theme: str = "light") -> Frame:
    t = tr(lang, "lds")
    stride = LDS_STRIDES[step]
    acc = wf.lds_access(stride)
    p = s.Svg(s.WIDTH, 0, theme)
    pal = p.pal
    x0 = (s.WIDTH - wf.LDS_BANKS * BANK_W) / 2
    code = {1: "v = tile[row][lane];          // stride 1",
            2: "v = data[2 * lane];           // stride 2",
            64: "v = tile[lane][col];  // float tile[64][64]: stride 64",
            65: "v = tile[lane][col];  // float tile[64][64 + 1]: stride 65"}[stride]
    p.rect(0, 0, s.WIDTH, 56, fill=pal.neutral, opacity=0.15, rx=8)
    fitted(p, 20, 37, code, 960, size=22, mono=True)
    p.text(x0, 92, t("banks_label", n=wf.LDS_BANKS, b=wf.LDS_BANK_BYTES), weight="bold")
    for b in range(wf.LDS_BANKS):
        if b % 4 == 0 or b == wf.LDS_BANKS - 1:
            p.text(x0 + b * BANK_W + BANK_W / 2, 122, str(b), anchor="middle", size=18)
    half = wf.LDS_BANKS  # one pass: lanes 0-31
    degree = acc.degree[0]
    ok, bad = pal.status["ok"], pal.vendor["AMD"]
    used = {acc.bank[lane] for lane in range(half)}
    for b in range(wf.LDS_BANKS):  # an idle bank is an empty slot: its bandwidth is wasted this pass
        if b not in used:
            off_cell(p, x0 + b * BANK_W + 1, 134, BANK_W - 2, 34, t("idle_tip", bank=b))
    for lane in range(half):
        turn = acc.turn[lane]
        if turn >= SHOWN_TURNS:
            continue
        x = x0 + acc.bank[lane] * BANK_W
        y = 134 + turn * 40
        fill = ok if degree == 1 else bad
        p.rect(x + 1, y, BANK_W - 2, 34, fill=fill, rx=3, title=t("lane_tip", lane=lane, bank=acc.bank[lane]))
        p.text(x + BANK_W / 2, y + 24, str(lane), anchor="middle", size=18, fill=style.text_on(fill))
    rows = min(degree, SHOWN_TURNS)
    y_note = 134 + rows * 40 + 30
    if degree > SHOWN_TURNS:
        p.text(x0, y_note - 6, t("more", n=degree - SHOWN_TURNS), size=20, fill=pal.muted)
        y_note += 30
    summary = t("none") if degree == 1 else t("way", n=degree)
    p.text(20, y_note + 20, summary, size=s.BIG_PX, weight="bold")
    fitted(p, 20, y_note + 58, t("passes", half=degree, total=acc.passes), 960, size=22)
    legend(p, [(t("served_once"), filled(ok)), (t("replayed"), filled(bad))], 20, y_note + 100)
    p.height = y_note + 125
    return Frame(t(f"cap_{stride}"), svg=p.render(t("title")))


# --- occupancy: a SIMD's wave slots -----------------------------------------------------------------------

# The tour: gfx90a, 256-thread workgroups, registers growing, then LDS per workgroup (VGPRs, LDS bytes).
OCC_TARGET = "gfx90a"
OCC_BLOCK = 256
OCC_TOUR: tuple[tuple[int, int], ...] = ((32, 0), (64, 0), (96, 0), (128, 0), (256, 0), (64, 16384), (64, 32768))


@dataclass(frozen=True)
class Slots:
    target: str
    simds: int
    slots: int  # wave slots per SIMD (the hardware limit)
    waves: int  # waves per SIMD the kernel gets
    by_vgprs: int
    by_lds: int
    binding: tuple[str, ...]
    allocated: int
    budget: int
    granule: int
    wave: int
    llvm15_waves: int  # what clang 15's remark says (LDS counted per CU, not spread over the SIMDs)
    lds_per_cu: int  # bytes


def slots(target: str, vgprs: int, lds_bytes: int = 0, block: int = OCC_BLOCK, agprs: int = 0) -> Slots:
    """Waves per SIMD by the compile lab's model (rocm_bridge.compile.occupancy); when the kernel uses LDS, the
    workgroups' waves are spread over the SIMDs as the hardware does (later LLVM), and `llvm15_waves` keeps
    clang 15's own figure (the compile lab's remark) beside it."""
    from rocm_bridge.compile.occupancy import occupancy
    from rocm_bridge.compile.targets import target as get_target

    t = get_target(target)
    wave = t.default_wave
    clang = occupancy(t, vgprs=vgprs, agprs=agprs, lds_bytes=lds_bytes, block_size=block, wave=wave)
    # without LDS nothing is spread: the compile lab's figure as it is (its workgroup-slot cap stays per CU)
    occ = occupancy(t, vgprs=vgprs, agprs=agprs, lds_bytes=lds_bytes, block_size=block, wave=wave,
                    spread_lds=True) if lds_bytes else clang
    return Slots(t.name, t.simds_per_cu, t.max_waves_per_simd, occ.waves_per_simd, occ.by_limit["vgprs"],
                 occ.by_limit["lds"], occ.binding, occ.vgprs_allocated, t.vgprs[wave], t.vgpr_granule[wave], wave,
                 clang.waves_per_simd, t.lds_per_cu_bytes)


def occupancy_svg(sl: Slots, vgprs: int, lds_bytes: int, block: int, lang: str, theme: str = "light") -> str:
    t = tr(lang, "occ")
    p = s.Svg(s.WIDTH, 540, theme)
    pal = p.pal
    head = t("head", target=sl.target, wave=sl.wave, block=block, vgprs=vgprs, lds=lds_bytes // 1024)
    p.rect(0, 0, s.WIDTH, 56, fill=pal.neutral, opacity=0.15, rx=8)
    fitted(p, 20, 37, head, 960, size=22)
    # four SIMDs side by side, each a column of wave slots
    col_w, slot_h = 150, min(30, 300 / sl.slots)
    top = 110
    for simd in range(sl.simds):
        x = 20 + simd * (col_w + 14)
        p.text(x + col_w / 2, 96, t("simd", n=simd), anchor="middle", weight="bold")
        for k in range(sl.slots):
            y = top + (sl.slots - 1 - k) * slot_h
            tip = t("slot_tip", k=k + 1, simd=simd)
            if k < sl.waves:
                p.rect(x, y + 2, col_w, slot_h - 4, fill=pal.vendor["AMD"], rx=3, title=tip)
            else:
                off_cell(p, x, y + 2, col_w, slot_h - 4, tip)
    # the three limits, the binding one marked
    lx, ly = 700, 110
    p.text(lx, 96, t("limits"), weight="bold")
    limits = (("slots", sl.slots), ("vgprs", sl.by_vgprs), ("lds", sl.by_lds))
    for i, (k, v) in enumerate(limits):
        y = ly + i * 62
        mark = k in [{"waves": "slots"}.get(b, b) for b in sl.binding]
        p.rect(lx, y, 280, 50, fill=pal.background, stroke=pal.ink if mark else pal.line, rx=6)
        p.text(lx + 12, y + 33, t(f"limit_{k}"), size=20, weight="bold" if mark else "normal")
        p.text(lx + 268, y + 33, str(v), anchor="end", size=s.TITLE_PX, weight="bold" if mark else "normal")
    y0 = top + sl.slots * slot_h + 44
    p.text(20, y0, t("result", waves=sl.waves, slots=sl.slots, cu=sl.waves * sl.simds), size=s.BIG_PX, weight="bold")
    fitted(p, 20, y0 + 40, t("regs", vgprs=vgprs, allocated=sl.allocated, granule=sl.granule, budget=sl.budget,
                              n=sl.by_vgprs), 960, size=22)
    lds_line = (t("lds_none") if lds_bytes == 0 else
                t("lds", kib=lds_bytes // 1024, waves=-(-block // sl.wave), n=sl.by_lds))
    fitted(p, 20, y0 + 76, lds_line, 960, size=22)
    if sl.llvm15_waves != sl.waves:
        fitted(p, 20, y0 + 112, t("clang15", n=sl.llvm15_waves), 960, size=20, fill=pal.muted)
        p.height = y0 + 130
    else:
        p.height = y0 + 96
    return p.render(t("title"))


def occupancy_caption(sl: Slots, vgprs: int, lds_bytes: int, lang: str) -> str:
    t = tr(lang, "occ")
    if "lds" in sl.binding:
        return t("cap_lds", kib=lds_bytes // 1024, groups=sl.lds_per_cu // lds_bytes, cu=sl.lds_per_cu // 1024,
                 n=sl.waves)
    if "vgprs" in sl.binding:
        key = "cap_vgprs_exact" if sl.allocated == vgprs else "cap_vgprs"
        return t(key, vgprs=vgprs, allocated=sl.allocated, budget=sl.budget, n=sl.waves)
    return t("cap_slots", vgprs=vgprs, n=sl.waves)


def occupancy_picture(step: int, lang: str, theme: str = "light") -> Frame:
    vgprs, lds = OCC_TOUR[step]
    sl = slots(OCC_TARGET, vgprs, lds, OCC_BLOCK)
    return Frame(occupancy_caption(sl, vgprs, lds, lang), svg=occupancy_svg(sl, vgprs, lds, OCC_BLOCK, lang, theme))
