"""Widgets of the hipify page. The computation lives in rocm_bridge.hipify (page_model, report, lint); this
module reads widgets and renders. User code is only ever shown through st.code / st.dataframe, or escaped in the diff table (html.escape)."""

from __future__ import annotations

import html

import streamlit as st

from rocm_bridge import i18n
from rocm_bridge.errors import RocmBridgeError
from rocm_bridge.hipify import page_model as pm
from rocm_bridge.hipify import report as rp
from rocm_bridge.hipify.sources import write_zip
from rocm_bridge.hipify.translator import Options
from rocm_bridge.limits import HIPIFY_UPLOAD_MB
from rocm_bridge.pages import page as by_key
from rocm_bridge.text import md_escape
from rocm_bridge.ui import formula_card, lang, show_error, source_note, tr
from rocm_bridge.ui.presenter import CODE_PX, presenting
from rocm_bridge.ui.state import parse_flag, push_url, share_link, url_state
from rocm_bridge.ui.theme import palette
from rocm_bridge.ui.upload import file_upload
from rocm_bridge.visual.style import blend

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


ROCM_KEY, WAVE_KEY = "hp_rocm", "hp_wave"  # the target ROCm (?hp_rocm=6.1) and --wavefront (?hp_wave=true)


def options_panel() -> Options:
    st.caption(tr("hipify.page.options"))
    cols = st.columns([1, 1, 1.2, 2])
    for col, (key, label, help_key) in zip(cols, OPTION_KEYS, strict=True):
        with col:
            st.toggle(label, key=key, bind="query-params", help=tr(f"hipify.page.{help_key}"))
    left, right = st.columns([1, 2.2], vertical_alignment="bottom")
    with left:
        target = target_picker()
    with right:  # url_state, not bind=: a bad link value gets the same notice as the picker's
        url_state(WAVE_KEY, False, cast=parse_flag)
        st.toggle(tr("hipify.page.opt_wavefront"), key=WAVE_KEY, help=tr("hipify.page.opt_wavefront_help"))
        push_url(WAVE_KEY)
    s = st.session_state
    return Options(roc=bool(s.get("hp_roc")), miopen=bool(s.get("hp_miopen")), experimental=bool(s.get("hp_exp")),
                   kernel_syntax=bool(s.get("hp_launch")), rocm_version=target, wavefront=bool(s.get(WAVE_KEY)))


def target_picker() -> str:
    """The ROCm release to translate for and check against (?hp_rocm=), newest first, default the newest: the one
    release the translation, "left for you", the minimum-ROCm section and the compile lab's note all use. Old links
    carry ?hp_rocm= from the free-text box this replaces: empty means the newest, an unlisted release the listed one
    before it (it translates the same), anything else falls back with a notice."""
    releases = pm.target_releases()
    url_state(ROCM_KEY, releases[0], cast=lambda v: pm.target_release(v) or "", valid=releases)
    if st.session_state.get(ROCM_KEY) not in releases:  # a value set by other code: the newest
        st.session_state[ROCM_KEY] = releases[0]
    lg, newest = lang(), releases[0]
    value = st.selectbox(tr("hipify.page.target_rocm"), releases, key=ROCM_KEY,
                         format_func=lambda v: i18n.t("hipify.page.target_newest", lg, version=v) if v == newest
                         else f"ROCm {v}", help=tr("hipify.page.target_help"))
    push_url(ROCM_KEY)
    return value or newest


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


MINE = "mine"  # the example box's entry for the visitor's own code (pasted, typed over an example, or a link's)
LINK_KEY = "hp_src"  # the code in the link (page_model.encode_link_code)


def _link_code() -> None:
    """Once per session: code carried by the link (?hp_src=) replaces the example."""
    if "_hp_src_read" in st.session_state:
        return
    st.session_state["_hp_src_read"] = True
    raw = st.query_params.get(LINK_KEY)
    if raw is None:
        return
    text = pm.decode_link_code(raw)
    if text is None:
        st.warning(tr("hipify.page.link_bad"))
        return
    st.session_state["hp_ex"] = MINE
    _set_code(text, MINE)


def _own_code_noticed() -> None:
    """Code typed over an example is the visitor's own from then on: the example box says so (before it renders)."""
    loaded = st.session_state.get(LOADED_KEY, "")
    if loaded.startswith("example:") and st.session_state.get(CODE_KEY) != pm.example_source(loaded[8:]):
        st.session_state[LOADED_KEY] = MINE
        st.session_state["hp_ex"] = MINE


def source_panel() -> list[pm.SourceFile] | None:
    """The files to translate: the uploaded project, or the editor's code (an example, a link's, or the visitor's)."""
    _link_code()
    _own_code_noticed()
    left, right = st.columns([1, 2])
    with left:
        # url_state, not bind=: a bound selectbox stores its translated label in the URL, and a link must work
        # in both languages
        choices = (*pm.EXAMPLES, MINE)
        url_state("hp_ex", pm.EXAMPLES[0], valid=choices)
        example = st.selectbox(tr("hipify.page.example"), choices, key="hp_ex",
                               format_func=lambda k: tr("hipify.page.mine" if k == MINE else f"hipify.example.{k}"))
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
    elif example == MINE:
        if not st.session_state.get(LOADED_KEY, "").startswith(("upload:", MINE)):
            st.session_state[LOADED_KEY] = MINE  # chosen by hand: keep the code on screen as the visitor's own
        name = pm.pasted_name(st.session_state.get(CODE_KEY, "")).replace(".hip", ".cu")
    else:
        origin = f"example:{example}"
        if st.session_state.get(LOADED_KEY) != origin:
            _set_code(pm.example_source(example), origin)
        name = f"{example}.cu"
    return [pm.SourceFile(name, st.session_state.get(CODE_KEY, ""),
                          encoding=st.session_state.get(ENCODING_KEY, "utf-8"))]


def code_in_link(code: str) -> None:
    """The visitor's own code goes into the link (compressed, bounded); an example or an upload never does."""
    own = st.session_state.get("hp_ex") == MINE and st.session_state.get("hp_upload") is None
    value = pm.encode_link_code(code) if own else None
    if value is None:
        st.query_params.pop(LINK_KEY, None)
    else:
        st.query_params[LINK_KEY] = value
    st.session_state["_hp_link_state"] = "none" if not own else ("in" if value else "too_long")


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


def code_px() -> int:
    """Code type on both panes, the diff included: the back-row floor when presenting (Streamlit's st.code would
    be 0.875 x the presenter body, the Ace editor 12 px)."""
    return CODE_PX if presenting() else 14


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


def downloads(results: list[pm.FileResult]) -> None:
    if len(results) == 1:
        fr = results[0]
        stem = fr.path.rsplit(".", 1)[0]
        if st.session_state.get("hp_ex") == MINE and st.session_state.get("hp_upload") is None:
            name = pm.pasted_name(fr.result.source)
        else:
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


_DIFF_CSS = """
<style>
  .rb-diff { width: 100%%; border-collapse: collapse; table-layout: fixed; font-family: "Source Code Pro", monospace;
             font-size: %(px)dpx; line-height: 1.35; }
  .rb-diff th { text-align: left; font-family: inherit; padding: .2em .4em; border-bottom: 1px solid %(line)s; }
  .rb-diff td { vertical-align: top; padding: .1em .4em; white-space: pre-wrap; overflow-wrap: anywhere; }
  .rb-diff td.n { width: 3.6em; text-align: right; color: %(muted)s; white-space: nowrap; }
  .rb-diff td.a { background: %(a_row)s; } .rb-diff td.b { background: %(b_row)s; }
  .rb-diff mark.a { background: %(a_mark)s; color: inherit; } .rb-diff mark.b { background: %(b_mark)s; color: inherit; }
</style>
"""


def _continuation(text: str) -> str:
    """A macro line's continuation backslash padded out to a column would wrap onto a row of its own; on screen the
    padding shrinks to one space (the source, the download and the copy keep it)."""
    stripped = text.rstrip()
    if stripped.endswith("\\") and stripped[:-1].endswith("  "):
        return stripped[:-1].rstrip() + " \\"
    return text


def _cell(pieces: list[tuple[str, bool]], side: str) -> str:
    return "".join(f'<mark class="{side}">{html.escape(t)}</mark>' if changed else html.escape(t)
                   for t, changed in pieces)


def diff_html(rows, cuda_title: str, hip_title: str) -> str:
    """The changed lines as a two-sided table, changed words marked; every text is escaped (user code)."""
    p = palette()
    cuda, hip = p.vendor_color("CUDA"), p.vendor_color("HIP")
    css = _DIFF_CSS % {"px": code_px(), "line": p.line, "muted": p.muted,
                       "a_row": blend(cuda, p.background, 0.08), "b_row": blend(hip, p.background, 0.08),
                       "a_mark": blend(cuda, p.background, 0.35), "b_mark": blend(hip, p.background, 0.35)}
    out = [css, '<table class="rb-diff"><colgroup><col style="width:3.6em"><col><col style="width:3.6em"><col>'
           f'</colgroup><thead><tr><th></th><th>{html.escape(cuda_title)}</th><th></th>'
           f'<th>{html.escape(hip_title)}</th></tr></thead><tbody>']
    for row in rows:
        left, right = pm.inline_spans(_continuation(shown(row["cuda"])), _continuation(shown(row["hip"])))
        ln = "" if row["cuda_line"] is None else row["cuda_line"]
        rn = "" if row["hip_line"] is None else row["hip_line"]
        out.append(f'<tr><td class="n">{ln}</td><td class="a">{_cell(left, "a")}</td>'
                   f'<td class="n">{rn}</td><td class="b">{_cell(right, "b")}</td></tr>')
    out.append("</tbody></table>")
    return "".join(out)


def render_diff(fr: pm.FileResult) -> None:
    d = pm.diff(fr.result.source, fr.result.output)
    if not d.changed:
        st.info(tr("hipify.page.no_changes"))
    elif not d.complete:
        st.warning(tr("hipify.page.too_different", n=d.changed))
    else:
        st.caption(tr("hipify.page.changed_lines", n=d.changed))
        if d.changed > len(d.rows):
            st.caption(tr("hipify.page.diff_first", shown=len(d.rows), n=d.changed))
        st.html(diff_html(d.rows, tr("hipify.col.cuda"), tr("hipify.col.hip")))
    with st.expander(tr("hipify.page.full_files"), expanded=d.changed > 0 and not d.complete):
        left, right = st.columns(2)
        left.caption(tr("hipify.page.cuda_pane"))
        left.code(shown(fr.result.source), language="cpp", line_numbers=True, wrap_lines=False)
        right.caption(tr("hipify.page.hip_pane"))
        right.code(shown(fr.result.output), language="cpp", line_numbers=True, wrap_lines=False)


def typed_rocm() -> str:
    """The target ROCm release of the picker (?hp_rocm=): what the page translates for and checks against."""
    value = str(st.session_state.get(ROCM_KEY, "")).strip()
    return value if value in pm.target_releases() else pm.target_releases()[0]


def compile_failed(fr: pm.FileResult) -> bool | None:
    """The compile lab's last build of exactly this HIP: True failed, False built, None not built."""
    saved = st.session_state.get("hp_cl_result")
    if not saved or saved[0] != fr.result.output or saved[1] is None:
        return None
    return not saved[1].ok


def left_story(fr: pm.FileResult) -> pm.LeftForYou:
    """What is left for you, said once at the top of the report: the same count the metric, the flow and the
    minimum-ROCm section use, against the target ROCm of the picker, with the compile lab's last result on this
    code."""
    left = pm.left_for_you(fr, typed_rocm())
    failed = compile_failed(fr)
    lines = []
    if left.unconverted:
        lines.append(tr("hipify.left.unconverted", n=left.unconverted))
    if left.lint_errors:
        lines.append(tr("hipify.left.lint", n=left.lint_errors))
    if left.too_new:
        newest = max((v for _n, v in left.too_new), key=lambda v: tuple(int(x) for x in v.split(".")))
        lines.append(tr("hipify.left.too_new", n=len(left.too_new), version=newest, against=left.against,
                        names=", ".join(f"`{n}`" for n, _v in left.too_new[:4])))  # names from the mapping table
    if failed:
        fit = pm.compile_fit(fr, typed_rocm())
        lines.append(tr("hipify.left.compile_failed_newer", compiler=fit.compiler, target=fit.target, n=len(fit.beyond))
                     if fit.beyond else tr("hipify.left.compile_failed"))
    if lines:
        st.warning(tr("hipify.left.title", n=left.total + (1 if failed and not left.total else 0)) + "\n\n"
                   + "\n".join(f"- {line}" for line in lines))
    else:
        st.success(tr("hipify.left.none", against=left.against))
    return left


def applied_rows(fr: pm.FileResult) -> list[dict]:
    """The target and wavefront rewrites applied to this file, one row each (the engine's own records)."""
    lg = lang()
    rows = []
    for a in pm.applied_rewrites(fr.result):
        rows.append({"line": a.line, "col": a.col, "kind": i18n.t(f"hipify.applied.kind_{a.kind}", lg),
                     "before": a.before, "after": a.after or i18n.t("hipify.applied.left", lg),
                     "why": i18n.t(a.note, lg),
                     "until": f"ROCm {a.until}" if a.until else i18n.t(f"hipify.applied.until_none_{a.kind}", lg),
                     "source": a.source or i18n.t("hipify.applied.source_wavefront", lg),
                     "rule": a.before if a.kind == "target" else a.note})  # one explanation per rule
    return rows


APPLIED_COLUMNS = {"line": "hipify.col.line", "col": "hipify.col.col", "kind": "hipify.applied.col_kind",
                   "before": "hipify.col.cuda", "after": "hipify.applied.col_written", "why": "hipify.applied.col_why",
                   "until": "hipify.applied.col_until", "source": "hipify.applied.col_source"}


def render_applied(fr: pm.FileResult) -> None:
    """What was rewritten for the target ROCm and the wavefront, line by line, or why nothing was."""
    opts = fr.result.options
    st.subheader(tr("hipify.applied.title", target=opts.rocm_version or pm.target_releases()[0]))
    rows = applied_rows(fr)
    if not rows:
        st.caption(tr("hipify.applied.none_wave" if opts.wavefront else "hipify.applied.none"))
        return
    st.caption(tr("hipify.applied.intro"))
    table = ("line", "col", "kind", "before", "after", "until")  # why and source once per rule, below: a cell cuts them
    st.dataframe([{tr(APPLIED_COLUMNS[k]): shown(row[k]) if isinstance(row[k], str) else row[k] for k in table}
                  for row in rows], hide_index=True, width="stretch")
    st.markdown(f"**{tr('hipify.applied.reasons')}**")
    said = set()
    for row in rows:
        key = row["rule"]
        if key in said:
            continue
        said.add(key)
        # before / after can be the visitor's code (a wavefront rewrite's "% 32"): escaped
        st.markdown(f"- **{md_escape(shown(row['before']))} → {md_escape(shown(row['after']))}** ({row['until']}): "
                    f"{row['why']}  \n  {tr('hipify.applied.col_source')}: {md_escape(row['source'])}")


def render_report(fr: pm.FileResult) -> None:
    result, lg = fr.result, lang()
    s = rp.summarize(result)
    left = left_story(fr)
    c1, c2, c3, c4 = st.columns(4)
    c1.metric(tr("hipify.page.metric_refs"), f"{s.converted} / {s.total}")
    c2.metric(tr("hipify.page.metric_pct"), "n/a" if s.percentage is None else f"{s.percentage:.1f} %",
              help=tr("hipify.page.metric_pct_help"))
    c3.metric(tr("hipify.page.metric_left"), left.total, help=tr("hipify.page.metric_left_help"))
    c4.metric(tr("hipify.page.metric_lines"), f"{s.lines_changed} / {s.lines_total}")
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
    render_applied(fr)
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
    settled = pm.settled_findings(fr)
    if settled:
        st.info(tr("hipify.applied.lint_settled", n=len(settled)))
    # one card per finding: a table cell would cut the explanations; the user's code is shown only through st.code
    for k, (f, row) in enumerate(zip(fr.findings, rp.lint_rows(list(fr.findings), lang()), strict=True)):
        row["rule_id"] = f.rule
        severity = row["severity"]
        with st.container(border=True):
            st.markdown(f"**{tr('hipify.col.line')} {row['line']} · {tr(f'hipify.severity.{severity}')} · "
                        f"{md_escape(row['rule'])}**")
            st.code(row["code"], language="cpp")
            st.markdown(f"**{tr('hipify.col.why')}:** {row['why']}")
            st.markdown(f"**{tr('hipify.col.fix')}:** {row['fix']}")
            if k in settled:  # the written text comes from the rules table or wavefront.py, escaped all the same
                a = settled[k]
                st.success(tr(f"hipify.applied.settled_{a.kind}", written=md_escape(a.after),
                              target=fr.result.options.rocm_version), icon=":material/check:")
            if row["rule_id"] in pm.WAVEFRONT_RULES:
                st.page_link(by_key("ch9").file, label=tr("hipify.page.wavefront_link"), icon=":material/waves:",
                             query_params={"wavefront_step": "3", "lang": lang()})


def render_flow(fr: pm.FileResult) -> None:
    flow = pm.migration_flow(fr.result, fr.findings)
    left = pm.left_for_you(fr, typed_rocm())
    flow.report["left"], flow.report["lint_errors"] = left.total, left.lint_errors  # less what the rewrites settled
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
        rows = applied_rows(fr)
        if rows:  # the target's and the wavefront's rewrites, line by line (the report's table, shorter)
            st.write(tr("hipify.flow.applied", n=len(rows), target=typed_rocm()))
            _table(rows, {k: APPLIED_COLUMNS[k] for k in ("line", "before", "after", "until")})
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
    """The share link. The visitor's own code rides in it (compressed, bounded; page_model.encode_link_code);
    uploaded code never does, so after an upload the link carries the options and the view but not the example
    (it would open the example instead of the upload) and says so."""
    if st.session_state.get("hp_upload") is None:
        share_link()
        state = st.session_state.get("_hp_link_state")
        if state == "in":
            st.caption(tr("hipify.page.link_in"))
        elif state == "too_long":
            st.caption(tr("hipify.page.link_too_long", kb=pm.LINK_MAX_CHARS // 1000))
        return
    share_link(drop=("hp_ex", LINK_KEY))
    st.caption(tr("hipify.page.share_upload"))
