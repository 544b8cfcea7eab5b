"""Shared widgets (re-exported by rocm_bridge.ui): language, translation, links, errors, formula card."""

from __future__ import annotations

import streamlit as st

from rocm_bridge import i18n
from rocm_bridge.errors import RocmBridgeError
from rocm_bridge.formulas import FORMULAS
from rocm_bridge.pages import page
from rocm_bridge.text import md_escape, source_markdown

LANG_KEY = "lang"


def lang() -> str:
    """The language of this session (set by rocm_bridge.ui.language.init_language on every run)."""
    value = st.session_state.get(LANG_KEY)
    return value if value in i18n.LANGS else i18n.DEFAULT_LANG


def tr(key: str, /, **params: object) -> str:
    """Catalog text in the current language."""
    return i18n.t(key, lang(), **params)


def page_link(key: str, *, label: str | None = None) -> None:
    spec = page(key)
    st.page_link(spec.file, label=label or tr(spec.title_key), icon=spec.icon)


def show_error(err: RocmBridgeError) -> None:
    """A translated, actionable message instead of a traceback; its parameters (file names, values a user typed
    or linked) are shown literally, never as Markdown."""
    safe = type(err).__new__(type(err))
    safe.key, safe.params = err.key, {k: md_escape(v) if isinstance(v, str) else v for k, v in err.params.items()}
    st.error(safe.message(lang()), icon=":material/error:")


def source_note(*sources: str) -> None:
    """A small source line under a figure or table: each source a short label linking to it (text.source_link),
    shown literally otherwise (data text like __HIP_PLATFORM_NVIDIA__ must not turn bold)."""
    if sources:
        st.caption(f"{tr('common.source')}: " + " · ".join(source_markdown(s) for s in sources))


def formula_card(formula_id: str) -> None:
    """The formula in LaTeX with every symbol explained."""
    spec = FORMULAS[formula_id]
    with st.container(border=True):
        st.markdown(f"**{tr(spec.title_key)}**")
        st.latex(spec.latex)
        rows = "\n".join(f"| ${sym}$ | {tr(key)} |" for sym, key in spec.symbols)
        st.markdown(f"| {tr('common.symbol')} | {tr('common.meaning')} |\n|---|---|\n{rows}")


def page_header(title_key: str, caption_key: str | None = None) -> None:
    st.title(tr(title_key))
    if caption_key:
        st.caption(tr(caption_key))
