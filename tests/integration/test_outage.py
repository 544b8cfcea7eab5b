"""The classroom under faults on the deployment of deploy/ (issue 27): two replicas behind nginx on a PostgreSQL of
their own that this file stops and starts again, and a replica that dies while the database is away.

- 27.9: /_stcore/health says 200 with the database down or a wrong password; the readiness port does not.
- 27.10 / 27.12: answers given while PostgreSQL is down, then the student's replica dies: the browser's copy
  (rb_ob, rb_who cookies) lets the other replica know the student and write every answer once the database is
  back; the practice deck goes on at the same question.
"""

from __future__ import annotations

import random
import re
import time

import aio
import flows
import pytest
from nginx import find_nginx
from pg import missing, own_cluster
from stack import Stack, start_replica

from rocm_bridge.classroom import classes
from rocm_bridge.classroom.ready import CACHE_S
from rocm_bridge.quiz.store import Store
from rocm_bridge.serve import HEALTH_PATH, stop_server
from rocm_bridge.stclient import get, open_through


@pytest.fixture(scope="module")
def pg():
    yield from own_cluster()  # this file stops and starts it


@pytest.fixture(scope="module")
def stack(pg):
    if find_nginx() is None:
        missing("nginx")
    with Stack(pg.url, replicas=2) as s:
        yield s


def run(coro):
    return aio.run(coro, 180)


def _ready(url: str) -> tuple[int, str]:
    status, _, body = get(url)
    return status, body.decode()


def _wait_ready(urls: list[str], want: int, timeout_s: float = 30) -> list[tuple[int, str]]:
    deadline = time.monotonic() + timeout_s
    while True:
        seen = [_ready(u) for u in urls]
        if all(s == want for s, _ in seen) or time.monotonic() > deadline:
            return seen
        time.sleep(0.5)


def test_readiness_follows_the_database_health_does_not(stack, pg):
    Store(pg.url).engine.dispose()  # the schema, as the first student's page would make it
    assert _wait_ready(stack.ready_urls, 200) == [(200, "ready")] * 2
    pg.pause()
    try:
        time.sleep(CACHE_S + 0.5)
        seen = _wait_ready(stack.ready_urls, 503)
        assert all(s == 503 and b.startswith("database:") for s, b in seen), seen
        for replica in stack.urls:  # Streamlit's own health still says ok: it is the liveness check only
            assert get(replica + HEALTH_PATH)[::2] == (200, b"ok")
        status, _, body = get(stack.url + "/_rb/ready")  # through nginx, as a school's monitor asks
        assert status == 503 and body.startswith(b"database:")
    finally:
        pg.resume()
    assert _wait_ready(stack.ready_urls, 200) == [(200, "ready")] * 2
    assert get(stack.url + "/_rb/ready")[::2] == (200, b"ready")


def test_a_replica_with_a_wrong_password_is_not_ready(pg, tmp_path):
    wrong = pg.url.replace(pg.password, "not-the-password")
    proc, url, ready = start_replica({"ROCM_BRIDGE_DB_URL": wrong, "ROCM_BRIDGE_DATA_DIR": str(tmp_path)},
                                     tmp_path / "replica.log")  # fmt: skip
    try:
        assert get(url + HEALTH_PATH)[::2] == (200, b"ok")
        assert _ready(ready) == (503, "database: OperationalError")
    finally:
        stop_server(proc)


def _question_number(tab) -> int:
    text = re.escape(flows.label("quiz.question_n", i="@@", n="##"))
    pattern = text.replace(re.escape("@@"), r"(\d+)").replace(re.escape("##"), r"\d+")
    found = [int(m.group(1)) for e in tab.elements_in_order() if (m := re.search(pattern, e.text))]
    assert found, tab.texts()[-1500:]
    return found[0]


def test_answers_given_while_postgres_is_down_survive_the_replica_dying(stack, pg):
    rng = random.Random(27)
    db = Store(pg.url)
    join_code = classes.create_class(db, "Outage class", "203.0.113.9")[0].join_code
    db.engine.dispose()

    async def before():
        tab = await open_through(stack.url)
        await flows.join_class(tab, "mover", join_code)
        await tab.run(flows.QUIZ, "lang=en")
        assert await flows.practice_answer(tab, rng)  # saved, then Next
        pg.pause()
        for _ in range(2):
            assert not await flows.practice_answer(tab, rng)  # "Not saved yet"
        assert flows.label("classroom.not_saved") in tab.texts() or "NOT saved" in tab.texts()
        assert {"rb_ob", "rb_who", "rb_deck"} <= set(tab.cookies)
        at = _question_number(tab)
        await tab.close()
        return tab.cookies, tab.upstream, at

    cookies, gone, at = run(before())
    assert at == 4
    stop_server(stack.procs[stack.replica_of(gone)])  # the replica that held the unsent answers dies

    async def after():
        tab = await open_through(stack.url, cookies)  # the browser reconnects: nginx sends it to the other one
        assert tab.upstream != gone
        await tab.run(flows.QUIZ, "lang=en")
        texts = tab.texts()
        assert flows.label("quiz.nick.as", nick="mover") in texts  # known without the database
        assert "NOT saved" in texts and not tab.exceptions
        assert _question_number(tab) == 4  # the deck goes on where it was
        pg.resume()
        await tab.run(flows.QUIZ, "lang=en")
        assert flows.label("classroom.outbox.saved") in tab.texts()
        assert "NOT saved" not in tab.texts()
        await tab.close()

    try:
        run(after())
    finally:
        if not (pg.datadir / "postmaster.pid").exists():
            pg.resume()
    n = flows.answers_of(pg.url, "mover")
    assert n == 3, "the two answers the dead replica held are written too"
