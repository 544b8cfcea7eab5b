"""Chapter 12's pictures: the memory picture (rocm_bridge.hardware.memory_picture), its dispatch model and its
numbers against the chapter's table; the EXEC-mask picture (rocm_bridge.wavefront.exec_picture), its masks. The
generic readability checks are in tests/test_pictures.py."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rocm_bridge import i18n
from rocm_bridge.hardware import memory_picture as mem
from rocm_bridge.visual import pictures

ROOT = Path(__file__).resolve().parents[1]
NS = "{http://www.w3.org/2000/svg}"


def test_round_robin_sends_workgroup_n_to_xcd_n_mod_8():
    cols = mem.placement(8, 64)
    assert cols[0][:3] == [0, 8, 16] and cols[7][:2] == [7, 15]
    assert sorted(t for c in cols for t in c) == list(range(64))


def test_remap_gives_each_xcd_a_contiguous_chunk():
    cols = mem.placement(8, 64, remap=True)
    assert cols[0] == list(range(8)) and cols[3] == list(range(24, 32))
    assert sorted(t for c in cols for t in c) == list(range(64))  # every tile still computed once


def test_eight_trips_for_one_tub_and_one_after_the_remap():
    assert mem.l2_fills(8, 64, 8) == 64  # 8 shared operands, each in all 8 L2s
    assert mem.l2_fills(8, 64, 8, remap=True) == 8
    assert mem.l2_fills(1, 64, 8) == 8  # one XCD: no duplicate fills to remove


def test_levels_agree_with_the_chapter_table():
    lv = mem.levels()
    for lang in ("en", "zh"):
        text = (ROOT / "content" / lang / "ch12.md").read_text(encoding="utf-8")
        assert f"{lv.l2_mib} MiB" in text and f"{lv.l2_mib * lv.xcds} MiB" in text
        assert f"{lv.mall_mib} MiB" in text and f"{lv.hbm_gb} GB" in text and f"{lv.hbm_tbs:g} TB/s" in text
        assert f"{lv.lds_kib} KiB" in text and f"{lv.vgpr_kib} KiB" in text and f"{lv.l1_kib} KiB" in text
        assert re.search(rf"\b{lv.cus_per_xcd}\b", text)
        # the chapter opens with its picture, right after the story
        assert re.search(r"::: story\n.*?\n:::\n\n::: widget picture:memory\n", text, re.S)


def _texts(doc: str) -> list[str]:
    return [el.text or "" for el in ET.fromstring(doc).iter(NS + "text")]


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_frames_tell_the_steps(lang):
    spec = pictures.PICTURES["memory"]
    assert spec.steps == len(mem.STEPS) and spec.page == "ch12"
    rr = pictures.frame("memory", mem.STEPS.index("rr"), lang).svg
    remap = pictures.frame("memory", mem.STEPS.index("remap"), lang).svg
    # one arrow per L2 that fetches the first operand: all 8, then one
    assert rr.count('stroke-width="4" marker-end') == 8 and remap.count('stroke-width="4" marker-end') == 1
    for step in range(spec.steps):
        texts = _texts(pictures.frame("memory", step, lang).svg)
        assert not any("…" in t for t in texts), (step, [t for t in texts if "…" in t])  # nothing clipped
    assert "64" in pictures.frame("memory", 5, lang).caption and "8" in pictures.frame("memory", 6, lang).caption


# --- the EXEC mask through a wave64 if / else (rocm_bridge.wavefront.exec_picture) ---------------------------


def test_exec_masks_split_a_wave64_and_not_a_warp():
    from rocm_bridge.wavefront import exec_picture as ex

    m = ex.exec_masks()
    assert m["then"] == 0x00000000FFFFFFFF and m["else"] == 0xFFFFFFFF00000000
    assert m["then"] | m["else"] == m["all"] == m["join"] == (1 << 64) - 1 and m["then"] & m["else"] == 0
    assert ex.passes(32) == 1 and ex.passes(64) == 2  # a warp runs one side, the wavefront both


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_exec_frames_light_the_lanes_of_the_mask(lang):
    from rocm_bridge.wavefront import exec_picture as ex

    for name in ("then", "else"):
        doc = pictures.frame("exec_mask", ex.STEPS.index(name), lang).svg
        assert f"0x{ex.exec_masks()[name]:016x}" in doc
        root = ET.fromstring(doc)
        cells = [r for r in root.iter(NS + "rect") if r.find(NS + "title") is not None]
        dark = {int(r.find(NS + "title").text.split()[-1]) for r in cells if r.attrib.get("fill-opacity")}
        assert dark == (set(range(32, 64)) if name == "then" else set(range(32)))
    for lang_ in ("en", "zh"):
        text = (ROOT / "content" / lang_ / "ch12.md").read_text(encoding="utf-8")
        assert "::: widget picture:exec_mask" in text and text.index("picture:memory") < text.index("picture:exec_mask")
