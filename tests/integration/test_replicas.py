"""Two app replicas behind nginx sharing one PostgreSQL: the deployment of deploy/, with real servers on loopback.

The replicas run the Dockerfile's start command (rocm_bridge/serve.py), nginx runs deploy/'s template
(tests/nginx.py), the database is the private cluster of tests/pg.py. Clients are headless Streamlit tabs speaking
the websocket protocol (rocm_bridge/stclient.py), each with its own cookie jar like a browser.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time

import aio
import flows
import pytest
from nginx import find_nginx
from pg import missing
from sqlalchemy import create_engine, func, select
from stack import Stack

from rocm_bridge.quiz.schema import answers, learners, poll_answers, polls
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
    return aio.run(coro, 120)


def test_health_through_nginx(stack):
    status, headers, body = get(stack.url + HEALTH_PATH)
    assert (status, body) == (200, b"ok")
    assert headers["X-RB-Upstream"] in stack.upstreams
    for replica in stack.urls:  # and each replica directly, as the Compose / Kubernetes health checks ask
        assert get(replica + HEALTH_PATH)[:3:2] == (200, b"ok")


def test_a_resume_link_never_reaches_the_access_log(stack):
    """Issue 27 #7: one page view wrote a learner's resume code into nginx's log 66 times (the request line and
    every static file's Referer). The log keeps the path only, and browsers are told to send no Referer."""
    import urllib.request

    code = "ABCD-EFGH-JKMN-PQRS"
    status, headers, _ = get(f"{stack.url}/?me={code}")
    assert status == 200 and headers["Referrer-Policy"] == "no-referrer"
    req = urllib.request.Request(f"{stack.url}/favicon.png", headers={"Referer": f"{stack.url}/?me={code}"})
    with contextlib.suppress(OSError):
        urllib.request.urlopen(req, timeout=10).read()
    deadline = time.monotonic() + 10  # nginx writes the line after the last byte the client may already have read
    while "/favicon.png" not in (log := (stack.nginx.dir / "access.log").read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "GET / HTTP/1.1" in log and "/favicon.png" in log  # the requests were logged ...
    assert code not in log and "me=" not in log  # ... without the secret


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


def _chart_counts(tab: Tab) -> list[int]:
    """The bars of the teacher's live answer chart (the Plotly figure the page sent)."""
    charts = [e for e in tab.elements_in_order() if e.type == "plotly_chart"]
    assert charts, tab.texts()[-400:]
    fig = json.loads(charts[-1].proto.spec)
    return [int(v) for v in fig["data"][0]["y"]]


def test_live_poll_crosses_replicas_and_answers_land_in_postgres(stack):
    rng = random.Random(15)

    async def go():
        teacher = await open_through(stack.url)
        home = teacher.upstream
        # Students until two sit on the other replica and one on the teacher's (each lands on either, p = 1/2).
        students: list[Tab] = []
        for _ in range(40):
            tab = await open_through(stack.url)
            others = sum(s.upstream != home for s in students)
            same = len(students) - others
            if (tab.upstream != home and others < 2) or (tab.upstream == home and same < 1):
                students.append(tab)
            else:
                await tab.close()
            if len(students) == 3:
                break
        assert len(students) == 3 and {s.upstream for s in students} == set(stack.upstreams)

        cls = await flows.create_class(teacher, "Integration 1")
        for i, s in enumerate(students):
            await flows.join_class(s, f"student {i}", cls.join_code)
        await flows.open_poll(teacher)
        assert _chart_counts(teacher) and sum(_chart_counts(teacher)) == 0
        for s in students:  # no reload: only the poll fragment's timer runs, as in the browser
            await flows.wait_for_poll(s, timeout_s=10)
            assert await flows.answer_poll(s, rng)
        # Each answers once: from the poll timer's next run on, a second send is not offered ("received" only)
        for s in students:
            await s.run_fragments(flows.CLASSROOM, "lang=en")
            assert flows.poll_input(s) is None and flows.label("classroom.poll.received") in s.texts()
        await teacher.run_fragments(flows.CLASSROOM, "lang=en&cr_tab=teacher")  # the live chart's timer
        assert sum(_chart_counts(teacher)) == 3
        # And a practice answer from a student on each replica
        saved = {s.upstream: await flows.practice_answer(s, rng) for s in students}
        assert all(saved.values()) and set(saved) == set(stack.upstreams)
        for tab in (teacher, *students):
            assert not tab.exceptions
            await tab.close()
        return cls

    cls = run(go())
    engine = create_engine(stack.db_url)
    try:
        with engine.connect() as conn:
            (poll,) = conn.execute(select(polls.c.id, polls.c.status)).all()
            nicks = dict(conn.execute(select(learners.c.id, learners.c.nickname)).all())
            in_poll = conn.execute(select(poll_answers.c.learner_id).where(poll_answers.c.poll_id == poll.id)).scalars()
            by_mode = dict(conn.execute(select(answers.c.mode, func.count()).group_by(answers.c.mode)).all())
    finally:
        engine.dispose()
    assert poll.status == "open"
    assert sorted(nicks[i] for i in in_poll) == ["student 0", "student 1", "student 2"]
    assert by_mode == {"poll": 3, "practice": 3}
    assert cls.join_code and len(cls.key) >= 20


def test_a_resume_link_never_silently_replaces_this_devices_learner(stack):
    """Issue 27 #7: a ?me= link replaced the learner's own identity cookie, so the victim's later answers went to
    the attacker's history. Now the device keeps its learner and asks; nothing switches without a click."""

    async def go():
        teacher = await open_through(stack.url)
        cls = await flows.create_class(teacher, "Links")
        await teacher.close()
        victim, attacker = await open_through(stack.url), await open_through(stack.url)
        await flows.join_class(victim, "victim", cls.join_code)
        await flows.join_class(attacker, "attacker", cls.join_code)
        own, theirs = victim.cookies["rb_me"], attacker.cookies["rb_me"]
        await attacker.close()
        await victim.close()
        tab = await open_through(stack.url, dict(victim.cookies))  # the victim opens the attacker's link
        await tab.run(flows.QUIZ, f"lang=en&me={theirs}")
        texts = tab.texts()
        assert flows.label("quiz.nick.as", nick="victim") in texts  # still the device's own learner
        assert flows.label("classroom.me.switch_ask", nick="victim") in texts  # and asked
        assert tab.cookies["rb_me"] == own
        tab.click(tab.widget("button", label=flows.label("classroom.me.switch_keep")))
        await tab.run(flows.QUIZ, "lang=en")
        assert flows.label("quiz.nick.as", nick="victim") in tab.texts() and tab.cookies["rb_me"] == own
        await tab.close()
        fresh = await open_through(stack.url)  # a device with no learner yet: the link applies, as before
        await fresh.run(flows.QUIZ, f"lang=en&me={own}")
        assert flows.label("quiz.nick.as", nick="victim") in fresh.texts()
        await fresh.close()

    run(go())


def test_when_a_replica_goes_away_its_browsers_move_and_keep_their_work(stack):
    """Runs last: it stops a replica. nginx sends the pinned browsers to the other one; the learner is back
    from the resume cookie and what was acknowledged before is in PostgreSQL."""
    rng = random.Random(18)

    async def go():
        teacher = await open_through(stack.url)
        cls = await flows.create_class(teacher, "Fail-over")
        await teacher.close()
        tab = await open_through(stack.url)
        await flows.join_class(tab, "survivor", cls.join_code)
        assert "rb_me" in tab.cookies  # the resume code, as the page's script stores it
        assert await flows.practice_answer(tab, rng)
        gone = tab.upstream
        await tab.close()
        return tab.cookies, gone

    cookies, gone = run(go())
    i = stack.replica_of(gone)
    from rocm_bridge.serve import stop_server

    stop_server(stack.procs[i])

    async def after():
        tab = await open_through(stack.url, cookies)  # a reload: same cookies, rb_route still names the dead one
        assert tab.upstream != gone and tab.upstream in stack.upstreams
        await tab.run(flows.QUIZ, "lang=en")
        assert flows.label("quiz.nick.as", nick="survivor") in tab.texts()  # resumed, not a new learner
        assert await flows.practice_answer(tab, rng)
        assert not tab.exceptions
        await tab.close()

    run(after())
    n = flows.answers_of(stack.db_url, "survivor")
    assert n == 2
