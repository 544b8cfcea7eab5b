"""One heavy job at a time per server process (a benchmark, a compile, a model analysis).

Streamlit runs every browser session as a thread of one process, so a process-wide lock keeps two visitors'
clicks from timing or starving each other. A second caller does not wait: it gets the job's own Busy error at
once, and the page says "busy, try again".

Turns between clients. A busy slot that answers at once can be held by one client that starts again the moment
its job ends: a loop of the coverage lab's largest upload held it nearly all the time and another visitor ran
1 try in 7 (docs/security.md, coverage_loop). So while another client has been refused within CONTENTION_S, a
client that has used the slot for longer than every waiting client in that window (seconds held) waits, after
its job, as long as the job took (at least TURN_MIN_S, at most TURN_MAX_S) before it may take the slot again: it
has at most half the slot's time, and the refused visitor gets in on a retry. The lighter user is never made to
wait, and a client alone is never slowed. The client is the caller's address, set per script run by the UI (CLIENT); the CLI and
tests have none and are never delayed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

CLIENT: ContextVar[str | None] = ContextVar("rocm_bridge_client", default=None)
CONTENTION_S = 120.0
TURN_MIN_S, TURN_MAX_S = 20.0, 120.0
MAX_CLIENTS_KEPT = 10_000


class OneAtATime:
    def __init__(self, busy: Callable[[float], Exception], turn: Callable[[int], Exception] | None = None) -> None:
        self._lock = threading.Lock()
        self._holder: dict[str, object] = {}
        self._busy = busy  # seconds the holder has held it -> the error to raise
        self._turn = turn  # seconds this client must still wait -> the error to raise (None: no turns)
        self._turns = threading.Lock()
        self._last: dict[str, tuple[float, float]] = {}  # client -> (when its job ended, how long it took)
        self._used: dict[str, list[tuple[float, float]]] = {}  # client -> its jobs (end, took) in the window
        self._refused: dict[str, float] = {}  # client -> when it was last told busy

    def is_busy(self) -> bool:
        return self._lock.locked()

    def holder(self) -> dict[str, object]:
        """Who holds it (label, since) or {} when free."""
        return dict(self._holder)

    def _usage(self, client: str, now: float) -> float:
        jobs = [(end, took) for end, took in self._used.get(client, ()) if now - end <= CONTENTION_S]
        if jobs:
            self._used[client] = jobs
        else:
            self._used.pop(client, None)
        return sum(took for _, took in jobs)

    def turn_wait(self, client: str, now: float) -> float:
        """Seconds `client` must still wait because it used the slot more than the clients waiting for it (0: go)."""
        with self._turns:
            for who in [w for w, t in self._refused.items() if now - t > CONTENTION_S]:
                del self._refused[who]
            others = [who for who in self._refused if who != client]
            if not others or self._usage(client, now) <= min(self._usage(w, now) for w in others):
                return 0.0
            ended, took = self._last.get(client, (0.0, 0.0))
            return max(0.0, ended + min(max(took, TURN_MIN_S), TURN_MAX_S) - now)

    @contextmanager
    def hold(self, label: str) -> Iterator[None]:
        client, now = (CLIENT.get() if self._turn is not None else None), time.monotonic()
        if client is not None:
            wait = self.turn_wait(client, now)
            if wait > 0:
                with self._turns:
                    self._refused[client] = now  # it is waiting too: the other side takes turns as well
                raise self._turn(max(1, round(wait)))  # type: ignore[misc]
        if not self._lock.acquire(blocking=False):
            if client is not None:
                with self._turns:
                    self._refused[client] = now
            since = self._holder.get("since")
            raise self._busy(round(time.monotonic() - float(since), 1) if since is not None else 0.0)
        started = time.monotonic()
        self._holder.update(label=label, since=started)
        try:
            yield
        finally:
            if client is not None:
                with self._turns:
                    end = time.monotonic()
                    self._last[client] = (end, end - started)
                    self._used.setdefault(client, []).append((end, end - started))
                    if len(self._last) > MAX_CLIENTS_KEPT:  # bounded: the oldest half goes
                        for who in sorted(self._last, key=lambda w: self._last[w][0])[: MAX_CLIENTS_KEPT // 2]:
                            del self._last[who]
                            self._used.pop(who, None)
            self._holder.clear()
            self._lock.release()
