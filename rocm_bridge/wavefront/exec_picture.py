"""Chapter 12's second picture: one wave64 `if / else` through the EXEC mask. The condition `threadIdx.x < 32`
puts each 32-lane NVIDIA warp wholly on one side, but splits a CDNA wavefront in two: the wave runs the `then`
side with lanes 32-63 masked off, flips EXEC, runs the `else` side with lanes 0-31 masked off, and restores EXEC.

Headless SVG (rocm_bridge.visual.svg); the masks come from exec_masks() below, which tests check lane by lane.
The instruction names are the ones chapter 12 cites (`s_and_saveexec_b64` ... `s_or_b64 exec, ...`).
"""

from __future__ import annotations

from rocm_bridge import i18n
from rocm_bridge import wavefront as wf
from rocm_bridge.visual import svg as s
from rocm_bridge.visual.pictures import Frame
from rocm_bridge.wavefront.draw import dark_cell, filled, legend

STEPS = ("all", "then", "else", "join", "warp")
SPLIT = 32  # the condition: threadIdx.x < SPLIT, for a block of 64 threads
CELL, GAP, X0 = 26, 2, 62
FULL = (1 << wf.WAVE64) - 1


def taken(lane: int) -> bool:
    return lane < SPLIT


def exec_masks() -> dict[str, int]:
    """EXEC at each step of the wave64 if / else: all lanes, the `then` lanes, the `else` lanes, all again."""
    then = sum(1 << lane for lane in range(wf.WAVE64) if taken(lane))
    return {"all": FULL, "then": then, "else": FULL & ~then, "join": FULL}


def passes(wave: int) -> int:
    """How many sides a wave of `wave` lanes runs (a side with no lane in EXEC is skipped: s_cbranch_execz)."""
    sides = {taken(lane) for lane in range(wave)}
    return len(sides)


def _tr(lang: str):
    return lambda key, /, **params: i18n.t(f"pictures2.exec.{key}", lang, **params)


def _row(p: s.Svg, lit: list[bool], first: int, y: float, colour: str, tip: str) -> None:
    for i, on in enumerate(lit):
        x = X0 + i * (CELL + GAP)
        title = tip.format(lane=first + i)
        if on:
            p.rect(x, y, CELL, 34, fill=colour, rx=3, title=title)
        else:
            dark_cell(p, x, y, CELL, 34, title)
    p.text(X0 - 8, y + 24, str(first), anchor="end", size=18)
    p.text(X0 + len(lit) * (CELL + GAP) + 2, y + 24, str(first + len(lit) - 1), size=18)


def build(step: int, lang: str, theme: str = "light") -> Frame:
    t = _tr(lang)
    name = STEPS[step]
    p = s.Svg(s.WIDTH, 0, theme)
    pal = p.pal
    code = "if (threadIdx.x < 32) x = a(); else x = b();   // a block of 64 threads"
    p.rect(0, 0, s.WIDTH, 56, fill=pal.neutral, opacity=0.15, rx=8)
    text, size = s.fitted(code, 22, 960, mono=True)
    p.text(20, 37, text, size=size, mono=True)
    tip = t("lane_tip", lane="{lane}")
    if name == "warp":
        nv = pal.vendor["NVIDIA"]
        for w in range(2):
            side = t("then") if taken(w * wf.WARP) else t("else")
            p.text(X0, 92 + w * 92, t("warp_row", w=w, side=side), weight="bold")
            _row(p, [True] * wf.WARP, w * wf.WARP, 104 + w * 92, nv, tip)
        lines = [t("warp_1", n=passes(wf.WARP)), t("warp_2", n=passes(wf.WAVE64))]
        items = [(t("runs"), filled(nv))]
    else:
        mask = exec_masks()[name]
        amd = pal.vendor["AMD"]
        isa = {"all": "v_cmp_gt_u32 vcc, 32, v0", "then": "s_and_saveexec_b64 s[0:1], vcc",
               "else": t("flip"), "join": "s_or_b64 exec, exec, s[0:1]"}[name]
        p.text(X0, 92, t("exec_row", mask=f"0x{mask:016x}"), weight="bold")
        lit = [bool(mask >> lane & 1) for lane in range(wf.WAVE64)]
        _row(p, lit[:32], 0, 104, amd, tip)
        _row(p, lit[32:], 32, 146, amd, tip)
        text, size = s.fitted(isa, 20, 900, mono=name != "else")
        p.text(X0, 214, text, size=size, mono=name != "else")
        # time: the sides this wave has run so far
        done = {"all": 0, "then": 1, "else": 2, "join": 2}[name]
        p.text(X0, 262, t("time"), weight="bold")
        for k in range(done):
            x = X0 + 120 + k * 250
            now = k == done - 1 and name != "join"
            p.rect(x, 240, 240, 34, fill=amd if now else pal.neutral, opacity=1 if now else 0.35, rx=4)
            p.text(x + 120, 264, t("then") if k == 0 else t("else"), anchor="middle", size=20,
                   fill="#FFFFFF" if now else pal.ink)
        lines = {"all": [t("all_1"), t("all_2")], "then": [t("then_1"), t("then_2")],
                 "else": [t("else_1"), t("else_2")], "join": [t("join_1"), t("join_2")]}[name]
        items = [(t("runs"), filled(amd)), (t("masked"), dark_cell)]
    y = 318
    for i, line in enumerate(lines):
        text, size = s.fitted(line, 22, 960)
        p.text(20, y, text, size=size, weight="bold" if i == 0 else "normal")
        y += 34
    legend(p, items, 20, y + 8)
    p.height = y + 30
    return Frame(t(f"cap_{name}"), svg=p.render(t("title")))
