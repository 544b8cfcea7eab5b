"""Two app replicas behind nginx sharing one PostgreSQL: the deployment of deploy/, with real servers on loopback.

The replicas run the Dockerfile's start command (rocm_bridge/serve.py), nginx runs deploy/'s template
(tests/nginx.py), the database is the private cluster of tests/pg.py. Clients are headless Streamlit tabs speaking
the websocket protocol (rocm_bridge/stclient.py), each with its own cookie jar like a browser.
"""

from __future__ import annotations

import asyncio

import pytest
from nginx import find_nginx
from pg import missing
from stack import Stack

from rocm_bridge.serve import HEALTH_PATH
from rocm_bridge.stclient import Tab, get, open_through


@pytest.fixture(scope="module")
def stack(postgres):
    if find_nginx() is None:
        missing("nginx")
    url = postgres.create_database()
    try:
        with Stack(url, replicas=2) as s:
            yield s
            if s.nginx and "[emerg]" in s.nginx.log():
                pytest.fail(s.logs())
    finally:
        postgres.drop_database(url)


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


def test_health_through_nginx(stack):
    status, headers, body = get(stack.url + HEALTH_PATH)
    assert (status, body) == (200, b"ok")
    assert headers["X-RB-Upstream"] in stack.upstreams
    for replica in stack.urls:  # and each replica directly, as the Compose / Kubernetes health checks ask
        assert get(replica + HEALTH_PATH)[:3:2] == (200, b"ok")


def test_sessions_stick_to_one_replica(stack):
    async def browser() -> tuple[str, list[str], bool]:
        """One browser: page load, a websocket session, two reconnects that resume it. Upstreams seen."""
        cookies: dict[str, str] = {}
        _, headers, _ = await asyncio.to_thread(get, stack.url + "/", cookies)
        assert "rb_route" in cookies  # nginx's affinity cookie, set on the first response
        seen = [headers["X-RB-Upstream"]]
        tab = await Tab.open(stack.url, cookies)
        await tab.run("", "lang=en")
        sid = tab.session_id
        seen.append(tab.upstream)
        await tab.close()
        resumed = True
        for _ in range(2):
            tab = await Tab.open(stack.url, cookies, session_id=sid)
            await tab.run("", "lang=en")
            seen.append(tab.upstream)
            resumed &= tab.session_id == sid  # only the replica holding the session can resume it
            await tab.close()
        seen.append((await asyncio.to_thread(get, stack.url + HEALTH_PATH, cookies))[1]["X-RB-Upstream"])
        return sid, seen, resumed

    used = set()
    for _ in range(40):  # new browsers until both replicas have one (each lands on either with p = 1/2)
        sid, seen, resumed = run(browser())
        assert len(set(seen)) == 1, f"one browser reached {seen}"
        assert resumed, "a reconnect did not resume its session: it reached another replica"
        used |= set(seen)
        if used == set(stack.upstreams):
            break
    assert used == set(stack.upstreams)


def test_a_session_without_the_cookie_gets_a_new_route(stack):
    async def go():
        tab = await open_through(stack.url)
        await tab.run("", "lang=en")
        assert tab.cookies["rb_route"] and tab.upstream in stack.upstreams
        assert not tab.exceptions
        await tab.close()

    run(go())
