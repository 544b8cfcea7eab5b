"""Fair turns for the compile lab: one compile runs at a time per server, the others wait in line.

Streamlit runs every browser session as a thread of one process. Instead of answering "busy, try again" for
ever, a caller takes a ticket and waits its turn (first come, first served), and the page shows its position.
So that one visitor cannot hold the lab:
- a session has at most one ticket (a second click while one waits or runs gets CompileQueued at once);
- a session may start at most QUOTA compiles per QUOTA_WINDOW_S (CompileQuota, with the seconds to wait);
- the line is at most MAX_WAITING long (CompileBusy, with the line's length), and a ticket waits at most WAIT_S;
- one CLIENT (an address: several sessions of one browser or script) holds at most CLIENT_TICKETS places in line
  (CompileClientQueued), and the line takes clients in turn: a client's n-th waiting ticket goes behind every
  other client's n-th. Before this, one client with 17 sessions filled the line and every other visitor was told
  "busy" for the next quarter of an hour (docs/security.md, compile_sessions). The server tells the queue a
  session's client (`client_of`, set by the UI); without it a session is its own client.
Callers without a session (the CLI, tests, the recorder) take tickets too, with no quota.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rocm_bridge.compile.errors import CompileBusy, CompileClientQueued, CompileQueued, CompileQuota

QUOTA = 12
QUOTA_WINDOW_S = 60.0
MAX_WAITING = 16
CLIENT_TICKETS = 4
WAIT_S = 180.0
POLL_S = 0.25


class FairQueue:
    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._line: deque[tuple[int, str | None, str]] = deque()  # (ticket, session, label); [0] runs
        self._client: dict[int, str] = {}  # ticket -> its client
        self.client_of: Callable[[str], str] | None = None  # a session id -> its client (an address)
        self._running_since: float | None = None
        self._starts: dict[str, deque[float]] = {}
        self._ids = itertools.count(1)

    def waiting(self) -> int:
        with self._cond:
            return max(0, len(self._line) - (1 if self._running_since is not None else 0))

    def is_busy(self) -> bool:
        with self._cond:
            return bool(self._line)

    def holder(self) -> dict[str, object]:
        with self._cond:
            if not self._line or self._running_since is None:
                return {}
            return {"label": self._line[0][2], "since": self._running_since}

    def position(self, ticket: int) -> int:
        """0: running; n: n tickets ahead of this one; -1: not in line."""
        with self._cond:
            for i, (tk, _, _) in enumerate(self._line):
                if tk == ticket:
                    return i
        return -1

    def _check_quota(self, session: str, now: float) -> None:
        starts = self._starts.setdefault(session, deque())
        while starts and now - starts[0] > QUOTA_WINDOW_S:
            starts.popleft()
        if len(starts) >= QUOTA:
            raise CompileQuota(quota=QUOTA, window=int(QUOTA_WINDOW_S),
                               wait=max(1, round(QUOTA_WINDOW_S - (now - starts[0]))))

    @contextmanager
    def turn(self, label: str, session: str | None = None,
             on_wait: Callable[[int], None] | None = None, wait_s: float | None = None) -> Iterator[int]:
        """Wait for this caller's turn, then hold it. `on_wait(position)` is called while waiting (position >= 1)
        whenever the position changes. Raises CompileQueued / CompileQuota / CompileBusy before waiting."""
        now = time.monotonic()
        with self._cond:
            if session is not None:
                if any(s == session for _, s, _ in self._line):
                    raise CompileQueued()
                self._check_quota(session, now)
            client = self._client_for(session)
            mine = sum(1 for tk, _, _ in self._line if self._client.get(tk) == client) if client else 0
            if client and mine >= CLIENT_TICKETS:
                raise CompileClientQueued(tickets=CLIENT_TICKETS)
            if len(self._line) > MAX_WAITING:
                raise CompileBusy(since=round(now - (self._running_since or now), 1))
            ticket = next(self._ids)
            self._insert((ticket, session, label), client, mine)
            if session is not None:
                self._starts[session].append(now)
        deadline = now + (WAIT_S if wait_s is None else wait_s)
        last = -1
        try:
            while True:
                with self._cond:
                    pos = next(i for i, (tk, _, _) in enumerate(self._line) if tk == ticket)
                    if pos == 0:
                        self._running_since = time.monotonic()
                        break
                    if time.monotonic() > deadline:
                        raise CompileBusy(since=round(time.monotonic() - (self._running_since or now), 1))
                if on_wait is not None and pos != last:
                    on_wait(pos)
                last = pos
                with self._cond:
                    self._cond.wait(POLL_S)
            yield ticket
        finally:
            with self._cond:
                if self._line and self._line[0][0] == ticket:
                    self._running_since = None
                self._line = deque(x for x in self._line if x[0] != ticket)
                self._client.pop(ticket, None)
                self._cond.notify_all()

    def _client_for(self, session: str | None) -> str | None:
        if session is None:
            return None
        try:
            return self.client_of(session) if self.client_of is not None else session
        except Exception:  # noqa: BLE001 - a resolver failure must not stop the lab: the session is the client
            return session

    def _insert(self, entry: tuple[int, str | None, str], client: str | None, rank: int) -> None:
        """Append, but ahead of the first waiting ticket whose client already has more than `rank` tickets
        before it: clients take turns (the running ticket, [0], never moves)."""
        if client is not None:
            self._client[entry[0]] = client
            seen: dict[str, int] = {}
            for i, (tk, _, _) in enumerate(self._line):
                other = self._client.get(tk)
                if other is None:
                    continue
                n = seen[other] = seen.get(other, 0) + 1
                if i > 0 and n - 1 > rank:
                    self._line.insert(i, entry)
                    return
        self._line.append(entry)


LAB = FairQueue()
