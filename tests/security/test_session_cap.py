"""Threat: one client opens websocket sessions until the server has no sockets left (docs/security.md,
session_flood: with systemd's soft limit of 1,024 open files, ~1,000 idle sessions from one address and no one
else could connect). Against a real server with a small cap: the sessions past the per-client cap are told so in
the visitor's language and closed; when an admitted one leaves, a new one is admitted again. And the gate and the
address rule on their own."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from rocm_bridge.classroom.ratelimit import forwarded_client
from rocm_bridge.serve import start_server, stop_server
from rocm_bridge.ui.runtime import PER_CLIENT_ENV, REFUSED_CLOSE_S, SessionGate, connection_address
from tests import aio

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from wsclient import Session  # noqa: E402

PAGE = "ch3-operators"
CAP = 3


@pytest.fixture(scope="module")
def server():
    proc, url = start_server(env={PER_CLIENT_ENV: str(CAP)})
    yield url
    stop_server(proc)


def _refusal(s: Session) -> str:
    return next((t for t in s.texts() if "open pages" in t or "已打开页面" in t), "")


async def _flood(url: str) -> dict:
    held = [await Session.open(url) for _ in range(CAP)]
    try:
        for s in held:
            await s.run(PAGE)
        admitted = [_refusal(s) for s in held]
        extra = await Session.open(url)
        await extra.run(PAGE)
        told_en = _refusal(extra)
        page_drawn = any(t.startswith("heading") or t.startswith("markdown") for t in extra.texts())
        closed = False
        try:
            for _ in range(50):
                await extra._recv(REFUSED_CLOSE_S + 5)
        except Exception as err:  # noqa: BLE001 - the websockets library's ConnectionClosed
            closed = "Closed" in type(err).__name__
        zh = await Session.open(url)
        await zh.run(PAGE, query="lang=zh")
        told_zh = _refusal(zh)
        await zh.close()
        await held.pop().close()  # one admitted visitor leaves: there is room again
        await asyncio.sleep(0.5)
        again = await Session.open(url)
        held.append(again)
        await again.run(PAGE)
        return {
            "admitted": admitted,
            "en": told_en,
            "drawn": page_drawn,
            "closed": closed,
            "zh": told_zh,
            "again": _refusal(again),
            "again_texts": len(again.texts()),
        }
    finally:
        for s in held:
            await s.close()


def test_sessions_past_the_per_client_cap_are_told_and_closed(server):
    r = aio.run(_flood(server))
    assert r["admitted"] == [""] * CAP
    assert f"({CAP})" in r["en"] and "ROCM_BRIDGE_MAX_SESSIONS_PER_CLIENT" in r["en"]
    assert not r["drawn"], "a refused session must not run the page"
    assert r["closed"], "the refused session's websocket must be closed by the server"
    assert f"（{CAP}）" in r["zh"]
    assert r["again"] == "" and r["again_texts"] > 5


def test_gate_counts_per_client_and_in_total():
    gate = SessionGate(per_client=2, total=3)
    assert [gate.admit(f"s{i}", "A") for i in range(3)] == [True, True, False]
    assert gate.why_refused("s2") == "client"
    assert gate.admit("b1", "B") and not gate.admit("c1", "C") and gate.why_refused("c1") == "total"
    assert gate.admit("s0", "A"), "a reconnect of an admitted session is not a new one"
    gate.leave("s0")
    assert gate.admit("c2", "C") and gate.why_refused("s0") is None


def test_the_address_is_the_proxys_forwarded_one_only_from_a_trusted_proxy(monkeypatch):
    monkeypatch.setenv("ROCM_BRIDGE_TRUST_PROXY", "1")
    assert connection_address("127.0.0.1", [("X-Real-IP", "198.51.100.7")]) == "198.51.100.7"
    assert connection_address("8.8.8.8", [("X-Real-IP", "198.51.100.7")]) == "8.8.8.8"
    monkeypatch.setenv("ROCM_BRIDGE_TRUST_PROXY", "")
    assert connection_address("127.0.0.1", {"x-real-ip": "198.51.100.7"}) == "127.0.0.1"
    assert forwarded_client("10.0.0.2", {"x-forwarded-for": "192.0.2.1, 198.51.100.7"}, "1") == "198.51.100.7"


NGINX_PER_ADDRESS = 300  # deploy/nginx/rocm-bridge.conf.template: limit_conn rb_streams


async def _through_nginx(url: str) -> tuple[int, str]:
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    ws_url = url.replace("http", "ws", 1) + "/_stcore/stream"
    held = []
    try:
        for _ in range(NGINX_PER_ADDRESS):
            held.append(await connect(ws_url, subprotocols=["streamlit"]))
        try:
            held.append(await connect(ws_url, subprotocols=["streamlit"]))
            return len(held), "accepted"
        except InvalidStatus as err:
            return len(held), str(err.response.status_code)
    finally:
        await asyncio.gather(*(ws.close() for ws in held), return_exceptions=True)


def test_nginx_refuses_websockets_past_its_per_address_limit():
    from tests.nginx import Nginx, find_nginx

    if not find_nginx():
        pytest.skip("nginx is not installed (apt-get install nginx)")
    proc, url = start_server(env={PER_CLIENT_ENV: "1000"})  # only nginx's limit is under test here
    try:
        with Nginx([url.removeprefix("http://")]) as lb:
            opened, refused = aio.run(_through_nginx(lb.url))
    finally:
        stop_server(proc)
    assert (opened, refused) == (NGINX_PER_ADDRESS, "429")


def test_a_server_started_with_systemds_1024_files_raises_its_limit_to_fit_the_cap():
    """Each session holds 4 descriptors: at 1,024 open files ~250 idle sessions of one client stopped accept()."""
    import resource

    from rocm_bridge.ui.runtime import FD_HEADROOM, FDS_PER_SESSION, MAX_SESSIONS

    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    wanted = MAX_SESSIONS * FDS_PER_SESSION + FD_HEADROOM
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.skip(f"this machine's hard open-files limit ({hard}) is below {wanted}")
    proc, url = start_server()
    try:
        resource.prlimit(proc.pid, resource.RLIMIT_NOFILE, (1024, hard))

        async def one_visit() -> None:
            s = await Session.open(url)
            await s.run(PAGE)
            await s.close()

        aio.run(one_visit())  # the app installs its runtime fixes on the first run
        soft = resource.prlimit(proc.pid, resource.RLIMIT_NOFILE)[0]
    finally:
        stop_server(proc)
    assert soft >= wanted
