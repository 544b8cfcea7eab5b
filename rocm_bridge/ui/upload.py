"""One file uploader for every page, with its limits stated in the reader's language.

Streamlit 1.67's dropzone prints its own English ("Upload", "2MB per file • LOG, TXT") and offers no way to
translate it. Every uploader of the app goes through `file_upload`: the native instruction line is hidden, the
button reads the catalog's word, and a caption under the box says the limit and the accepted types through the
catalog instead. The CSS carries the button word as CSS escapes, so no catalog text can end the rule.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from rocm_bridge.ui.base import tr

_CSS = """<style>
[data-testid="stFileUploaderDropzoneInstructions"] {{ display: none; }}
[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"] p {{ font-size: 0; }}
[data-testid="stFileUploaderDropzone"] button [data-testid="stMarkdownContainer"] p::after {{
  content: {word}; font-size: 1rem;
}}
</style>"""


def css_string(text: str) -> str:
    """A CSS string literal of `text` with every character escaped (`"\\41 \\42 "` for "AB")."""
    return '"' + "".join(f"\\{ord(ch):x} " for ch in text) + '"'


def limits_line(limit_mb: int, types: list[str]) -> str:
    """The caption under the box: the size limit and the accepted file types, translated."""
    return tr("upload.limits", limit=limit_mb, types=tr("upload.sep").join(t.upper() for t in types))


def file_upload(label: str, types: list[str], *, key: str, limit_mb: int, help: str | None = None) -> Any:
    """st.file_uploader with translated button text and limits (one file; the UploadedFile or None)."""
    st.html(_CSS.format(word=css_string(tr("upload.button"))))
    upload = st.file_uploader(label, type=types, key=key, max_upload_size=limit_mb, help=help)
    st.caption(limits_line(limit_mb, types))
    return upload
