"""Threat: one client keeps the coverage lab's one analysis slot (it uploads again the moment its analysis ends),
so every other visitor is told "busy" on every try (docs/security.md, coverage_loop). The slot takes clients in
turns while someone else is waiting; a client alone is never slowed."""

from __future__ import annotations

import pytest

from rocm_bridge import i18n
from rocm_bridge.coverage import upload
from rocm_bridge.errors import Busy


@pytest.fixture(autouse=True)
def fresh_turns(monkeypatch):
    monkeypatch.setattr(upload, "_last_turn", {})
    monkeypatch.setattr(upload, "_refused", {})


def _as(client: str | None):
    return upload.CLIENT.set(client)


def _take(client: str | None) -> str:
    token = _as(client)
    try:
        with upload.heavy_slot():
            return "ran"
    except Busy as err:
        return err.key
    finally:
        upload.CLIENT.reset(token)


def test_a_client_that_had_the_last_turn_waits_while_another_was_refused():
    token = _as("attacker")
    try:
        with upload.heavy_slot():
            assert _take("student") == "security.cov_busy"  # the attacker's analysis is running
    finally:
        upload.CLIENT.reset(token)
    assert _take("attacker") == "security.cov_turn"  # straight back in: not while the student waits
    assert _take("student") == "ran"
    assert _take("attacker") == "ran"  # the student had its turn: nobody is waiting now


def test_the_turn_message_names_the_wait_in_both_languages():
    token = _as("a")
    try:
        with upload.heavy_slot():
            _take("b")
    finally:
        upload.CLIENT.reset(token)
    token = _as("a")
    try:
        with pytest.raises(Busy) as err, upload.heavy_slot():
            pass
    finally:
        upload.CLIENT.reset(token)
    wait = err.value.params["wait"]
    assert upload.TURN_MIN_S - 2 <= wait <= upload.TURN_MIN_S
    assert f"{wait} s" in err.value.message("en") and f"{wait} 秒" in err.value.message("zh")
    assert i18n.t("security.cov_turn", "zh", wait=1) != i18n.t("security.cov_turn", "en", wait=1)


def test_a_client_alone_and_a_caller_without_client_are_never_delayed():
    assert [_take("alone") for _ in range(3)] == ["ran"] * 3
    assert [_take(None) for _ in range(3)] == ["ran"] * 3
