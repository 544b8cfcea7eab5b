"""PostgreSQL stops mid-quiz and comes back (issue 18 item 3): a clear notice that stays, nothing claimed saved that
is not, every answer and the exam submission in the database once it returns. A private cluster of its own, since
this test stops it."""

from __future__ import annotations

import pytest
from pg import PgCluster, find_bindir, missing

from rocm_bridge import i18n
from rocm_bridge.quiz import store as store_mod
from tests.app.quiz_helpers import answer, right_answer

QUIZ = "views/quiz.py"


@pytest.fixture
def own_pg(monkeypatch):
    bindir = find_bindir()
    if bindir is None:
        missing("PostgreSQL (initdb, pg_ctl, postgres)")
    with PgCluster(bindir) as cluster:
        monkeypatch.setenv("ROCM_BRIDGE_DB_URL", cluster.url)
        store_mod._STORES.clear()
        yield cluster
        for s in store_mod._STORES.values():
            s.engine.dispose()
        store_mod._STORES.clear()


def _stop(pg: PgCluster) -> None:
    pg._run(str(pg.bindir / "pg_ctl"), "-D", str(pg.datadir), "-m", "fast", "-w", "stop")


def _start(pg: PgCluster) -> None:
    opts = f"-p {pg.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off"
    pg._run(str(pg.bindir / "pg_ctl"), "-D", str(pg.datadir), "-l", str(pg.dir / "server.log"), "-w", "-t", "60",
            "-o", opts, "start")  # fmt: skip


def _texts(elements):
    return [e.value for e in elements]


def _deck(at):
    ((ctx, deck),) = [(k, v) for k, v in at.session_state["qz_decks"].items() if k.startswith("practice_")]
    return ctx, deck


def _answer_current(at, value):
    ctx, deck = _deck(at)
    i = at.session_state[f"qz_deck_{ctx}"]["i"] if f"qz_deck_{ctx}" in at.session_state else 0
    q = deck[i]
    at.radio(key=f"qz_w_{ctx}_{q.id}").set_value(value).run()
    at.button(key=f"qz_check_{ctx}").click().run()
    return ctx, q


def test_postgres_stops_mid_quiz_and_every_answer_lands(app_test, own_pg):
    at = app_test(QUIZ, qz_set="misconceptions", qz_ch="ch2", qz_gen="false")  # true/false items
    at.text_input(key="qz_nick").input("Ana")
    at.button[0].click().run()
    me = at.session_state["qz_learner"]
    ctx, _ = _answer_current(at, False)
    assert i18n.t("classroom.saved", "en") in _texts(at.caption)

    _stop(own_pg)
    for value in (True, False):
        at.button(key=f"qz_next_{ctx}").click().run()
        _answer_current(at, value)
        assert not at.exception
        assert i18n.t("classroom.not_saved", "en") in _texts(at.caption), "never claimed saved"
        assert i18n.t("classroom.saved", "en") not in _texts(at.caption)
        waiting = [w for w in _texts(at.warning) if "NOT saved yet" in w]
        assert waiting, "a notice that stays while the database is away"
    assert len(at.session_state["qz_outbox"]) == 2
    at.run()  # more reruns while it is down: the notice stays, nothing is dropped
    assert len(at.session_state["qz_outbox"]) == 2 and any("NOT saved" in w for w in _texts(at.warning))

    _start(own_pg)
    at.run()
    assert not at.exception
    assert at.session_state["qz_outbox"] == []
    assert not any("NOT saved" in w for w in _texts(at.warning))
    # issue 27.13: "the database is back" is shown on the page (it was drawn in a fragment, then rerun away)
    assert i18n.t("classroom.outbox.saved", "en") in _texts(at.success)
    db = store_mod.get_store()
    assert [a.correct for a in db.history(me.id)] == [True, False, True]
    at.run()
    assert db.count_answers() == 3, "written once, not once per retry"


def test_exam_submitted_during_an_outage_lands_when_postgres_returns(app_test, own_pg):

    at = app_test(QUIZ, qz_mode="exam", qz_n="5")
    at.text_input(key="qz_nick").input("Bo")
    at.button[0].click().run()
    me = at.session_state["qz_learner"]
    at.button(key="qz_exam_start").click().run()
    exam = at.session_state["qz_exam"]
    for q in exam.questions:
        key = f"qz_w_exam_{q.id}"
        answer(at, q, key, right_answer(q))
    at.run()
    _stop(own_pg)
    at.button(key="qz_exam_submit").click().run()
    assert not at.exception
    assert _texts(at.subheader)[-1] == i18n.t("quiz.exam.score", "en", correct=5, n=5, percent=100.0)
    assert any("NOT saved" in w for w in _texts(at.warning))
    ops = [w["op"] for w in at.session_state["qz_outbox"]]
    assert ops.count("answer") == 5 and ops[-1] == "finish_exam"

    _start(own_pg)
    at.run()
    assert at.session_state["qz_outbox"] == []
    db = store_mod.get_store()
    (row,) = db.exams_of(me.id)
    assert (row["status"], row["n_correct"]) == ("finished", 5)
    assert len(db.history(me.id)) == 5


def test_a_table_lock_gives_the_outage_notice_not_a_hang(app_test, own_pg):
    """Issue 27.11: a lock held on the answers table (a long export, a migration, a stuck transaction) made a
    click wait 21 s with no message. With lock_timeout / statement_timeout on every connection the write gives up,
    stays in the outbox, and the page says so; once the lock is gone it is written."""
    import psycopg

    at = app_test(QUIZ, qz_set="misconceptions", qz_ch="ch2", qz_gen="false")
    at.text_input(key="qz_nick").input("Lo")
    at.button[0].click().run()
    me = at.session_state["qz_learner"]
    dsn = own_pg.url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn) as holder:
        holder.execute("LOCK TABLE rb_answers IN EXCLUSIVE MODE")  # reads pass, writes wait
        ctx, _ = _deck(at)
        _answer_current_timeout(at, ctx, True)
        assert not at.exception
        assert i18n.t("classroom.not_saved", "en") in _texts(at.caption)
        assert any("NOT saved yet" in w for w in _texts(at.warning)), "the outage notice, not silence"
        assert len(at.session_state["qz_outbox"]) == 1
        holder.rollback()  # the lock goes
    at.run()
    assert at.session_state["qz_outbox"] == []
    assert len(store_mod.get_store().history(me.id)) == 1


def _answer_current_timeout(at, ctx, value):
    """_answer_current with a bounded run: without the timeouts this click waits for the lock (AppTest's
    timeout fails the test instead of hanging it)."""
    _, deck = _deck(at)
    q = deck[0]
    at.radio(key=f"qz_w_{ctx}_{q.id}").set_value(value).run(timeout=20)
    at.button(key=f"qz_check_{ctx}").click().run(timeout=20)
