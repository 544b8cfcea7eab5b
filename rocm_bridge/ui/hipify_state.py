"""The hipify page's shared state: the session and URL keys every part of the page reads (the code, what was
loaded, the editor version, the options, the target ROCm, the link's code), and the few helpers they all use:
`shown` (text made safe to send to the browser), the pane and code-type sizes, and `typed_rocm` (the target
release of the picker). Imported by the other rocm_bridge.ui.hipify_* modules; it imports none of them.
"""

from __future__ import annotations

import streamlit as st

from rocm_bridge.hipify import page_model as pm
from rocm_bridge.ui.presenter import CODE_PX, presenting

# (query key, command-line option shown as the label, catalog key of its explanation)
OPTION_KEYS = (("hp_roc", "--roc", "opt_roc"), ("hp_miopen", "--miopen", "opt_miopen"),
               ("hp_exp", "--experimental", "opt_experimental"),
               ("hp_launch", "--hip-kernel-execution-syntax", "opt_launch"))
PANE_HEIGHT = 520


def pane_height(text: str) -> int | str:
    """Fixed height for long code (scrolls), natural height for short snippets."""
    return PANE_HEIGHT if text.count("\n") > 24 else "content"


CODE_KEY, LOADED_KEY, VERSION_KEY, PLAIN_KEY, TEXT_KEY = "hp_code", "hp_loaded", "hp_ver", "hp_plain", "hp_text"
ENCODING_KEY = "hp_encoding"  # what the loaded upload was read as (the download is written back in it)
ROCM_KEY, WAVE_KEY = "hp_rocm", "hp_wave"  # the target ROCm (?hp_rocm=6.1) and --wavefront (?hp_wave=true)
MINE = "mine"  # the example box's entry for the visitor's own code (pasted, typed over an example, or a link's)
LINK_KEY = "hp_src"  # the code in the link (page_model.encode_link_code)


def shown(text: str) -> str:
    """Text for the screen: bytes that were not UTF-8 (kept as surrogates for a faithful download) become U+FFFD;
    a surrogate cannot be sent to the browser at all (UnicodeEncodeError)."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def code_px() -> int:
    """Code type on both panes, the diff included: the back-row floor when presenting (Streamlit's st.code would
    be 0.875 x the presenter body, the Ace editor 12 px)."""
    return CODE_PX if presenting() else 14


def typed_rocm() -> str:
    """The target ROCm release of the picker (?hp_rocm=): what the page translates for and checks against."""
    value = str(st.session_state.get(ROCM_KEY, "")).strip()
    return value if value in pm.target_releases() else pm.target_releases()[0]
