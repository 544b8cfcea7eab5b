"""Widgets of the compile lab. The computation lives in rocm_bridge.compile; this module reads widgets and
renders. User code, compiler messages and assembly are only shown through st.code / st.dataframe (never
Markdown); explanation parameters (identifiers from the user's code) go through md_escape."""

from __future__ import annotations

import streamlit as st

from rocm_bridge import i18n
from rocm_bridge.compile import clang22, examples, recorded, toolchain
from rocm_bridge.compile import engine as eng
from rocm_bridge.compile.isa import CLASSES
from rocm_bridge.compile.occupancy import LIMITS, occupancy, waves_by_vgprs
from rocm_bridge.compile.targets import target as get_target
from rocm_bridge.compile.targets import targets
from rocm_bridge.course.widget_tables import TARGET_DEFAULTS
from rocm_bridge.errors import RocmBridgeError
from rocm_bridge.text import md_escape
from rocm_bridge.ui import lang, show_error, source_note, tr
from rocm_bridge.ui.state import push_url, url_state

CLASS_IDS = tuple(c for c, _ in CLASSES)
BLOCKS = (64, 128, 192, 256, 384, 512, 768, 1024)


COMPILERS = ("hipcc", "clang22")


def target_choices(compiler: str = "hipcc") -> list[str]:
    """What the chosen compiler supports; the recorded targets when it is not installed."""
    if compiler == "clang22":
        return (clang22.supported_targets() if clang22.available() else []) or list(recorded.TARGETS22)
    if toolchain.available():
        return toolchain.supported_targets() or [t for t, _ in recorded.TARGETS]
    return [t for t, _ in recorded.TARGETS]


def compiler_picker(key_prefix: str) -> str:
    """hipcc 5.2 (API level) or clang 22 (ISA level); in the URL as <prefix>_cc."""
    key = f"{key_prefix}_cc"
    url_state(key, "hipcc", valid=list(COMPILERS))
    lg = lang()
    choice = st.segmented_control(tr("compile.page.compiler"), list(COMPILERS), key=key, required=True,
                                  format_func=lambda c: i18n.t(f"compile.page.compiler_{c}", lg)) or "hipcc"
    push_url(key)
    st.caption(tr(f"compile.page.level_{choice}"))
    return choice


def session_id() -> str | None:
    """This browser session's id (the lab's per-session quota), None outside a Streamlit run."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx
    ctx = get_script_run_ctx()
    return ctx.session_id if ctx else None


class queue_notice:  # noqa: N801 (used like a function: on_wait=queue_notice())
    """An on_wait callback that shows this session's place in the lab's line; clear() removes it."""

    def __init__(self) -> None:
        self.box = st.empty()

    def __call__(self, pos: int) -> None:
        self.box.info(tr("compile.page.queue", n=pos), icon=":material/hourglass_top:")

    def clear(self) -> None:
        self.box.empty()


def _fmt_target(name: str) -> str:
    t = get_target(name)
    return f"{name} · {t.products.split(';')[0][:48]}"


def target_picker(key_prefix: str, compiler: str = "hipcc") -> tuple[str, int]:
    choices = target_choices(compiler)
    tkey, wkey = f"{key_prefix}_target", f"{key_prefix}_wave"
    default = "gfx942" if compiler == "clang22" and "gfx942" in choices else "gfx90a"
    url_state(tkey, default if default in choices else choices[0], valid=choices)
    if st.session_state.get(tkey) not in choices:  # the other compiler's target: fall back to this one's default
        st.session_state[tkey] = default if default in choices else choices[0]
    left, right = st.columns([2, 1])
    with left:
        name = st.selectbox(tr("compile.page.target"), choices, key=tkey, format_func=_fmt_target)
    t = get_target(name)
    with right:
        waves = list(t.wave_sizes)
        if st.session_state.get(wkey) not in waves:
            st.session_state[wkey] = t.default_wave
        wave = st.segmented_control(tr("compile.page.wave"), waves, key=wkey, required=True,
                                    format_func=lambda w: f"wave{w}")
    push_url(tkey)
    return name, int(wave or t.default_wave)


def run_compile(code: str, target: str, wave: int, key_prefix: str, example: str | None = None,
                compiler: str = "hipcc"):
    """Compile (or fetch the recorded result when there is no compiler); errors are shown, never raised."""
    try:
        notice = queue_notice()
        try:
            with st.spinner(tr("compile.page.compiling", target=target)):
                return eng.compile_code(code, target, wave, compiler=compiler, session=session_id(),
                                        on_wait=notice)
        finally:
            notice.clear()
    except (eng.NoSandbox, *_no_compiler_errors()) as err:
        show_error(err)
        if isinstance(err, eng.NoSandbox):
            how_to_get()
        return recorded_fallback(code, target, example, compiler)
    except RocmBridgeError as err:
        show_error(err)
        return None


def _no_compiler_errors():
    from rocm_bridge.compile.errors import CompileDisabled, CompilerMissing
    return (CompileDisabled, CompilerMissing)


def how_to_get() -> None:
    st.info(tr("compile.page.how_to_get", **{k: md_escape(v) for k, v in toolchain.install_hint().items()}),
            icon=":material/download:")


def recorded_fallback(code: str, target: str, example: str | None, compiler: str = "hipcc"):
    key = example if example in examples.all_keys() and examples.source(example) == code else None
    if key is None:
        key = next((k for k in examples.all_keys() if examples.source(k) == code), None)
    if key is None:
        st.caption(tr("compile.page.recorded_other"))
        return None
    if compiler == "clang22":
        return recorded.result22(key, target) or recorded.result22(key, recorded.TARGETS22[1])
    return recorded.result(key, target) or recorded.result(key, recorded.TARGETS[0][0])


def annotated(code: str, result: eng.CompileResult) -> str:
    """The code with each diagnostic under its line, clang style (shown with st.code: no markup)."""
    by_line: dict[int, list[str]] = {}
    for d in result.diagnostics:
        by_line.setdefault(d.line, []).append(" " * (d.col - 1) + f"^ {d.severity}: {d.message}")
    for r in result.refused:
        by_line.setdefault(r.line, []).append(f"^ {tr('compile.policy.' + r.rule)}")
    out = []
    for i, line in enumerate(code.splitlines(), 1):
        out.append(line)
        out.extend(by_line.get(i, []))
    return "\n".join(out)


def show_diagnostics(code: str, result: eng.CompileResult) -> None:
    if result.refused:
        st.error(tr("compile.page.refused"), icon=":material/block:")
    elif not result.diagnostics:
        st.success(tr("compile.page.clean"))
    st.caption(tr("compile.page.diagnostics"))
    st.code(annotated(code, result), language="cpp", line_numbers=False, height=420 if code.count("\n") > 24
            else "content")
    explained = [d for d in result.diagnostics if d.explain]
    if explained:
        st.markdown(f"**{tr('compile.page.explanations')}**")
    seen = set()
    for d in explained:
        if (d.explain, tuple(d.params.items())) in seen:
            continue
        seen.add((d.explain, tuple(d.params.items())))
        params = {k: md_escape(v) for k, v in d.params.items()}
        with st.expander(f"{tr('compile.col.line')} {d.line}: {tr(f'compile.explain.{d.explain}.title', **params)}",
                         expanded=True):
            st.markdown(tr(f"compile.explain.{d.explain}.body", **params))
    rows = [{tr("compile.col.line"): d.line, tr("compile.col.col"): d.col, tr("compile.col.severity"): d.severity,
             tr("compile.col.message"): d.message} for d in result.diagnostics]
    if rows:
        st.dataframe(rows, hide_index=True, width="stretch")


def resource_rows(result: eng.CompileResult) -> list[dict[str, object]]:
    return [{tr("compile.col.kernel"): k.display, tr("compile.col.vgprs"): k.vgprs, tr("compile.col.agprs"): k.agprs,
             tr("compile.col.sgprs"): k.sgprs, tr("compile.col.lds"): k.lds_bytes,
             tr("compile.col.scratch"): k.scratch_bytes, tr("compile.col.wave"): k.wave,
             tr("compile.col.block"): k.max_block, tr("compile.col.occupancy"): k.occupancy["waves_per_simd"],
             tr("compile.col.clang"): k.compiler_occupancy if k.compiler_occupancy is not None else "-",
             tr("compile.col.binds"): ", ".join(tr(f"compile.limit.{b}") for b in k.occupancy["binding"])}
            for k in result.kernels]


def show_resources(result: eng.CompileResult) -> None:
    if not result.kernels:
        st.info(tr("compile.page.no_kernels"))
        return
    st.caption(tr("compile.page.resources_help"))
    st.dataframe(resource_rows(result), hide_index=True, width="stretch")
    for k in result.kernels:
        st.write(tr("compile.page.binds", kernel=k.display, waves=k.occupancy["waves_per_simd"],
                    limit=", ".join(tr(f"compile.limit.{b}") for b in k.occupancy["binding"])))


def _listing(kernel, query: str, classes: list[str] | None = None) -> str:
    from rocm_bridge.compile.isa import search
    lines = []
    for i, ln in search(kernel, query):
        if classes and ln.cls not in classes:
            continue
        tag = f"[{ln.cls}]" if ln.cls else ""
        lines.append(f"{i:4} {tag:13} {ln.text.strip()}")
    return "\n".join(lines)


def show_isa(result: eng.CompileResult, key_prefix: str) -> None:
    kernels = result.kernel_asm()
    if not kernels:
        st.info(tr("compile.page.no_kernels"))
        return
    names = [k.name for k in kernels]
    chosen = st.selectbox(tr("compile.page.kernel"), names, key=f"{key_prefix}_isa_kernel")
    kernel = kernels[names.index(chosen)] if chosen in names else kernels[0]
    query = st.text_input(tr("compile.page.search"), key=f"{key_prefix}_isa_q", max_chars=80,
                          placeholder="v_mfma, ds_, global_load, s_waitcnt, readlane")
    counts = kernel.counts()
    st.caption(tr("compile.page.instructions", n=kernel.instructions) + " · " + tr("compile.page.isa_help"))
    lg = lang()
    present = [c for c in CLASS_IDS if counts.get(c)]
    only = st.pills(tr("compile.page.classes"), present, selection_mode="multi", key=f"{key_prefix}_isa_cls",
                    format_func=lambda c: f"{i18n.t(f'compile.cls.{c}', lg)} ({counts.get(c, 0)})")
    st.code(_listing(kernel, query, list(only or [])), language="asm", height=420)


PAIRS = {"hipcc": recorded.TARGETS, "clang22": (("gfx942", 64), ("gfx1201", 32))}


def side_by_side(code: str, key_prefix: str, example: str | None = None, compiler: str = "hipcc") -> None:
    st.markdown(f"**{tr('compile.page.side_by_side')}**")
    state_key = f"{key_prefix}_sbs"
    if st.button(tr("compile.page.side_by_side_button"), key=f"{key_prefix}_sbs_btn"):
        pair = [run_compile(code, t, w, key_prefix, example, compiler) for t, w in PAIRS[compiler]]
        st.session_state[state_key] = (code, pair)
    saved = st.session_state.get(state_key)
    if not saved or saved[0] != code or not all(saved[1]):
        return
    cols = st.columns(2)
    for col, res in zip(cols, saved[1], strict=True):
        with col:
            st.caption(f"{res.target} · wave{res.wave}" + (f" · {tr('compile.page.recorded', date=res.recorded, compiler=res.compiler)}" if res.recorded else ""))
            ks = res.kernel_asm()
            if not ks:
                st.info(tr("compile.page.no_kernels"))
                continue
            k = ks[0]
            st.caption(tr("compile.page.instructions", n=k.instructions) + " · " + ", ".join(
                f"{tr(f'compile.cls.{c}')}: {n}" for c, n in k.counts().items()))
            st.code(k.text(), language="asm", height=420)


def whatif(code: str, result: eng.CompileResult, key_prefix: str) -> None:
    st.markdown(f"**{tr('compile.page.whatif')}**")
    st.caption(tr("compile.page.whatif_help"))
    block = st.select_slider(tr("compile.occ.block"), BLOCKS, value=256, key=f"{key_prefix}_wi_block")
    if st.button(tr("compile.page.whatif_run", n=block), key=f"{key_prefix}_wi_btn"):
        res = run_compile(eng.with_launch_bounds(code, block), result.target, result.wave, key_prefix,
                          compiler=result.toolchain)
        if res is not None:
            st.session_state[f"{key_prefix}_wi_res"] = (code, block, res)
    saved = st.session_state.get(f"{key_prefix}_wi_res")
    if saved and saved[0] == code and saved[2] is not None:
        show_resources(saved[2])


def show_result(code: str, result: eng.CompileResult, key_prefix: str, example: str | None = None) -> None:
    if result.recorded:
        st.warning(tr("compile.page.recorded", date=result.recorded, compiler=result.compiler),
                   icon=":material/history:")
    st.caption(tr("compile.page.summary", target=result.target, wave=result.wave, errors=result.errors,
                  warnings=result.warnings, kernels=len(result.kernels), seconds=result.seconds,
                  compiler=result.compiler or "-")
               + (f" · {tr('compile.page.sandboxed')}" if result.sandboxed else ""))
    level = tr("compile.page.level_isa" if result.toolchain == "clang22" else "compile.page.level_api")
    st.caption(tr("compile.page.produced_by", compiler=result.compiler or result.toolchain, level=level))
    tab_d, tab_r, tab_i = st.tabs([tr("compile.page.tabs_diag"), tr("compile.page.tabs_res"),
                                   tr("compile.page.tabs_isa")])
    with tab_d:
        show_diagnostics(code, result)
    with tab_r:
        show_resources(result)
        if result.kernels and not result.recorded:
            whatif(code, result, key_prefix)
    with tab_i:
        show_isa(result, key_prefix)
        side_by_side(code, key_prefix, example, result.toolchain)
    source_note(tr("compile.page.source"))


def compile_panel(code: str, key_prefix: str, example: str | None = None) -> None:
    """Compiler + target picker + Compile button + results, for any HIP text (the hipify page calls this on its
    output)."""
    compiler = compiler_picker(key_prefix)
    target, wave = target_picker(key_prefix, compiler)
    if compiler == "hipcc" and not toolchain.available():
        how_to_get()
    res_key = f"{key_prefix}_result"
    if st.button(tr("compile.page.compile"), key=f"{key_prefix}_go", type="primary", icon=":material/build:"):
        st.session_state[res_key] = (code, run_compile(code, target, wave, key_prefix, example, compiler))
    saved = st.session_state.get(res_key)
    if saved and saved[0] == code and saved[1] is not None:
        show_result(code, saved[1], key_prefix, example)


def render_hip() -> None:
    keys = examples.all_keys()
    url_state("cl_ex", keys[0], valid=keys)
    lg = lang()  # AppTest calls format_func outside the run: capture the language now
    example = st.selectbox(tr("compile.page.example"), keys, key="cl_ex", format_func=lambda k: _example_label(k, lg))
    push_url("cl_ex")
    if st.session_state.get("cl_loaded") != example:
        st.session_state["cl_code"] = examples.source(example)
        st.session_state["cl_loaded"] = example
    code = st.text_area(tr("compile.page.code"), key="cl_code", height=360, max_chars=eng.policy.MAX_CODE_BYTES)
    cases_table(example)
    compile_panel(code, "cl", example)


def _said(value: str) -> str:
    """'warning:lane_mask_32' -> 'warning: A 32-bit lane mask'; 'ok' -> 'compiles'."""
    if value == "ok":
        return tr("compile.cases.ok")
    sev, _, explain = value.partition(":")
    return f"{sev}: {tr(f'compile.explain.{explain}.title', name='__shfl_down_sync')}" if explain else sev


def cases_table(example: str) -> None:
    """For an example of data/compile_cases.csv: what each tool says about it, one row per case."""
    from rocm_bridge.data import read_csv
    rows = [c for c in read_csv("compile_cases.csv") if c["lab_example"] == example]
    if not rows:
        return
    with st.expander(tr("compile.cases.title"), expanded=False, icon=":material/compare_arrows:"):
        st.dataframe([{tr("compile.cases.line"): int(c["line"]),
                       tr("compile.cases.lint"): c["lint_rule"] or tr("compile.cases.none"),
                       tr("compile.cases.hipcc"): f"{_said(c['hipcc_5_2_gfx90a'])} / {_said(c['hipcc_5_2_gfx1100'])}",
                       tr("compile.cases.clang22"): f"{_said(c['clang22_gfx942'])} / {_said(c['clang22_gfx1201'])}",
                       tr("compile.cases.rocm7_col"): tr(f"compile.cases.r7.{c['case']}")} for c in rows],
                     hide_index=True, width="stretch")
        st.caption(tr("compile.cases.chapter"))


def render_page() -> None:
    """The lab: HIP (two compilers), Triton (AMD beside NVIDIA) and the NVIDIA twin of a hipify example."""
    from rocm_bridge.ui.compile_tabs import triton_tab, twin_tab
    tab_hip, tab_triton, tab_twin = st.tabs([tr("compile.page.tab_hip"), tr("compile.page.tab_triton"),
                                             tr("compile.page.tab_twin")])
    with tab_hip:
        render_hip()
    with tab_triton:
        triton_tab()
    with tab_twin:
        twin_tab()


def _example_label(key: str, lg: str) -> str:
    if key.startswith("hipify_"):
        return "hipify → " + i18n.t(f"hipify.example.{key[len('hipify_'):]}", lg)
    return i18n.t(f"compile.example.{key}", lg)


def occupancy_widget(key_prefix: str = "occ", embedded: bool = False) -> None:
    """The occupancy formula, interactive (no compiler needed); a chapter embeds it as `::: widget occupancy`."""
    p = f"{key_prefix}_occ"
    if not embedded:
        st.subheader(tr("compile.occ.title"))
    st.caption(tr("compile.occ.intro"))
    d = TARGET_DEFAULTS  # the handout's table of every target uses the same inputs
    names = list(targets())
    c1, c2 = st.columns(2)
    with c1:
        name = st.selectbox(tr("compile.page.target"), names, index=names.index(d["target"]), key=f"{p}_t",
                            format_func=_fmt_target)
    t = get_target(name)
    t = t if t.clang15_known else t.for_compiler("clang22")  # gfx942 / gfx950 / RDNA 4: the current LLVM's model
    with c2:
        wave = st.segmented_control(tr("compile.page.wave"), list(t.wave_sizes), default=t.default_wave,
                                    key=f"{p}_w_{name}", format_func=lambda w: f"wave{w}") or t.default_wave
    c3, c4, c5 = st.columns(3)
    block = c3.select_slider(tr("compile.occ.block"), BLOCKS, value=d["block"], key=f"{p}_b")
    vgprs = c4.slider(tr("compile.occ.vgprs"), 1, 512 if t.unified_agprs else 256, d["vgprs"], key=f"{p}_v")
    lds = c5.slider(tr("compile.occ.lds"), 0, t.lds_per_workgroup_bytes, d["lds"], step=512, key=f"{p}_l")
    c6, c7 = st.columns(2)
    agprs = c6.slider(tr("compile.occ.agprs"), 0, t.agprs, d["agprs"], key=f"{p}_a") if t.agprs else 0
    sgprs = c7.slider(tr("compile.occ.sgprs"), 1, 104, d["sgprs"], key=f"{p}_s") if t.sgprs_limit_occupancy else 0
    occ = occupancy(t, vgprs=vgprs, agprs=agprs, sgprs=sgprs, lds_bytes=lds, block_size=block, wave=wave)
    _, allocated = waves_by_vgprs(t, wave, vgprs, agprs)
    st.metric(tr("compile.occ.result"), f"{occ.waves_per_simd} / {t.max_waves_per_simd}")
    st.caption(tr("compile.occ.allocated", n=allocated, g=t.vgpr_granule[t.wave(wave)], budget=t.vgprs[t.wave(wave)]))
    st.dataframe([{tr("compile.occ.limit_col"): tr(f"compile.limit.{k}"), tr("compile.occ.waves_col"): occ.by_limit[k],
                   "": tr("compile.occ.binding") if k in occ.binding else ""} for k in LIMITS],
                 hide_index=True, width="stretch")
    st.caption(tr("compile.occ.products", target=t.name, products=md_escape(t.products), arch=t.architecture,
                  vgpr=t.vgpr_file_kib_docs, lds=t.lds_kib_docs,
                  unit=tr("compile.occ.unit_wgp" if t.name.startswith("gfx1") else "compile.occ.unit_cu")))
    source_note(t.source)
