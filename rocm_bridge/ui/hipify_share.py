"""What leaves the hipify page: the download of the translated file (or of a project as a zip, written back in
the encoding it was read in) and the share link, which carries the options and the view, and the visitor's own
code compressed and bounded (page_model.encode_link_code), never an upload's.
"""

from __future__ import annotations

import streamlit as st

from rocm_bridge.hipify import page_model as pm
from rocm_bridge.hipify.sources import write_zip
from rocm_bridge.text import md_escape
from rocm_bridge.ui import tr
from rocm_bridge.ui.hipify_state import LINK_KEY, MINE
from rocm_bridge.ui.state import share_link


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


def code_in_link(code: str) -> None:
    """The visitor's own code goes into the link (compressed, bounded); an example or an upload never does."""
    own = st.session_state.get("hp_ex") == MINE and st.session_state.get("hp_upload") is None
    value = pm.encode_link_code(code) if own else None
    if value is None:
        st.query_params.pop(LINK_KEY, None)
    else:
        st.query_params[LINK_KEY] = value
    st.session_state["_hp_link_state"] = "none" if not own else ("in" if value else "too_long")


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
