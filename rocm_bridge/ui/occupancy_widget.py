"""The occupancy what-if widget of chapter 9 (`::: widget occupancy`): rocm_bridge.formulas.occupancy on gfx90a."""

from __future__ import annotations

import streamlit as st

from rocm_bridge import formulas
from rocm_bridge.course.widget_tables import OCCUPANCY_DEFAULTS, occupancy_per_cu
from rocm_bridge.errors import RocmBridgeError
from rocm_bridge.ui import lang, show_error, tr


def render(key_prefix: str = "occ") -> None:
    d = OCCUPANCY_DEFAULTS  # the handout's worked example uses the same inputs
    left, right = st.columns(2)
    with left:
        vgprs = st.slider(tr("chapters.occupancy.vgprs"), 1, 512, d["vgprs"], key=f"{key_prefix}_fo_v")
        agprs = st.slider(tr("chapters.occupancy.agprs"), 0, 256, d["agprs"], step=4, key=f"{key_prefix}_fo_a")
    with right:
        lds = st.select_slider(tr("chapters.occupancy.lds"), options=[0, 4096, 8192, 16384, 24576, 32768, 49152, 65536],
                               value=d["lds"], key=f"{key_prefix}_fo_l")
        threads = st.select_slider(tr("chapters.occupancy.threads"), options=[64, 128, 256, 512, 1024],
                                   value=d["threads"], key=f"{key_prefix}_fo_t")
    try:
        r = formulas.occupancy(vgprs=vgprs, agprs=agprs, lds_bytes_per_block=lds, block_threads=threads)
    except RocmBridgeError as exc:
        show_error(exc)
        return
    st.metric(tr("chapters.occupancy.result"), f"{r.waves_per_simd} / {r.by_hardware}")
    st.markdown(occupancy_per_cu(r, lang()))
    st.caption(tr("chapters.occupancy.note"))
