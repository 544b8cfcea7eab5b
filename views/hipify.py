"""hipify: CUDA -> HIP in the browser. Editor or upload in, HIP / diff / report / lint / migration flow out.
Options, example and view live in the URL (hp_*) so a teacher can share the exact view."""

import streamlit as st

from rocm_bridge.hipify import page_model as pm
from rocm_bridge.pages import by_file
from rocm_bridge.ui import hipify_view as hv
from rocm_bridge.ui import page_header, tr
from rocm_bridge.ui.state import share_link

page_header(by_file("views/hipify.py").title_key, "hipify.page.caption")
opts = hv.options_panel()
files = hv.source_panel()
if files:
    if len(files) > 1:
        with st.status(tr("hipify.page.project", n=len(files)), expanded=False):
            results = pm.translate_files(files, opts)
        current = hv.project_picker(results)
    else:
        results = pm.translate_files(files, opts)
        current = results[0]
    hv.RENDER[hv.view_picker()](current)
    hv.downloads(results)
share_link()
