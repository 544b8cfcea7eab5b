"""What goes into a translation on the hipify page: the options panel (the HIPIFY switches, the target ROCm
picker, --wavefront; all kept in the URL) and the source panel, which picks the files to translate: an upload
(one file or a project), an example, the code a shared link carries (?hp_src=), or the visitor's own code typed
over an example.
"""

from __future__ import annotations

import streamlit as st

from rocm_bridge import i18n
from rocm_bridge.errors import RocmBridgeError
from rocm_bridge.hipify import page_model as pm
from rocm_bridge.hipify.translator import Options
from rocm_bridge.limits import HIPIFY_UPLOAD_MB
from rocm_bridge.text import md_escape
from rocm_bridge.ui import lang, show_error, tr
from rocm_bridge.ui.hipify_state import (
    CODE_KEY,
    ENCODING_KEY,
    LINK_KEY,
    LOADED_KEY,
    MINE,
    OPTION_KEYS,
    ROCM_KEY,
    TEXT_KEY,
    VERSION_KEY,
    WAVE_KEY,
    shown,
)
from rocm_bridge.ui.state import parse_flag, push_url, url_state
from rocm_bridge.ui.upload import file_upload


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


def _set_code(text: str, origin: str, encoding: str = "utf-8") -> None:
    st.session_state[ENCODING_KEY] = encoding
    st.session_state[CODE_KEY] = text
    st.session_state[TEXT_KEY] = shown(text)
    st.session_state[LOADED_KEY] = origin
    st.session_state[VERSION_KEY] = st.session_state.get(VERSION_KEY, 0) + 1  # remount the editor


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
