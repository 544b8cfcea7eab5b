"""The hipify page's working area: the editable CUDA pane (Ace, or a plain text area) beside the translated HIP,
the compile lab under it with a note on what its compiler can check for the target ROCm, and, for a project, the
table of files, the project report and the file picker.
"""

from __future__ import annotations

import streamlit as st

from rocm_bridge.hipify import page_model as pm
from rocm_bridge.hipify import report as rp
from rocm_bridge.hipify.translator import Options
from rocm_bridge.ui import tr
from rocm_bridge.ui.hipify_share import code_in_link, downloads
from rocm_bridge.ui.hipify_state import (
    CODE_KEY,
    LOADED_KEY,
    PANE_HEIGHT,
    PLAIN_KEY,
    TEXT_KEY,
    VERSION_KEY,
    code_px,
    pane_height,
    shown,
    typed_rocm,
)
from rocm_bridge.ui.theme import palette


def editor() -> str:
    """The editable CUDA pane (Ace via streamlit-code-editor, offline; a plain text area as fallback)."""
    plain = st.session_state.get(PLAIN_KEY, False)
    code = st.session_state.get(CODE_KEY, "")
    if not plain:
        try:
            from code_editor import code_editor
        except ImportError:
            plain = True
    if plain:
        st.text_area(tr("hipify.page.editor_label"), key=TEXT_KEY, height=PANE_HEIGHT, max_chars=pm.MAX_EDITOR_CHARS)
        code = st.session_state.get(TEXT_KEY, code)
    else:
        st.caption(tr("hipify.page.editor_label"))
        # no soft wrap: a wrapped macro line drops its continuation backslash alone onto the next row, and with
        # the HIP pane also unwrapped line N sits beside line N; long lines scroll sideways, nothing is cut
        resp = code_editor(shown(code), lang="c_cpp", height=[24, 24], response_mode="debounce",
                           key=f"hp_editor_{st.session_state.get(VERSION_KEY, 0)}",
                           options={"wrap": False, "showLineNumbers": True, "fontSize": code_px()},
                           # Ace's built-in theme: the component's own streamlit_light/dark themes @import Google
                           # Fonts, a request off this server on every visit (docs/security.md, offline)
                           props={"theme": palette().code_editor})  # textmate, or tomorrow_night when dark
        if isinstance(resp, dict) and resp.get("type") and isinstance(resp.get("text"), str):
            code = resp["text"]
    before = st.session_state.get(CODE_KEY)
    st.session_state[CODE_KEY] = code
    st.toggle(tr("hipify.page.plain_editor"), key=PLAIN_KEY)
    loaded = st.session_state.get(LOADED_KEY, "")
    if code != before and loaded.startswith("example:") and code != pm.example_source(loaded[8:]):
        st.rerun()  # the example box above already rendered: show "Your code" in it now, not on the next click
    return code


def panes(files: list[pm.SourceFile], opts: Options) -> list[pm.FileResult]:
    """CUDA editor on the left, HIP on the right (single file); a project gets a file picker instead."""
    if len(files) > 1:
        with st.status(tr("hipify.page.translating", n=len(files)), expanded=False) as status:
            results = pm.translate_files(files, opts)
            status.update(label=tr("hipify.page.translated", n=len(files)), state="complete")
        return results
    left, right = st.columns(2)
    with left:
        code = editor()
    results = pm.translate_files([pm.SourceFile(files[0].path, code, encoding=files[0].encoding)], opts)
    with right:
        st.caption(tr("hipify.page.hip_pane"))
        st.code(shown(results[0].result.output), language="cpp", line_numbers=True, wrap_lines=False,
                height=pane_height(code))
        downloads(results)
    code_in_link(code)
    with st.expander(tr("compile.page.hipify_expander"), icon=":material/build:"):  # the compile lab on the HIP
        from rocm_bridge.ui.compile_view import compile_panel
        compile_note(results[0])
        compile_panel(results[0].result.output, "hp_cl")
    return results


def compile_note(fr: pm.FileResult) -> None:
    """What the compile lab's compiler can and cannot check for the target ROCm. Both of its compilers build
    against ROCm 5.2's headers (hipcc 5.2; clang 22 for today's code generation), so hipcc stays the default: it is
    the target's own compiler for ROCm 5.2, and for any other target the note says what a build here proves."""
    fit = pm.compile_fit(fr, typed_rocm())
    if fit.relation == "none":
        return
    if fit.relation != "newer":
        st.caption(tr(f"hipify.compile.{fit.relation}", target=fit.target, compiler=fit.compiler))
        return
    names = ", ".join(f"`{n}` ({v})" for n, v in fit.beyond[:6])  # names from the mapping table
    st.info(tr("hipify.compile.newer", target=fit.target, compiler=fit.compiler) + " "
            + (tr("hipify.compile.beyond", n=len(fit.beyond), target=fit.target, compiler=fit.compiler, names=names)
               if fit.beyond else tr("hipify.compile.beyond_none", target=fit.target, compiler=fit.compiler)),
            icon=":material/info:")


def project_picker(results: list[pm.FileResult]) -> pm.FileResult:
    st.info(tr("hipify.page.project", n=len(results)))
    rows = []
    for fr in results:
        s = rp.summarize(fr.result)
        rows.append({tr("hipify.col.file"): fr.path, tr("hipify.col.converted"): s.converted,
                     tr("hipify.col.unsupported"): s.unsupported + s.experimental,
                     tr("hipify.page.metric_lines"): s.lines_changed, tr("hipify.page.metric_lint"): len(fr.findings)})
    with st.expander(tr("hipify.page.project_table")):
        st.dataframe(rows, hide_index=True, width="stretch")
    from rocm_bridge.ui.hipify_project import render_project  # project report, build files (hipify-data)

    render_project(results)
    paths = [fr.path for fr in results]
    chosen = st.selectbox(tr("hipify.page.file_pick"), paths, key="hp_file")
    return results[paths.index(chosen)]
