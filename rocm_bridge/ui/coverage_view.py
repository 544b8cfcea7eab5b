"""Widgets of the operator coverage lab (views/coverage.py): the pickers (kept in the URL, which carries codes,
not labels), tracing with its status box, and the results: R per registry, the status chart, the ROCm vs CUDA
differences, the op table with its CSV, and the ops that fall back to the CPU."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from rocm_bridge import coverage, limits
from rocm_bridge.coverage import chart, registry, upload
from rocm_bridge.errors import RocmBridgeError
from rocm_bridge.ui import show_error, tr
from rocm_bridge.ui.charts import house_layout, show_chart
from rocm_bridge.ui.state import parse_flag, push_url, url_state
from rocm_bridge.ui.theme import chart_theme
from rocm_bridge.ui.upload import file_upload

# --- tracing ----------------------------------------------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=16)
def _trace_example(key: str) -> coverage.TracedModel:
    return coverage.trace_example(key)


def _trace_upload(data: bytes, name: str) -> coverage.TracedModel:
    # not st.cache_data: that cache counts entries, not bytes, and copies the result per hit
    return upload.traced_upload(data, name)


def _traced(run: Callable[..., coverage.TracedModel], *args: Any) -> coverage.TracedModel:
    with st.status(tr("coverage.tracing"), expanded=False) as box:
        box.write(tr("coverage.tf_import_note"))
        model = run(*args)
        box.update(label=tr("coverage.traced", n=len(model.nodes), tf=model.tf_version), state="complete")
    return model


# --- the pickers ------------------------------------------------------------------------------------------


def _registries() -> tuple[list[registry.Registry], list[str], dict[str, str]]:
    """The recorded registries and the live one: (snapshots, names, short chip labels)."""
    snapshots = registry.list_snapshots()
    names = [r.name for r in snapshots] + [registry.LIVE]
    # short chip labels ("TF 2.14.0.600 (ROCm)"): the full "label · alias" form was cut off in the chips
    labels = {r.name: r.label.replace("TensorFlow ", "TF ") for r in snapshots} | {
        registry.LIVE: tr("coverage.registry.live")
    }
    return snapshots, names, labels


def _seed_state(tf_ok: bool, snapshots: list[registry.Registry], names: list[str]) -> None:
    """The selection from the URL (registries by name or alias) on the first visit."""
    url_state("cv_source", "example", valid=("example", "upload"))
    url_state("cv_phase", "both", valid=("both", *coverage.PHASES))
    url_state("cv_model", coverage.DEFAULT_EXAMPLE, valid=coverage.EXAMPLES)
    url_state("cv_recorded", False, cast=parse_flag)
    if not tf_ok:  # without TensorFlow the recorded op lists are what is used: the toggle says so
        st.session_state["cv_recorded"] = True
    if "cv_reg" not in st.session_state:
        aliases = {r.alias: r.name for r in snapshots} | {n: n for n in names}
        linked = [aliases[v] for v in st.query_params.get_all("cv_reg") if v in aliases]
        st.session_state["cv_reg"] = list(dict.fromkeys(linked)) or list(registry.default_pair() or names[:2])


def choose(tf_ok: bool) -> tuple[coverage.TracedModel | None, list[registry.Registry], tuple[str, ...]]:
    """Source, phase, registries and the model (an example, traced or recorded, or an upload, traced).

    Returns (model, registries, phases); the model is None while an upload is awaited or after an error, which
    is shown translated."""
    snapshots, names, labels = _registries()
    _seed_state(tf_ok, snapshots, names)
    left, right = st.columns([2, 3])
    source = left.segmented_control(
        tr("coverage.pick.source"), ["example", "upload"], format_func=lambda s: tr(f"coverage.source.{s}"),
        key="cv_source", required=True,
    )  # fmt: skip
    phase = left.segmented_control(
        tr("coverage.pick.phase"), ["both", *coverage.PHASES], format_func=lambda p: tr(f"coverage.phase.{p}"),
        key="cv_phase", required=True,
    )  # fmt: skip
    chosen = right.multiselect(
        tr("coverage.registries"), names, format_func=labels.get, key="cv_reg", help=tr("coverage.registries_help")
    )
    push_url("cv_source", "cv_phase", "cv_reg", "cv_model", "cv_recorded")
    phases = coverage.PHASES if phase == "both" else (phase,)

    model = None
    try:
        if source == "example":
            key = right.selectbox(
                tr("coverage.model"), list(coverage.EXAMPLES), key="cv_model",
                format_func=lambda k: tr(coverage.EXAMPLES[k].title_key),
            )  # fmt: skip
            st.caption(tr(f"{coverage.EXAMPLES[key].title_key}_help"))
            recorded = right.toggle(
                tr("coverage.use_recorded"), key="cv_recorded", help=tr("coverage.use_recorded_help"),
                disabled=not tf_ok,
            )  # fmt: skip
            model = _traced(_trace_example, key) if tf_ok and not recorded else coverage.example_model(key)
        else:
            limit_mb = upload.MAX_UPLOAD_BYTES // limits.MB
            st.caption(tr("coverage.upload_help"))
            file = file_upload(tr("coverage.upload"), ["keras", "zip"], key="cv_file", limit_mb=limit_mb)
            if file is not None:  # checked before TensorFlow loads; without TensorFlow, a translated error
                model = _traced(_trace_upload, file.getvalue(), file.name)
        if registry.LIVE in chosen and not tf_ok:
            st.info(tr("coverage.live_needs_tf"), icon=":material/info:")
        regs = [coverage.resolve(n) for n in chosen if n != registry.LIVE or tf_ok]
    except RocmBridgeError as err:
        show_error(err)
        return None, [], phases
    return model, regs, phases


# --- results ----------------------------------------------------------------------------------------------


def _phase_names(phases: tuple[str, ...]) -> str:
    return ", ".join(tr(f"coverage.phase.{p}") for p in phases)


def _status(code: str) -> str:
    return tr(f"coverage.status.{code}") if code else "—"


def metrics(reports: list[coverage.CoverageReport]) -> None:
    """R (share of the model's ops with a kernel) per registry; a build without GPU support says so."""
    for col, rep in zip(st.columns(len(reports)), reports, strict=True):
        col.metric(rep.registry_label, rep.summary_params["r"], help=tr("coverage.metric_help"), border=True)
        col.caption(tr("coverage.metric_detail", **rep.summary_params))
        if not rep.gpu_build:
            col.warning(tr("coverage.warn.no_gpu_build"), icon=":material/memory:")


def status_chart(model: coverage.TracedModel, reports: list[coverage.CoverageReport]) -> None:
    by = st.segmented_control(
        tr("coverage.pick.chart_by"), ["ops", "nodes"], format_func=lambda b: tr(f"coverage.chart_by.{b}"),
        key="cv_by", default="ops", required=True,
    )  # fmt: skip
    axes = {"x_title": tr("coverage.chart_x"), "y_title": tr(f"coverage.chart_y.{by}")}
    example = coverage.EXAMPLES.get(model.name)
    title = tr("coverage.chart_title", model=tr(example.title_key) if example else model.name)
    fig = house_layout(chart.status_figure(reports, _status, by, chart_theme()), title=title, **axes)
    sources = [tr("coverage.chart_source", file=r.registry_source, method=r.registry_method) for r in reports]
    show_chart(fig, [*sources, tr("coverage.chart_traced", tf=model.tf_version or "?")], key="cv_chart")


def differences(reports: list[coverage.CoverageReport]) -> None:
    """The ops whose status differs between the GPU builds (a build without GPU support differs everywhere)."""
    gpu_reports = [r for r in reports if r.gpu_build]
    if len(gpu_reports) < 2:
        return
    st.subheader(tr("coverage.differences"))
    diffs = coverage.differences(gpu_reports)
    if diffs:
        cols = [tr("coverage.col.op"), *(r.registry_label for r in gpu_reports)]
        st.dataframe([dict(zip(cols, (d.op, *map(_status, d.statuses)), strict=True)) for d in diffs], hide_index=True)
    else:
        st.success(tr("coverage.no_differences"))


def op_table(reports: list[coverage.CoverageReport]) -> None:
    """Every op of the model with its status per registry, and the same as CSV."""
    st.subheader(tr("coverage.table"))
    table = [
        {tr("coverage.col.op"): r["op"], tr("coverage.col.nodes"): r["nodes"], tr("coverage.col.dtypes"): r["dtypes"]}
        | {rep.registry_label: _status(r.get(rep.registry, "")) for rep in reports}
        | {tr("coverage.col.missing"): r["missing"], tr("coverage.col.phases"): _phase_names(r["phases"])}
        for r in chart.combined_rows(reports)
    ]
    st.dataframe(table, hide_index=True)
    csv_args = {"file_name": "op_coverage.csv", "mime": "text/csv", "icon": ":material/download:"}
    st.download_button(tr("coverage.csv"), coverage.to_csv(reports), **csv_args)


def fallback(reports: list[coverage.CoverageReport]) -> None:
    """Per GPU build: the ops without a kernel (or without one for some dtypes), and the ops it does not know."""
    st.subheader(tr("coverage.fallback"))
    for rep in (r for r in reports if r.gpu_build):
        ops = ", ".join(f"`{r.op}` ({' '.join(r.missing_dtypes) or tr('coverage.no_kernel')})" for r in rep.fallback)
        st.markdown(f"**{rep.registry_label}**: {ops or tr('coverage.none')}")
        if rep.unknown:
            st.markdown(tr("coverage.unknown_ops", ops=", ".join(f"`{r.op}`" for r in rep.unknown)))
