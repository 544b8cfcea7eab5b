"""hipify: CUDA -> HIP in the browser. Editor or upload in, HIP / diff / report / lint / migration flow out.
Options, example and view live in the URL (hp_*) so a teacher can share the exact view."""

import streamlit as st

from rocm_bridge.pages import by_file
from rocm_bridge.ui import hipify_view as hv
from rocm_bridge.ui import page_header

page_header(by_file("views/hipify.py").title_key, "hipify.page.caption")
opts = hv.options_panel()
files = hv.source_panel()
if files:
    results = hv.panes(files, opts)
    current = hv.project_picker(results) if len(files) > 1 else results[0]
    if len(files) > 1:
        st.code(hv.shown(current.result.output), language="cpp", line_numbers=True, wrap_lines=True,
                height=hv.pane_height(current.result.output))
        hv.downloads(results)
    hv.RENDER[hv.view_picker()](current)
hv.share()
