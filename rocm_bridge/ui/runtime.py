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


# --- reruns: what one session may ask of the server per second ------------------------------------------------
# Every rerun request starts a script run (or stops the one in progress and starts again). A review sent 200 reruns
# a second from one client: another visitor's p95 went to 1.0 s and a new visitor's first page to 10-12 s. A person
# clicking, typing and dragging asks for a few a second, and the app's own timers (a live poll, the GPU monitor) for
# one or two. So each session gets a token bucket: RERUN_BURST requests at once, RERUN_RATE a second after that;
# a request beyond it is not dropped but deferred, and deferred requests coalesce: the session's latest one runs
# when its next token is due (it carries the latest widget values, so what the visitor sees is the same).
RERUN_RATE = 8.0  # requests per second, sustained
RERUN_BURST = 16


class _Bucket:
    __slots__ = ("tokens", "stamp", "pending")

    def __init__(self, now: float) -> None:
        self.tokens, self.stamp, self.pending = float(RERUN_BURST), now, None

    def take(self, now: float) -> float:
        """0 if a request may run now (a token taken), else the seconds until the next token."""
        self.tokens = min(float(RERUN_BURST), self.tokens + (now - self.stamp) * RERUN_RATE)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / RERUN_RATE


def _throttled_handle_backmsg(original: Any) -> Any:
    import asyncio
    import time

    def handle_backmsg(self: Any, msg: Any) -> None:
        if msg.WhichOneof("type") != "rerun_script":
            return original(self, msg)
        bucket = self.__dict__.get("_rb_bucket")
        now = time.monotonic()
        if bucket is None:
            bucket = self.__dict__["_rb_bucket"] = _Bucket(now)
        if bucket.pending is not None:  # already waiting: this newer request replaces the waiting one
            bucket.pending = msg
            return None
        wait = bucket.take(now)
        if wait == 0:
            return original(self, msg)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not on the server's event loop (no websocket): nothing to defer to
            return original(self, msg)
        bucket.pending = msg

        def release() -> None:
            pending, bucket.pending = bucket.pending, None
            bucket.take(time.monotonic())
            if pending is not None:
                original(self, pending)

        loop.call_later(wait, release)
        return None

    handle_backmsg.__rb_throttled__ = True  # type: ignore[attr-defined]
    return handle_backmsg


def throttle_reruns() -> None:
    """Bound how many script runs one session can start per second (idempotent)."""
    from streamlit.runtime.app_session import AppSession

    if not getattr(AppSession.handle_backmsg, "__rb_throttled__", False):
        AppSession.handle_backmsg = _throttled_handle_backmsg(AppSession.handle_backmsg)
