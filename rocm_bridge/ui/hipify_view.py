"""Widgets of the hipify page. The computation lives in rocm_bridge.hipify (page_model, report, lint); this
module reads widgets and renders. User code is only ever shown through st.code / st.dataframe (never HTML)."""

from __future__ import annotations

import streamlit as st

from rocm_bridge.errors import RocmBridgeError
from rocm_bridge.hipify import page_model as pm
from rocm_bridge.hipify import report as rp
from rocm_bridge.hipify.sources import write_zip
from rocm_bridge.hipify.translator import Options
from rocm_bridge.limits import HIPIFY_UPLOAD_MB
from rocm_bridge.text import md_escape
from rocm_bridge.ui import formula_card, lang, show_error, source_note, tr
from rocm_bridge.ui.state import push_url, share_link, url_state
from rocm_bridge.ui.theme import palette
from rocm_bridge.ui.upload import file_upload

VIEWS = ("report", "diff", "lint", "flow")
# (query key, command-line option shown as the label, catalog key of its explanation)
OPTION_KEYS = (("hp_roc", "--roc", "opt_roc"), ("hp_miopen", "--miopen", "opt_miopen"),
               ("hp_exp", "--experimental", "opt_experimental"),
               ("hp_launch", "--hip-kernel-execution-syntax", "opt_launch"))
PANE_HEIGHT = 520


def pane_height(text: str) -> int | str:
    """Fixed height for long code (scrolls), natural height for short snippets."""
    return PANE_HEIGHT if text.count("\n") > 24 else "content"
CODE_KEY, LOADED_KEY, VERSION_KEY, PLAIN_KEY, TEXT_KEY = "hp_code", "hp_loaded", "hp_ver", "hp_plain", "hp_text"
ENCODING_KEY = "hp_encoding"  # what the loaded upload was read as (the download is written back in it)


def options_panel() -> Options:
    st.caption(tr("hipify.page.options"))
    cols = st.columns([1, 1, 1.2, 2])
    for col, (key, label, help_key) in zip(cols, OPTION_KEYS, strict=True):
        with col:
            st.toggle(label, key=key, bind="query-params", help=tr(f"hipify.page.{help_key}"))
    s = st.session_state
    return Options(roc=bool(s.get("hp_roc")), miopen=bool(s.get("hp_miopen")), experimental=bool(s.get("hp_exp")),
                   kernel_syntax=bool(s.get("hp_launch")))


def shown(text: str) -> str:
    """Text for the screen: bytes that were not UTF-8 (kept as surrogates for a faithful download) become U+FFFD;
    a surrogate cannot be sent to the browser at all (UnicodeEncodeError)."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _set_code(text: str, origin: str, encoding: str = "utf-8") -> None:
    st.session_state[ENCODING_KEY] = encoding
    st.session_state[CODE_KEY] = text
    st.session_state[TEXT_KEY] = shown(text)
    st.session_state[LOADED_KEY] = origin
    st.session_state[VERSION_KEY] = st.session_state.get(VERSION_KEY, 0) + 1  # remount the editor


def source_panel() -> list[pm.SourceFile] | None:
    """The files to translate: the uploaded project, or the editor's code (seeded from the example)."""
    left, right = st.columns([1, 2])
    with left:
        # url_state, not bind=: a bound selectbox stores its translated label in the URL, and a link must work
        # in both languages
        url_state("hp_ex", pm.EXAMPLES[0], valid=pm.EXAMPLES)
        example = st.selectbox(tr("hipify.page.example"), pm.EXAMPLES, key="hp_ex",
                               format_func=lambda k: tr(f"hipify.example.{k}"))
        push_url("hp_ex")
    with right:
        upload = file_upload(tr("hipify.page.upload"), ["cu", "cuh", "cpp", "h", "hpp", "zip"], key="hp_upload",
                             limit_mb=HIPIFY_UPLOAD_MB)
    if upload is not None:
        try:
            files = pm.load_upload(upload.name, upload.getvalue())
        except RocmBridgeError as err:
            show_error(err)
            return None
        for f in files:
            if f.bad_utf8_at is not None:
                st.warning(tr("hipify.page.legacy_encoding", name=md_escape(f.path), offset=f.bad_utf8_at,
                              encoding=tr(f"hipify.encoding.{f.encoding}")))
        if len(files) > 1:
            return files
        origin = f"upload:{upload.file_id}"
        if st.session_state.get(LOADED_KEY) != origin:
            _set_code(files[0].text, origin, files[0].encoding)
        st.caption(tr("hipify.page.uploaded", name=md_escape(files[0].path)))
        name = files[0].path
    else:
        origin = f"example:{example}"
        if st.session_state.get(LOADED_KEY) != origin:
            _set_code(pm.example_source(example), origin)
        name = f"{example}.cu"
    return [pm.SourceFile(name, st.session_state.get(CODE_KEY, ""),
                          encoding=st.session_state.get(ENCODING_KEY, "utf-8"))]


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
        resp = code_editor(shown(code), lang="c_cpp", height=[24, 24], response_mode="debounce",
                           key=f"hp_editor_{st.session_state.get(VERSION_KEY, 0)}",
                           options={"wrap": True, "showLineNumbers": True},  # long lines wrap, never cut
                           # Ace's built-in theme: the component's own streamlit_light/dark themes @import Google
                           # Fonts, a request off this server on every visit (docs/security.md, offline)
                           props={"theme": palette().code_editor})  # textmate, or tomorrow_night when dark
        if isinstance(resp, dict) and resp.get("type") and isinstance(resp.get("text"), str):
            code = resp["text"]
    st.session_state[CODE_KEY] = code
    st.toggle(tr("hipify.page.plain_editor"), key=PLAIN_KEY)
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
        st.code(shown(results[0].result.output), language="cpp", line_numbers=True, wrap_lines=True, height=pane_height(code))
        downloads(results)
    with st.expander(tr("compile.page.hipify_expander"), icon=":material/build:"):  # the compile lab on the HIP
        from rocm_bridge.ui.compile_view import compile_panel
        compile_panel(results[0].result.output, "hp_cl")
    return results


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


def downloads(results: list[pm.FileResult]) -> None:
    if len(results) == 1:
        fr = results[0]
        stem = fr.path.rsplit(".", 1)[0]
        name = f"{stem}.hip" if fr.path.endswith(".cu") else fr.path
        st.download_button(tr("hipify.page.download_file", name=md_escape(name)), fr.output_bytes(), file_name=name,
                           mime="text/plain", key="hp_dl")
    else:
        data = write_zip([(fr.path, fr.output_bytes()) for fr in results])
        st.download_button(tr("hipify.page.download_zip"), data, file_name="hipified.zip", mime="application/zip",
                           key="hp_dl_zip")


def _table(rows: list[dict], columns: dict[str, str]) -> None:
    if not rows:
        st.caption(tr("hipify.page.none"))
        return
    st.dataframe([{tr(label): shown(row[key]) if isinstance(row[key], str) else row[key]
                   for key, label in columns.items()} for row in rows], hide_index=True,
                 width="stretch")


def render_diff(fr: pm.FileResult) -> None:
    rows = pm.diff_rows(fr.result.source, fr.result.output)
    if not rows:
        st.info(tr("hipify.page.no_changes"))
    else:
        st.caption(tr("hipify.page.changed_lines", n=len(rows)))
        _table(rows, {"cuda_line": "hipify.col.line", "cuda": "hipify.col.cuda", "hip_line": "hipify.col.line",
                      "hip": "hipify.col.hip"})
    with st.expander(tr("hipify.page.full_files"), expanded=False):
        left, right = st.columns(2)
        left.caption(tr("hipify.page.cuda_pane"))
        left.code(shown(fr.result.source), language="cpp", line_numbers=True, wrap_lines=True)
        right.caption(tr("hipify.page.hip_pane"))
        right.code(shown(fr.result.output), language="cpp", line_numbers=True, wrap_lines=True)


def render_report(fr: pm.FileResult) -> None:
    result, lg = fr.result, lang()
    s = rp.summarize(result)
    c1, c2, c3, c4 = st.columns(4)
    c1.metric(tr("hipify.page.metric_refs"), f"{s.converted} / {s.total}")
    c2.metric(tr("hipify.page.metric_pct"), "n/a" if s.percentage is None else f"{s.percentage:.1f} %",
              help=tr("hipify.page.metric_pct_help"))
    c3.metric(tr("hipify.page.metric_lines"), f"{s.lines_changed} / {s.lines_total}")
    c4.metric(tr("hipify.page.metric_lint"), len(fr.findings))
    for key, line, _col in result.notes:
        st.warning(tr(key) if not line else f"{tr('hipify.col.line')} {line}: {tr(key)}")
    st.subheader(tr("hipify.page.groups"))
    _table(rp.group_rows(result), {"api_group": "hipify.col.group", "converted": "hipify.col.converted",
                                   "unsupported": "hipify.col.unsupported", "experimental": "hipify.col.experimental"})
    st.subheader(tr("hipify.page.unconverted"))
    _table(rp.unconverted_rows(result, lg), {"line": "hipify.col.line", "col": "hipify.col.col",
                                             "name": "hipify.col.name", "api_group": "hipify.col.group",
                                             "reason": "hipify.col.reason"})
    st.subheader(tr("hipify.page.deprecated"))
    _table(rp.deprecated_rows(result, lg), {"line": "hipify.col.line", "col": "hipify.col.col",
                                            "name": "hipify.col.name", "hip_name": "hipify.col.hip_name",
                                            "note": "hipify.col.note"})
    st.subheader(tr("hipify.page.headers"))
    _table([{"line": h.line, "cuda": h.cuda_header, "hip": h.hip_header, "action": tr(f"hipify.header.{h.reason}")}
            for h in result.headers],
           {"line": "hipify.col.line", "cuda": "hipify.col.cuda_header", "hip": "hipify.col.hip_header",
            "action": "hipify.col.action"})
    st.subheader(tr("hipify.page.launches"))
    _table([{"line": x.line, "kernel": x.kernel, "rewritten": x.rewritten, "note": tr(x.reason) if x.reason else ""}
            for x in result.launches],
           {"line": "hipify.col.line", "kernel": "hipify.col.kernel", "rewritten": "hipify.col.rewritten",
            "note": "hipify.col.note"})
    from rocm_bridge.ui.hipify_project import render_minimum_rocm  # minimum ROCm section (hipify-data)

    render_minimum_rocm(fr)
    with st.expander(tr("hipify.page.formula")):
        formula_card("coverage")
    source_note(tr("hipify.page.source"))


def render_lint(fr: pm.FileResult) -> None:
    st.caption(tr("hipify.page.lint_intro"))
    if not fr.findings:
        st.success(tr("hipify.page.lint_clean"))
        return
    # one card per finding: a table cell would cut the explanations; the user's code is shown only through st.code
    for row in rp.lint_rows(list(fr.findings), lang()):
        severity = row["severity"]
        with st.container(border=True):
            st.markdown(f"**{tr('hipify.col.line')} {row['line']} · {tr(f'hipify.severity.{severity}')} · "
                        f"{md_escape(row['rule'])}**")
            st.code(row["code"], language="cpp")
            st.markdown(f"**{tr('hipify.col.why')}:** {row['why']}")
            st.markdown(f"**{tr('hipify.col.fix')}:** {row['fix']}")


def render_flow(fr: pm.FileResult) -> None:
    flow = pm.migration_flow(fr.result, fr.findings)
    with st.container(border=True):
        st.markdown(f"**{tr('hipify.flow.scan')}**")
        st.write(tr("hipify.flow.scan_body", **flow.scan))
    with st.container(border=True):
        st.markdown(f"**{tr('hipify.flow.map')}**")
        _table([{**m, "status": tr(f"hipify.status.{m['status']}")} for m in flow.mapping],
               {"cuda": "hipify.col.name", "hip": "hipify.col.hip_name", "api_group": "hipify.col.group",
                "status": "hipify.col.status", "count": "hipify.col.count"})
    with st.container(border=True):
        st.markdown(f"**{tr('hipify.flow.rewrite')}**")
        st.write(tr("hipify.flow.rewrite_body", **flow.rewrite))
    with st.container(border=True):
        st.markdown(f"**{tr('hipify.flow.report')}**")
        pct = flow.report["percentage"]
        st.write(tr("hipify.flow.report_body", **{**flow.report, "pct": "n/a" if pct is None else f"{pct:.1f} %"}))


def view_picker() -> str:
    url_state("hp_view", VIEWS[0], valid=VIEWS)
    view = st.segmented_control(tr("hipify.page.view"), VIEWS, key="hp_view", required=True,
                                format_func=lambda v: tr(f"hipify.view.{v}"))
    push_url("hp_view")
    return view or VIEWS[0]


RENDER = {"diff": render_diff, "report": render_report, "lint": render_lint,
          "flow": render_flow}


def share() -> None:
    """The share link. Uploaded code is never stored, so after an upload the link carries the options and the
    view but not the example (it would open the example instead of the upload) and says so."""
    if st.session_state.get("hp_upload") is None:
        share_link()
        return
    share_link(drop=("hp_ex",))
    st.caption(tr("hipify.page.share_upload"))
