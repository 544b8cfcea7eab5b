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


# --- uploads: what one session may keep in the server's memory ------------------------------------------------
# Streamlit 1.67 keeps every uploaded file in memory (MemoryUploadedFileManager) until its widget lets go of it or
# the session ends, and its upload endpoint takes any number of files per session: a review put 8 x 50 MB into one
# session in 8 s (+400 MB, 200 MB still held 90 s after the tab closed). No page of the app needs more than one
# file at a time, so a session keeps at most SESSION_UPLOAD_BYTES: a new file evicts the session's oldest ones.
# The endpoint still caps each request at server.maxUploadSize while it streams.


def session_upload_bytes() -> int:
    """One file of the largest size the server accepts (server.maxUploadSize, in Streamlit's MiB)."""
    from streamlit import config

    return int(config.get_option("server.maxUploadSize")) * 1024 * 1024


def _capped_add_file(manager: Any, session_id: str, file: Any) -> None:
    cap = session_upload_bytes()
    with manager._lock:
        storage = manager.file_storage[session_id]
        storage.pop(file.file_id, None)  # a replaced file is counted again below
        kept = sum(len(f.data) for f in storage.values())
        for file_id in list(storage):  # insertion order: oldest first
            if kept + len(file.data) <= cap:
                break
            kept -= len(storage.pop(file_id).data)
        storage[file.file_id] = file
        manager._total_bytes = sum(len(f.data) for s in manager.file_storage.values() for f in s.values())
        manager._file_count = sum(len(s) for s in manager.file_storage.values())


def cap_session_uploads() -> None:
    """Bound what each session's uploads hold in memory (idempotent)."""
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

    if getattr(MemoryUploadedFileManager.add_file, "__rb_capped__", False):
        return

    def add_file(self: Any, session_id: str, file: Any) -> None:
        _capped_add_file(self, session_id, file)

    add_file.__rb_capped__ = True  # type: ignore[attr-defined]
    MemoryUploadedFileManager.add_file = add_file
