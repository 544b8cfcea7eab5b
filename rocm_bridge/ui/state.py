"""Deep links: page state a teacher wants to share lives in the URL query.

Streamlit's own binding, `st.toggle(..., key="hp_roc", bind="query-params")`, suits widgets whose value is
language-neutral (toggles, sliders, numbers). Do not bind a widget with a translated format_func: Streamlit
1.67 writes the *label* into the URL, so a link made in Chinese would not open in English. For those, and for
values that need validation with a notice, use url_state / push_url with stable codes (`?cv_model=lstm`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from rocm_bridge.text import md_escape
from rocm_bridge.ui import tr

_FLAGS = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False, "off": False}


def parse_flag(text: str) -> bool:
    """A boolean from a URL value ('1'/'true'/'yes'/'on' or '0'/'false'/'no'/'off'); anything else is a
    ValueError, which url_state reports as a bad link value. Use it as url_state's cast for on/off state."""
    try:
        return _FLAGS[str(text).strip().lower()]
    except KeyError:
        raise ValueError(f"not a flag: {text!r}") from None


def url_state(
    key: str,
    default: Any,
    cast: Callable[[str], Any] = str,
    valid: Callable[[Any], bool] | Iterable[Any] | None = None,
) -> Any:
    """Seed st.session_state[key] from ?key= once per session; an invalid value falls back with a notice."""
    if key not in st.session_state:
        value = default
        raw = st.query_params.get(key)
        if raw is not None:
            try:
                candidate = cast(raw)
                ok = valid is None or (valid(candidate) if callable(valid) else candidate in list(valid))
            except (TypeError, ValueError):
                ok = False
            if ok:
                value = candidate
            else:
                # the value is the link author's text: shown escaped, never as Markdown (docs/security.md)
                st.toast(tr("common.bad_query", name=key, value=md_escape(raw[:40])), icon=":material/link_off:")
        st.session_state[key] = value
    return st.session_state[key]


def push_url(*keys: str) -> None:
    """Write the current values of these session-state keys into the URL query."""
    for key in keys:
        value = st.session_state.get(key)
        if value is None:
            st.query_params.pop(key, None)
        elif isinstance(value, list | tuple):
            st.query_params[key] = [str(v) for v in value]
        else:
            st.query_params[key] = str(value)


def current_link(drop: tuple[str, ...] = ()) -> str:
    """The URL of this page with its current query (without the keys in drop)."""
    base = (st.context.url or "").split("?")[0]
    query = urlencode([(k, v) for k in st.query_params if k not in drop for v in st.query_params.get_all(k)])
    return f"{base}?{query}" if query else base


def share_link(drop: tuple[str, ...] = ()) -> None:
    """Show the link to this view with Streamlit's copy button (without the query keys in drop)."""
    st.caption(tr("common.share_link"))
    st.code(current_link(drop), language=None)
