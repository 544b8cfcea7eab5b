"""The hipify page's minimum-ROCm section and project report (rocm_bridge.hipify.minrocm / project); called from
rocm_bridge.ui.hipify_panes and hipify_report. User text (paths, code) only through st.dataframe / st.code / md_escape."""

from __future__ import annotations

import streamlit as st

from rocm_bridge.errors import RocmBridgeError
from rocm_bridge.hipify import project as pj
from rocm_bridge.hipify import report as rp
from rocm_bridge.hipify.buildfiles import DEFAULT_ARCH, build_kind
from rocm_bridge.hipify.minrocm import minimum_rocm
from rocm_bridge.text import md_escape
from rocm_bridge.ui import lang, show_error, source_note, tr

UPLOAD_KEY = "hp_upload"  # the page's file_uploader (rocm_bridge.ui.hipify_inputs)


def _target() -> str:
    """The target ROCm of the page's picker (rocm_bridge.ui.hipify_inputs.target_picker, ?hp_rocm=): the release the
    file is translated for is the one it is checked against."""
    from rocm_bridge.ui.hipify_state import typed_rocm

    return typed_rocm()


def render_minimum_rocm(fr) -> None:
    """Minimum ROCm of one translated file, the APIs that raise it, and those newer than the target release."""
    st.subheader(tr("hipify.minrocm.title"))
    target = _target()
    minimum = minimum_rocm(fr.result, target)
    if not minimum.version:
        st.caption(tr("hipify.minrocm.none"))
        return
    st.write(tr("hipify.minrocm.summary", version=minimum.version))
    if minimum.too_new:
        st.warning(tr("hipify.minrocm.too_new_count", n=len(minimum.too_new), target=target))
    rows = rp.minimum_rows(minimum, lang())
    if rows:
        st.caption(tr("hipify.minrocm.raising"))
        cols = {"hip_name": "api", "cuda_name": "file", "added": "added", "line": "line", "uses": "uses"}
        if target:
            cols["too_new"] = "too_new"
        labels = {k: tr(f"hipify.project.col.{v}") for k, v in cols.items()}
        labels["cuda_name"] = tr("hipify.col.cuda")
        st.dataframe([{labels[k]: row[k] for k in cols} for row in rows], hide_index=True, width="stretch")
    source_note(tr("hipify.minrocm.source"))


def _build_files() -> list[tuple[str, str]]:
    """The build files of the uploaded zip (the page reads its sources through page_model)."""
    upload = st.session_state.get(UPLOAD_KEY)
    if upload is None or not upload.name.lower().endswith(".zip"):
        return []
    from rocm_bridge.hipify.sources import read_zip

    try:
        members = read_zip(upload.getvalue(), include=build_kind)
    except RocmBridgeError as err:
        show_error(err)
        return []
    return [(name, blob.decode("utf-8", errors="surrogateescape")) for name, blob in members]


def render_project(results) -> None:
    """One report across the uploaded project, and the migrated project with its report as a zip."""
    st.subheader(tr("hipify.project.page_title"))
    st.caption(tr("hipify.project.page_intro"))
    arch = st.text_input(tr("hipify.project.arch"), value=DEFAULT_ARCH, key="hp_arch", max_chars=16).strip()
    if not arch.startswith("gfx") or not arch[3:].isalnum():
        st.warning(tr("hipify.project.bad_arch", value=md_escape(arch)))
        arch = DEFAULT_ARCH
    target = _target()
    opts = results[0].result.options
    project = pj.build_project([(fr.path, fr.result, fr.findings) for fr in results], _build_files(), opts,
                               target, arch)
    tot = pj.totals(project)
    c1, c2, c3 = st.columns(3)
    c1.metric(tr("hipify.project.col.minimum"), tot["minimum_rocm"] or "-")
    c2.metric(tr("hipify.page.metric_pct"), "n/a" if tot["percentage"] is None else f"{tot['percentage']} %")
    c3.metric(tr("hipify.project.builds"), f"{tot['build_files']} / {tot['build_todos']} TODO")
    if target and project.too_new:
        st.warning(tr("hipify.minrocm.too_new_count", n=len(project.too_new), target=target))
    cols = ("file", "converted", "left", "lint", "minimum")
    rows = []
    for r in pj.source_rows(project):
        pct = "n/a" if r["percentage"] is None else f"{r['percentage']} %"
        values = (r["path"], f"{r['converted']} / {r['total']} ({pct})", r["left"],
                  f"{r['lint_errors']} / {r['lint_warnings']}", r["minimum_rocm"] or "-")
        rows.append({tr(f"hipify.project.col.{c}"): v for c, v in zip(cols, values, strict=True)})
    st.dataframe(rows, hide_index=True, width="stretch")
    st.markdown(f"**{tr('hipify.project.builds')}**")
    if not project.builds:
        st.caption(tr("hipify.project.page_builds_none"))
    for b in project.builds:
        with st.expander(f"{b.path}: {len(b.changes)} / {len(b.todos)} TODO"):
            if b.todos:
                st.dataframe([{tr("hipify.project.col.line"): x.line, tr("hipify.project.col.code"): x.excerpt,
                               tr("hipify.project.col.why"): tr(f"hipify.build.todo.{x.key}")} for x in b.todos],
                             hide_index=True, width="stretch")
            st.dataframe([{tr("hipify.project.col.line"): c.line, tr("hipify.project.col.before"): c.before,
                           tr("hipify.project.col.after"): c.after,
                           tr("hipify.project.col.what"): tr(f"hipify.build.change.{c.key}")} for c in b.changes],
                         hide_index=True, width="stretch")
            st.code(b.output, language="cmake" if b.kind == "cmake" else "makefile")
    st.download_button(tr("hipify.project.download"), pj.write_zip(project, lang()), file_name="hipified_project.zip",
                       mime="application/zip", key="hp_dl_project")
    source_note(tr("hipify.project.report_source"))
