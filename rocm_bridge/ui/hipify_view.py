"""Widgets of the hipify page: the names views/hipify.py calls, and the view picker. The computation lives in
rocm_bridge.hipify (page_model, report, lint); the widgets live in the modules beside this one:
hipify_state (the session and URL keys, `shown`), hipify_inputs (options and source panels), hipify_panes (editor,
HIP pane, compile lab, project picker), hipify_diff, hipify_report (report, lint and flow views), hipify_share
(downloads and the share link) and hipify_project (minimum ROCm, project report). User code is only ever shown
through st.code / st.dataframe, or escaped in the diff table (html.escape)."""

from __future__ import annotations

import streamlit as st

from rocm_bridge.ui import tr
from rocm_bridge.ui.hipify_diff import render_diff
from rocm_bridge.ui.hipify_inputs import options_panel, source_panel
from rocm_bridge.ui.hipify_panes import panes, project_picker
from rocm_bridge.ui.hipify_report import render_flow, render_lint, render_report
from rocm_bridge.ui.hipify_share import downloads, share
from rocm_bridge.ui.hipify_state import pane_height, shown
from rocm_bridge.ui.state import push_url, url_state

__all__ = ["RENDER", "VIEWS", "downloads", "options_panel", "pane_height", "panes", "project_picker", "share",
           "shown", "source_panel", "view_picker"]

VIEWS = ("report", "diff", "lint", "flow")


def view_picker() -> str:
    url_state("hp_view", VIEWS[0], valid=VIEWS)
    view = st.segmented_control(tr("hipify.page.view"), VIEWS, key="hp_view", required=True,
                                format_func=lambda v: tr(f"hipify.view.{v}"))
    push_url("hp_view")
    return view or VIEWS[0]


RENDER = {"diff": render_diff, "report": render_report, "lint": render_lint,
          "flow": render_flow}

