"""Fixes to Streamlit's runtime that the app installs once at start-up.

Streamlit 1.67 calls keras.backend.clear_session() after EVERY script run once keras is imported anywhere in the
server (script_runner._clean_problem_modules). clear_session ends with a full gc.collect(), which with TensorFlow
loaded costs ~0.4 s of CPU per rerun, for every session, and it also throws away Keras state the app caches on
purpose (the coverage lab's traced example models). Measured here: a one-line page reruns in 44 ms; the same page
after `import tensorflow` in 368 ms; with this fix, as before. The matplotlib half of the cleanup is kept.
"""

from __future__ import annotations

import contextlib
import sys
from typing import Any


def _clean_problem_modules_without_keras() -> None:
    plt: Any = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        with contextlib.suppress(Exception):  # Streamlit's own cleanup ignores failures too
            plt.close("all")


def keep_keras_state() -> None:
    """Stop Streamlit from clearing the Keras session after every rerun (idempotent)."""
    from streamlit.runtime.scriptrunner import script_runner

    if not hasattr(script_runner, "_streamlit_clean_problem_modules"):  # keep Streamlit's own for reference
        script_runner._streamlit_clean_problem_modules = script_runner._clean_problem_modules
    script_runner._clean_problem_modules = _clean_problem_modules_without_keras
