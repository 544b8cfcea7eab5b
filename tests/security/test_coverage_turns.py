"""Threat: one client keeps a one-at-a-time lab (the coverage lab's analysis slot, the live benchmark) by starting
again the moment its job ends, so every other visitor is told "busy" on every try (docs/security.md,
coverage_loop: 1 of 7 tries ran). The slot (rocm_bridge/exclusive.py) takes clients in turns while someone else is
waiting; a client alone is never slowed."""

from __future__ import annotations

import time

import pytest

from rocm_bridge import exclusive, i18n
from rocm_bridge.coverage import upload
from rocm_bridge.errors import Busy
from rocm_bridge.live import lock


@pytest.fixture(autouse=True)
def fresh_slots(monkeypatch):
    monkeypatch.setattr(upload, "_HEAVY", exclusive.OneAtATime(upload._HEAVY._busy, turn=upload._HEAVY._turn))
    monkeypatch.setattr(lock, "_BENCH", exclusive.OneAtATime(lock._BENCH._busy, turn=lock._BENCH._turn))


def _as(client: str | None):
    return exclusive.CLIENT.set(client)


def _take(client: str | None) -> str:
    token = _as(client)
    try:
        with upload.heavy_slot():
            return "ran"
    except Busy as err:
        return err.key
    finally:
        exclusive.CLIENT.reset(token)


def test_a_client_that_had_the_last_turn_waits_while_another_was_refused():
    token = _as("attacker")
    try:
        with upload.heavy_slot():
            assert _take("student") == "security.cov_busy"  # the attacker's analysis is running
            time.sleep(0.05)  # it takes longer than the student's
    finally:
        exclusive.CLIENT.reset(token)
    assert _take("attacker") == "security.slot_turn"  # straight back in: not while the student waits
    assert _take("student") == "ran"
    assert _take("student") == "ran"  # the lighter user of the slot is never made to wait
    assert _take("attacker") == "security.slot_turn"


def test_the_turn_message_names_the_wait_in_both_languages():
    token = _as("a")
    try:
        with upload.heavy_slot():
            _take("b")
    finally:
        exclusive.CLIENT.reset(token)
    token = _as("a")
    try:
        with pytest.raises(Busy) as err, upload.heavy_slot():
            pass
    finally:
        exclusive.CLIENT.reset(token)
    wait = err.value.params["wait"]
    assert exclusive.TURN_MIN_S - 2 <= wait <= exclusive.TURN_MIN_S
    assert f"{wait} s" in err.value.message("en") and f"{wait} 秒" in err.value.message("zh")
    assert i18n.t("security.slot_turn", "zh", wait=1) != i18n.t("security.slot_turn", "en", wait=1)


def test_a_client_alone_and_a_caller_without_client_are_never_delayed():
    assert [_take("alone") for _ in range(3)] == ["ran"] * 3
    assert [_take(None) for _ in range(3)] == ["ran"] * 3


def test_the_live_benchmark_takes_clients_in_turns_too():
    def bench(client: str) -> str:
        token = _as(client)
        try:
            with lock.bench_lock("suite"):
                return "ran"
        except Busy as err:
            return err.key
        finally:
            exclusive.CLIENT.reset(token)

    token = _as("looper")
    try:
        with lock.bench_lock("suite"):
            assert bench("student") != "ran"
            time.sleep(0.05)
    finally:
        exclusive.CLIENT.reset(token)
    assert bench("looper") == "security.slot_turn"
    assert bench("student") == "ran"
