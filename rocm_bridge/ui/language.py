"""The language toggle: browser locale by default, kept in ?lang= so a shared link opens in the same language.

It sits in the page's top bar (fixed, beside Streamlit's menu), so it is reachable without scrolling on every page
and in presenter mode, where the sidebar is folded away (issue 23); the sidebar's navigation would push it below
the fold there."""

from __future__ import annotations

import streamlit as st

from rocm_bridge import i18n
from rocm_bridge.text import md_escape
from rocm_bridge.ui import LANG_KEY, tr

# Fixed text (no user input): the container holding the switch leaves the page flow and sits in the header bar,
# left of Streamlit's menu; the header stays on screen while the page scrolls.
_BAR_CSS = """
<style>
  .st-key-rb_lang { position: fixed; top: .55rem; right: 4.2rem; z-index: 1000001; width: auto !important; }
  .st-key-rb_lang [data-testid="stButtonGroup"] { margin: 0; }
  @media print { .st-key-rb_lang { display: none; } }
</style>
"""


def _initial_language() -> str:
    raw = st.query_params.get(LANG_KEY)
    if raw is not None:
        lang = i18n.normalize_lang(raw)
        if lang:
            return lang
        st.session_state["_lang_notice"] = raw[:40]
    return i18n.normalize_lang(st.context.locale) or i18n.DEFAULT_LANG


def init_language() -> str:
    """Render the sidebar toggle and return the session's language."""
    if st.session_state.get(LANG_KEY) not in i18n.LANGS:
        st.session_state[LANG_KEY] = _initial_language()
    with st.container(key="rb_lang"):  # class st-key-rb_lang: pinned into the top bar by _BAR_CSS
        st.html(_BAR_CSS)
        st.segmented_control(
            ":material/translate: " + i18n.t("lang.label", st.session_state[LANG_KEY]),
            options=list(reversed(i18n.LANGS)),  # 中文 first: the course's home language
            format_func=i18n.LANG_NAMES.get,
            key=LANG_KEY,
            required=True,
            label_visibility="collapsed",
        )
    lang = st.session_state[LANG_KEY]
    notice = st.session_state.pop("_lang_notice", None)
    if notice is not None:
        st.toast(tr("lang.unknown", value=md_escape(notice)), icon=":material/translate:")
    st.query_params[LANG_KEY] = lang
    return lang
