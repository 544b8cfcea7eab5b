"""Chapter 9's occupancy explorer (`::: widget occupancy`): target, VGPRs, AGPRs, LDS and workgroup size above the
wave-slot picture (rocm_bridge.wavefront.pictures), every choice kept in the link. The numbers are the compile
lab's model (rocm_bridge.compile.occupancy on data/amdgpu_targets.csv), LDS spread over the SIMDs."""

from __future__ import annotations

import streamlit as st

from rocm_bridge.compile.targets import target as get_target
from rocm_bridge.compile.targets import targets
from rocm_bridge.course.widget_tables import OCCUPANCY_DEFAULTS
from rocm_bridge.ui import lang, source_note, tr
from rocm_bridge.ui.state import push_url, url_state
from rocm_bridge.ui.theme import chart_theme
from rocm_bridge.wavefront import pictures as wp

LDS_CHOICES = (0, 4096, 8192, 16384, 24576, 32768, 49152, 65536)
BLOCKS = (64, 128, 256, 512, 1024)
KEYS = ("occ_target", "occ_vgprs", "occ_agprs", "occ_lds", "occ_block")


def _clamp(key: str, lo: int, hi: int) -> None:
    st.session_state[key] = min(max(int(st.session_state[key]), lo), hi)


def render(key_prefix: str = "occ", **_: object) -> None:
    """The explorer. `key_prefix` is the chapter (kept for the widget interface; the keys are the explorer's own,
    so the link reads ?occ_target=gfx90a&occ_vgprs=96...)."""
    d = OCCUPANCY_DEFAULTS
    names = list(targets())
    name = url_state("occ_target", wp.OCC_TARGET, str, names)
    t = get_target(name)
    wave = t.default_wave
    url_state("occ_vgprs", d["vgprs"], int, lambda v: 1 <= v <= 512)
    url_state("occ_agprs", d["agprs"], int, lambda v: 0 <= v <= 512)
    url_state("occ_lds", d["lds"], int, LDS_CHOICES)
    url_state("occ_block", d["threads"], int, BLOCKS)
    _clamp("occ_vgprs", 1, t.vgprs[wave])
    _clamp("occ_agprs", 0, t.agprs)
    if st.session_state["occ_lds"] > t.lds_per_workgroup_bytes:
        st.session_state["occ_lds"] = 0
    left, right = st.columns(2)
    with left:
        st.selectbox(tr("compile.page.target"), names, key="occ_target", on_change=push_url, args=KEYS,
                     format_func=lambda n: f"{n} · {get_target(n).products.split(';')[0]}")
        vgprs = st.slider(tr("chapters.occupancy.vgprs"), 1, t.vgprs[wave], key="occ_vgprs", on_change=push_url,
                          args=("occ_vgprs",))
        agprs = st.slider(tr("chapters.occupancy.agprs"), 0, t.agprs, step=4, key="occ_agprs", on_change=push_url,
                          args=("occ_agprs",)) if t.agprs else 0
    with right:
        lds = st.select_slider(tr("chapters.occupancy.lds"),
                               options=[v for v in LDS_CHOICES if v <= t.lds_per_workgroup_bytes], key="occ_lds",
                               on_change=push_url, args=("occ_lds",))
        block = st.select_slider(tr("chapters.occupancy.threads"), options=list(BLOCKS), key="occ_block",
                                 on_change=push_url, args=("occ_block",))
    sl = wp.slots(name, vgprs, lds, block, agprs)
    st.metric(tr("chapters.occupancy.result"), f"{sl.waves} / {sl.slots}")
    # markdown, not st.html: st.html sanitises with the HTML-only DOMPurify profile, which removes SVG
    st.markdown(wp.occupancy_svg(sl, vgprs, lds, block, lang(), chart_theme()), unsafe_allow_html=True)
    st.caption(wp.occupancy_caption(sl, vgprs, lds, lang()))
    source_note(t.source)
