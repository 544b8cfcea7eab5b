"""One benchmark at a time per server process.

Streamlit runs every browser session as a thread of one process, so a process-wide lock is enough to keep
two classrooms' clicks from timing each other's kernels. A second caller does not wait: it gets errors.Busy
and the page says "busy, try again".
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

from rocm_bridge.errors import Busy

_LOCK = threading.Lock()
_holder: dict[str, object] = {}


def is_busy() -> bool:
    return _LOCK.locked()


def holder() -> dict[str, object]:
    """Who holds the lock (label, since) or {} when free."""
    return dict(_holder)


@contextmanager
def bench_lock(label: str = "benchmark"):
    if not _LOCK.acquire(blocking=False):
        raise Busy()
    _holder.update(label=label, since=time.monotonic())
    try:
        yield
    finally:
        _holder.clear()
        _LOCK.release()
