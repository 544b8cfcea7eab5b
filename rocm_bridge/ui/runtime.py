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


# --- sessions: how many websockets one client may hold ----------------------------------------------------------
# Streamlit takes any number of websocket sessions from one address, and every session holds FOUR file descriptors
# (measured in /proc: its websocket, and the epoll descriptor and self-pipe socket pair of the asyncio event loop
# each AppSession creates for its scripts) and its state (~90 KB idle). A replica started by systemd has a soft
# limit of 1,024 open files: one client that opened ~250 idle sessions left the server unable to accept anyone
# else ("Too many open files" in accept(); docs/security.md, session_flood). So the server admits at most
# MAX_SESSIONS_PER_CLIENT sessions per client address (X-Real-IP when the peer is the trusted proxy, as the rate
# limits count) and MAX_SESSIONS in all, and raises its own soft open-files limit to fit them (never past the hard
# limit; if it cannot, MAX_SESSIONS shrinks to what fits). A session over a cap is told so
# (security.too_many_sessions / server_full) and its websocket is closed REFUSED_CLOSE_S later. A whole school
# behind one NAT address is one client: the per-client default leaves room for several classes; set
# ROCM_BRIDGE_MAX_SESSIONS_PER_CLIENT for more.
PER_CLIENT_ENV, TOTAL_ENV = "ROCM_BRIDGE_MAX_SESSIONS_PER_CLIENT", "ROCM_BRIDGE_MAX_SESSIONS"
MAX_SESSIONS_PER_CLIENT = 200
MAX_SESSIONS = 1000
REFUSED_CLOSE_S = 2.0
FDS_PER_SESSION = 4
# descriptors besides live sessions: disconnected sessions Streamlit keeps for a reconnect (up to 128 for 2 min,
# event loop still open: 3 each), the database pool, logs, listening sockets, uploads being read
FD_HEADROOM = 128 * 3 + 128


def _env_int(name: str, default: int) -> int:
    import os

    try:
        value = int(os.environ.get(name, "") or default)
    except ValueError:
        return default
    return value if value > 0 else default


class SessionGate:
    """Counts live sessions per client address and refuses those over a cap (thread-safe).

    >>> gate = SessionGate(per_client=2, total=3)
    >>> [gate.admit(s, a) for s, a in [("s1", "A"), ("s2", "A"), ("s3", "A"), ("s4", "B"), ("s5", "C")]]
    [True, True, False, True, False]
    >>> gate.leave("s1"); gate.admit("s6", "A")
    True
    """

    def __init__(self, per_client: int, total: int) -> None:
        import threading

        self.per_client, self.total = per_client, total
        self.address: dict[str, str] = {}  # admitted session id -> client address
        self.refused: dict[str, str] = {}  # refused session id -> "client" | "total"
        self._lock = threading.Lock()

    def admit(self, session_id: str, address: str) -> bool:
        with self._lock:
            self.refused.pop(session_id, None)
            if session_id in self.address:  # a reconnect of an admitted session
                self.address[session_id] = address
                return True
            if sum(1 for a in self.address.values() if a == address) >= self.per_client:
                self.refused[session_id] = "client"
                return False
            if len(self.address) >= self.total:
                self.refused[session_id] = "total"
                return False
            self.address[session_id] = address
            return True

    def leave(self, session_id: str) -> None:
        with self._lock:
            self.address.pop(session_id, None)
            self.refused.pop(session_id, None)

    def why_refused(self, session_id: str) -> str | None:
        with self._lock:
            return self.refused.get(session_id)


_GATE: SessionGate | None = None


def session_gate() -> SessionGate | None:
    return _GATE


def connection_address(peer: str | None, headers: Any) -> str:
    """The client a websocket belongs to: its peer, or the proxy's X-Real-IP when the peer is the trusted proxy
    (ROCM_BRIDGE_TRUST_PROXY), the same rule as the rate limits (ui/learner.client_address)."""
    import os

    from rocm_bridge.classroom.ratelimit import forwarded_client

    lowered = {str(k).lower(): str(v) for k, v in (headers.items() if hasattr(headers, "items") else headers)}
    return forwarded_client(peer or "local", lowered, os.environ.get("ROCM_BRIDGE_TRUST_PROXY", ""))


def _raise_open_files(wanted: int) -> int:
    """Raise this process's soft open-files limit towards `wanted` (never past the hard limit); the soft limit."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


def cap_sessions() -> None:
    """Bound how many websocket sessions one client and all clients may hold (idempotent)."""
    global _GATE
    import asyncio

    from streamlit.runtime.runtime import Runtime

    if getattr(Runtime.connect_session, "__rb_capped__", False):
        return
    per_client = _env_int(PER_CLIENT_ENV, MAX_SESSIONS_PER_CLIENT)
    total = _env_int(TOTAL_ENV, MAX_SESSIONS)
    soft = _raise_open_files(total * FDS_PER_SESSION + FD_HEADROOM)
    total = min(total, max(1, (soft - FD_HEADROOM) // FDS_PER_SESSION))
    gate = _GATE = SessionGate(min(per_client, total), total)
    connect, disconnect, close = Runtime.connect_session, Runtime.disconnect_session, Runtime.close_session

    def connect_session(self: Any, client: Any, *args: Any, **kwargs: Any) -> str:
        session_id = connect(self, client, *args, **kwargs)
        ctx = getattr(client, "client_context", None)
        address = connection_address(getattr(ctx, "remote_ip", None), getattr(ctx, "headers", ()))
        if not gate.admit(session_id, address):
            websocket = getattr(client, "_websocket", None)
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                loop = None
            if websocket is not None and loop is not None:  # time for the message, then the socket goes
                loop.call_later(REFUSED_CLOSE_S, lambda: loop.create_task(_close(websocket)))
        return session_id

    def disconnect_session(self: Any, session_id: str, *args: Any, **kwargs: Any) -> None:
        gate.leave(session_id)
        return disconnect(self, session_id, *args, **kwargs)

    def close_session(self: Any, session_id: str) -> None:
        gate.leave(session_id)
        return close(self, session_id)

    with contextlib.suppress(Exception):  # the session that runs this was connected before the gate existed
        for info in Runtime.instance()._session_mgr.list_active_sessions():
            ctx = getattr(info.client, "client_context", None)
            gate.admit(info.session.id, connection_address(getattr(ctx, "remote_ip", None),
                                                           getattr(ctx, "headers", ())))
    from rocm_bridge.compile.queue import LAB  # the compile lab's line counts places per client, not per tab

    LAB.client_of = lambda session_id: gate.address.get(session_id, session_id)
    connect_session.__rb_capped__ = True  # type: ignore[attr-defined]
    Runtime.connect_session = connect_session
    Runtime.disconnect_session = disconnect_session
    Runtime.close_session = close_session


async def _close(websocket: Any) -> None:
    with contextlib.suppress(Exception):
        await websocket.close(code=1013)  # 1013 = Try Again Later


def refused_session() -> tuple[str, dict[str, int]] | None:
    """For the running script: None if its session was admitted, else the message's key and parameters."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    gate = _GATE
    why = gate.why_refused(ctx.session_id) if gate is not None and ctx is not None else None
    if why is None:
        return None
    if why == "client":
        return "security.too_many_sessions", {"limit": gate.per_client, "seconds": int(REFUSED_CLOSE_S)}
    return "security.server_full", {"limit": gate.total, "seconds": int(REFUSED_CLOSE_S)}
