"""The compile lab's Triton tab (a Triton kernel for an AMD and an NVIDIA target, side by side) and its NVIDIA
twin tab (a hipify example's CUDA original through nvcc beside its HIP translation through clang 22). Without
Triton / nvcc / clang 22 on the server, the results recorded with them are shown, labelled with compiler and
date (data/compile_recorded/triton, data/compile_recorded/twin)."""

from __future__ import annotations

import re

import streamlit as st

from rocm_bridge import i18n
from rocm_bridge.compile import examples, recorded, triton_lab
from rocm_bridge.compile.errors import CompileDisabled, CompilerMissing, NvccMissing, TritonMissing
from rocm_bridge.errors import RocmBridgeError
from rocm_bridge.text import md_escape
from rocm_bridge.ui import lang, show_error, source_note, tr
from rocm_bridge.ui.compile_view import queue_notice, session_id, target_choices
from rocm_bridge.ui.state import push_url, url_state

NV_TARGETS = ("sm_90", "sm_80", "sm_89")
_MATRIX = triton_lab.MATRIX_RE
_MISSING = (TritonMissing, CompileDisabled, CompilerMissing, NvccMissing)


def marked(text: str) -> str:
    """The code with matrix-core instruction lines marked ▶ (st.code shows plain text: no markup)."""
    return "\n".join(("▶ " if _MATRIX.search(ln) else "  ") + ln for ln in text.splitlines())


def _triton_recorded(code: str):
    key = next((k for k in triton_lab.EXAMPLES if triton_lab.example_source(k) == code), None)
    return recorded.triton_result(key) if key else None


def triton_tab() -> None:
    st.caption(tr("compile.triton.intro"))
    lg = lang()
    url_state("tr_ex", triton_lab.EXAMPLES[2], valid=list(triton_lab.EXAMPLES))
    example = st.selectbox(tr("compile.triton.example"), list(triton_lab.EXAMPLES), key="tr_ex",
                           format_func=lambda k: i18n.t(f"compile.triton.ex.{k}", lg))
    push_url("tr_ex")
    if st.session_state.get("tr_loaded") != example:
        st.session_state["tr_code"] = triton_lab.example_source(example)
        st.session_state["tr_loaded"] = example
    code = st.text_area(tr("compile.triton.code"), key="tr_code", height=300,
                        max_chars=triton_lab.policy.MAX_CODE_BYTES)
    c1, c2 = st.columns(2)
    amd_choices = target_choices("clang22")
    url_state("tr_amd", "gfx942" if "gfx942" in amd_choices else amd_choices[0], valid=amd_choices)
    amd = c1.selectbox(tr("compile.triton.amd"), amd_choices, key="tr_amd")
    url_state("tr_nv", NV_TARGETS[0], valid=list(NV_TARGETS))
    nv = c2.selectbox(tr("compile.triton.nvidia"), list(NV_TARGETS), key="tr_nv")
    push_url("tr_amd", "tr_nv")
    if st.button(tr("compile.triton.compile"), key="tr_go", type="primary", icon=":material/build:"):
        result = None
        try:
            notice = queue_notice()
            try:
                with st.spinner(tr("compile.triton.compiling", amd=amd, nv=nv)):
                    result = triton_lab.compile_triton(code, amd, nv, session=session_id(), on_wait=notice)
            finally:
                notice.clear()
        except _MISSING as err:
            show_error(err)
            result = _triton_recorded(code)
        except RocmBridgeError as err:
            show_error(err)
        st.session_state["tr_result"] = (code, amd, nv, result)
    saved = st.session_state.get("tr_result")
    if saved and saved[0] == code and saved[3] is not None:
        show_triton(saved[3], saved[1], saved[2])


def show_triton(r, amd: str, nv: str) -> None:
    if r.recorded:
        st.warning(tr("compile.page.recorded", date=r.recorded, compiler=f"Triton {r.triton}"),
                   icon=":material/history:")
    if r.error:
        st.error(tr("compile.err.triton", reason=md_escape(r.error)), icon=":material/error:")
        return
    st.caption(tr("compile.triton.summary", version=r.triton, kernel=re.sub(r"\W", "", r.kernel), seconds=r.seconds))
    shown = [t for t in r.targets if t.arch in (amd, nv)] or r.targets
    cols = st.columns(len(shown))
    for col, t in zip(cols, shown, strict=True):
        with col:
            _triton_column(t)
    source_note(tr("compile.triton.source"))


def _triton_column(t) -> None:
    st.markdown(f"**{t.arch}** · {'AMD' if t.backend == 'hip' else 'NVIDIA'} · wave/warp {t.warp_size}")
    if not t.ok:
        st.error(tr("compile.triton.failed", arch=t.arch, error=md_escape(t.error[-600:])))
        return
    m1, m2, m3 = st.columns(3)
    if t.backend == "hip":
        m1.metric(tr("compile.triton.regs_amd"), f"{t.vgprs} / {t.agprs}")
        m3.metric(tr("compile.triton.occ_amd"), f"{t.occupancy} / {t.occupancy_max}")
    else:
        m1.metric(tr("compile.triton.regs_nv"), t.regs)
        m3.metric(tr("compile.triton.occ_nv"), f"{t.occupancy} / {t.occupancy_max}")
    m2.metric(tr("compile.triton.lds"), f"{t.shared_bytes // 1024} KiB" if t.shared_bytes >= 1024 else
              f"{t.shared_bytes} B")
    st.markdown(f"**{tr('compile.triton.matrix')}**")
    if t.matrix:
        st.dataframe([{"instruction": k, "count": v} for k, v in t.matrix.items()], hide_index=True,
                     width="stretch")
    else:
        st.caption(tr("compile.triton.no_matrix"))
    with st.expander(tr("compile.triton.stages"), expanded=False):
        for stage in ("ttir", "ttgir", "llir"):
            if stage in t.stages:
                st.caption(tr(f"compile.triton.stage.{stage}"))
                st.code(t.stages[stage], language="llvm", height=240)
    for stage in (t.code_stage, "sass"):
        if t.stages.get(stage):
            with st.expander(tr("compile.triton.code_stage", stage=stage.upper()), expanded=stage != "sass"):
                st.code(marked(t.stages[stage]), language="asm", height=360)


# --- the NVIDIA twin ------------------------------------------------------------------------------------------

def twin_tab() -> None:
    from rocm_bridge.compile import nvidia
    st.caption(tr("compile.twin.intro"))
    keys = list(examples.hipify_examples())
    lg = lang()
    url_state("tw_ex", "hipify_tiled_gemm", valid=keys)
    key = st.selectbox(tr("compile.twin.example"), keys, key="tw_ex",
                       format_func=lambda k: i18n.t(f"hipify.example.{k[len('hipify_'):]}", lg))
    push_url("tw_ex")
    if st.button(tr("compile.twin.run"), key="tw_go", type="primary", icon=":material/compare:"):
        data, stamp = None, ""
        try:
            from dataclasses import asdict

            from rocm_bridge.compile.twin import twin
            with st.spinner(tr("compile.page.compiling", target="gfx942 + sm_90")):
                data = asdict(twin(key, session=session_id()))
        except _MISSING as err:
            show_error(err)
            rec = recorded.load_sub("twin", key)
            if rec:
                data, stamp = rec["twin"], tr("compile.page.recorded", date=rec["date"], compiler=rec["compiler"])
        except RocmBridgeError as err:
            show_error(err)
        st.session_state["tw_result"] = (key, data, stamp)
    saved = st.session_state.get("tw_result")
    if saved and saved[0] == key and saved[1] is not None:
        show_twin(saved[1], saved[2])
        source_note(tr("compile.twin.source", nvcc=nvidia.nvcc_version() or "-"))


def show_twin(d: dict, stamp: str = "") -> None:
    if stamp:
        st.warning(stamp, icon=":material/history:")
    if not d["amd_ok"]:
        st.error(tr("compile.twin.amd_failed", errors=md_escape("; ".join(d["amd_errors"][:3]))))
    if not d["nv_ok"]:
        st.error(tr("compile.twin.nv_failed", errors=md_escape(d["nv_messages"][-400:])))
    amd_head = f"AMD gfx942 · {d['amd_compiler']}"
    nv_head = f"NVIDIA sm_90 · {d['nv_compiler']}"
    for row in d["rows"]:
        a, n = row["amd"], row["nv"]
        st.markdown(f"**{md_escape(row['kernel'])}**")

        def cell(side: dict, k: str):
            return side.get(k, "-") if side else "-"

        rows = [
            (tr("compile.twin.m.registers"),
             f"{a['vgprs']} + {a['agprs']}" if a else "-", cell(n, "regs")),
            (tr("compile.twin.m.local"), cell(a, "lds_bytes"), cell(n, "shared_bytes")),
            (tr("compile.twin.m.spill"), cell(a, "spill_bytes"), cell(n, "spill_bytes")),
            (tr("compile.twin.m.occupancy", block=row["block"]),
             tr("compile.twin.per_simd", n=a["occupancy"], max=a["occupancy_max"]) if a else "-",
             tr("compile.twin.per_sm", n=n["occupancy"], max=n["occupancy_max"]) if n else "-"),
        ] + [(tr(f"compile.twin.m.{c}"), cell(a, c), cell(n, c))
             for c in ("global", "lds", "matrix", "barrier", "cross_lane")]
        st.dataframe([{tr("compile.twin.metric"): m, amd_head: str(x), nv_head: str(y)} for m, x, y in rows],
                     hide_index=True, width="stretch")
