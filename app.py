"""ROCm Bridge: `streamlit run app.py`. Builds the sidebar and the navigation from one page registry."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from rocm_bridge import exclusive
from rocm_bridge.pages import DEFAULT_PAGE, GROUPS, PAGES
from rocm_bridge.ui import presenter, theme, tr
from rocm_bridge.ui.language import init_language
from rocm_bridge.ui.learner import client_address
from rocm_bridge.ui.runtime import cap_session_uploads, cap_sessions, keep_keras_state, refused_session, throttle_reruns

ROOT = Path(__file__).parent
# A local file, not ":material/...": a Material favicon is fetched from fonts.gstatic.com on every page
# (docs/security.md, offline). Streamlit sends the file inline as a data URL.
FAVICON = str(ROOT / "assets" / "favicon.png")


def main() -> None:
    keep_keras_state()  # else every rerun pays ~0.4 s once a page has imported TensorFlow (ui/runtime.py)
    cap_session_uploads()  # one session keeps one upload's worth of memory, however many files it sends
    throttle_reruns()  # one session cannot start more than a few script runs a second
    cap_sessions()  # one client cannot hold every socket of the server
    exclusive.CLIENT.set(client_address())  # one-at-a-time labs take clients in turns (rocm_bridge/exclusive.py)
    st.set_page_config(page_title="ROCm Bridge", page_icon=FAVICON, layout="wide",
                       initial_sidebar_state=presenter.sidebar_state())
    init_language()
    refused = refused_session()
    if refused is not None:  # over the per-client or total session cap: say so, draw nothing (ui/runtime.py)
        key, params = refused
        st.error(tr(key, **params), icon=":material/group_off:")
        st.stop()
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
