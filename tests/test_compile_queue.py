"""The compile lab's fair line (rocm_bridge/compile/queue.py): first come first served with the position shown,
one ticket per session, a per-session quota, a bounded line. Real threads, no compiler needed."""

from __future__ import annotations

import threading
import time

import pytest

from rocm_bridge.compile import queue as q
from rocm_bridge.compile.errors import CompileBusy, CompileQueued, CompileQuota


def _waiter(line: q.FairQueue, session: str, order: list[str], positions: dict[str, list[int]],
            hold_s: float = 0.05) -> threading.Thread:
    def run() -> None:
        with line.turn("job", session=session, on_wait=lambda p: positions.setdefault(session, []).append(p)):
            order.append(session)
            time.sleep(hold_s)
    th = threading.Thread(target=run)
    th.start()
    return th


def test_first_come_first_served_with_positions():
    line = q.FairQueue()
    order: list[str] = []
    positions: dict[str, list[int]] = {}
    with line.turn("holder"):
        threads = []
        for s in ("a", "b", "c"):
            threads.append(_waiter(line, s, order, positions))
            time.sleep(0.1)  # a enters the line before b, b before c
        assert line.waiting() == 3
    for th in threads:
        th.join(10)
    assert order == ["a", "b", "c"]
    assert positions["a"][0] == 1 and positions["b"][0] == 2 and positions["c"][0] == 3
    assert positions["c"] == sorted(positions["c"], reverse=True)  # it only moves forward
    assert not line.is_busy()


def test_one_ticket_per_session():
    line = q.FairQueue()
    with line.turn("x", session="s1"), pytest.raises(CompileQueued), line.turn("y", session="s1"):
        pass
    with line.turn("z", session="s1"):  # free again afterwards
        pass


def test_quota_per_session(monkeypatch):
    monkeypatch.setattr(q, "QUOTA", 3)
    line = q.FairQueue()
    for _ in range(3):
        with line.turn("x", session="greedy"):
            pass
    with pytest.raises(CompileQuota) as err, line.turn("x", session="greedy"):
        pass
    assert 1 <= err.value.params["wait"] <= q.QUOTA_WINDOW_S
    with line.turn("x", session="other"):  # another visitor is not affected
        pass
    with line.turn("x"):  # nor the CLI / tests (no session)
        pass


def test_bounded_line_and_wait(monkeypatch):
    monkeypatch.setattr(q, "MAX_WAITING", 1)
    line = q.FairQueue()
    order: list[str] = []
    with line.turn("holder"):
        th = _waiter(line, "a", order, {})
        time.sleep(0.1)
        with pytest.raises(CompileBusy), line.turn("x", session="b"):  # the line is full
            pass
    th.join(10)
    assert order == ["a"] and not line.is_busy()


def test_a_ticket_waits_at_most_its_limit():
    line = q.FairQueue()
    with line.turn("holder"):
        t0 = time.monotonic()
        with pytest.raises(CompileBusy), line.turn("x", wait_s=0.3):
            pass
        assert 0.3 <= time.monotonic() - t0 < 3
        assert line.waiting() == 0  # the ticket that gave up left the line


def test_one_client_holds_at_most_its_places_and_clients_take_turns():
    """Before: one client with 17 sessions filled the line and everybody else got CompileBusy."""
    from rocm_bridge.compile.errors import CompileClientQueued

    line = q.FairQueue()
    line.client_of = lambda session: session.split("/")[0]  # "address/tab"
    release = threading.Event()
    positions: dict[str, list[int]] = {}
    order: list[str] = []

    def hold(session: str) -> threading.Thread:
        def run() -> None:
            with line.turn("job", session=session, on_wait=lambda p: positions.setdefault(session, []).append(p)):
                order.append(session)
                release.wait(10)
        th = threading.Thread(target=run)
        th.start()
        time.sleep(0.1)
        return th

    threads = [hold(f"attacker/{i}") for i in range(q.CLIENT_TICKETS)]
    with pytest.raises(CompileClientQueued) as err, line.turn("job", session=f"attacker/{q.CLIENT_TICKETS}"):
        pass
    assert err.value.params["tickets"] == q.CLIENT_TICKETS
    threads.append(hold("student/1"))
    threads.append(hold("other/1"))
    assert positions["student/1"][0] == 1 and positions["other/1"][0] == 2  # ahead of the attacker's 2nd..4th
    release.set()
    for th in threads:
        th.join(10)
    assert order[:3] == ["attacker/0", "student/1", "other/1"]
    assert not line.is_busy()
