"""ROCm Bridge: `streamlit run app.py`. Builds the sidebar and the navigation from one page registry."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from rocm_bridge.pages import DEFAULT_PAGE, GROUPS, PAGES
from rocm_bridge.ui import presenter, theme, tr
from rocm_bridge.ui.language import init_language
from rocm_bridge.ui.runtime import cap_session_uploads, keep_keras_state, throttle_reruns

ROOT = Path(__file__).parent
# A local file, not ":material/...": a Material favicon is fetched from fonts.gstatic.com on every page
# (docs/security.md, offline). Streamlit sends the file inline as a data URL.
FAVICON = str(ROOT / "assets" / "favicon.png")


def main() -> None:
    keep_keras_state()  # else every rerun pays ~0.4 s once a page has imported TensorFlow (ui/runtime.py)
    cap_session_uploads()  # one session keeps one upload's worth of memory, however many files it sends
    throttle_reruns()  # one session cannot start more than a few script runs a second
    st.set_page_config(page_title="ROCm Bridge", page_icon=FAVICON, layout="wide",
                       initial_sidebar_state=presenter.sidebar_state())
    init_language()
    theme.render()
    presenter.render()
    sections = {
        tr(f"nav.{group}"): [
            st.Page(
                ROOT / spec.file,
                title=tr(spec.title_key),
                icon=spec.icon,
                url_path=spec.url_path,
                default=spec.key == DEFAULT_PAGE,
            )
            for spec in PAGES
            if spec.group == group
        ]
        for group in GROUPS
    }
    st.sidebar.caption(tr("app.tagline"))
    st.navigation(sections, expanded=True).run()


main()
