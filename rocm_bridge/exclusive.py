"""One heavy job at a time per server process (a benchmark, a compile, a model analysis).

Streamlit runs every browser session as a thread of one process, so a process-wide lock keeps two visitors'
clicks from timing or starving each other. A second caller does not wait: it gets the job's own Busy error at
once, and the page says "busy, try again".
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class OneAtATime:
    def __init__(self, busy: Callable[[float], Exception]) -> None:
        self._lock = threading.Lock()
        self._holder: dict[str, object] = {}
        self._busy = busy  # seconds the holder has held it -> the error to raise

    def is_busy(self) -> bool:
        return self._lock.locked()

    def holder(self) -> dict[str, object]:
        """Who holds it (label, since) or {} when free."""
        return dict(self._holder)

    @contextmanager
    def hold(self, label: str) -> Iterator[None]:
        if not self._lock.acquire(blocking=False):
            since = self._holder.get("since")
            raise self._busy(round(time.monotonic() - float(since), 1) if since is not None else 0.0)
        self._holder.update(label=label, since=time.monotonic())
        try:
            yield
        finally:
            self._holder.clear()
            self._lock.release()
