"""The coverage chart (Plotly, imported inside the function) and the combined per-op table for the page."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rocm_bridge.coverage.analysis import CoverageReport
from rocm_bridge.coverage.registry import DEFAULT, DTYPE_GAP, GPU, NO_GPU_BUILD, NO_GPU_KERNEL, STATUSES, UNKNOWN_OP
from rocm_bridge.visual import style


def status_colors(theme: str = "light") -> dict[str, str]:
    """Registry status -> bar colour in a theme (style.palette)."""
    pal = style.palette(theme)
    return {
        GPU: pal.status["ok"],
        DEFAULT: pal.vendor["HOST"],
        DTYPE_GAP: pal.status["warn"],
        NO_GPU_KERNEL: pal.status["fail"],
        UNKNOWN_OP: pal.vendor["RECORDED"],
        NO_GPU_BUILD: pal.status["skipped"],
    }


def status_figure(reports: Sequence[CoverageReport], status_label: Callable[[str], str], by: str = "ops",
                  theme: str = "light"):
    """Stacked bars, one per registry: how many op types (by="ops") or graph nodes (by="nodes") have each
    status, in the colours of `theme`. Titles and axis units are set by the caller
    (rocm_bridge.ui.charts.house_layout)."""
    import plotly.graph_objects as go

    colors = status_colors(theme)
    fig = go.Figure()
    x = [rep.registry_label for rep in reports]
    for status in STATUSES:
        counts = [(rep.status_ops if by == "ops" else rep.status_nodes).get(status, 0) for rep in reports]
        if any(counts):
            fig.add_bar(
                name=status_label(status),
                x=x,
                y=counts,
                marker_color=colors[status],
                text=counts,
                textangle=0,
                cliponaxis=False,
            )
    fig.update_layout(barmode="stack")
    return fig


def combined_rows(reports: Sequence[CoverageReport]) -> list[dict]:
    """One row per op type over all reports: op, nodes, dtypes, then each registry's status and missing dtypes.

    Keys of the per-registry columns are the registry names; statuses stay codes (the page translates them).
    """
    ops: dict[str, dict] = {}
    for rep in reports:
        for row in rep.rows:
            entry = ops.setdefault(
                row.op,
                {"op": row.op, "nodes": row.nodes, "dtypes": " ".join(row.dtypes), "phases": row.phases},
            )
            entry[rep.registry] = row.status
            if row.missing_dtypes:
                entry.setdefault("missing", []).append(" ".join(row.missing_dtypes))
    out = []
    for entry in ops.values():
        entry["missing"] = " / ".join(dict.fromkeys(entry.get("missing", [])))
        out.append(entry)
    problems = (DTYPE_GAP, NO_GPU_KERNEL, UNKNOWN_OP)
    # Ops with problems on the most registries first, then by name: what a user must act on is at the top.
    return sorted(out, key=lambda e: (-sum(e.get(r.registry) in problems for r in reports), e["op"]))
