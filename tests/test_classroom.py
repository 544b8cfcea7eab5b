"""Classes, teacher keys, rate limits against guessing, class-seeded papers and live polls, on SQLite and PostgreSQL.

Every test that takes `store` runs twice (tests/pg.py's db_url fixture).
"""

from __future__ import annotations

import threading

import pytest

from rocm_bridge.classroom import classes, codes, papers, polls, ratelimit
from rocm_bridge.quiz import schema
from rocm_bridge.quiz.store import NicknameTaken, Store


@pytest.fixture
def store(db_url):
    s = Store(db_url)
    yield s
    s.engine.dispose()


def test_codes_have_the_documented_shape():
    join, resume, key = codes.new_join_code(), codes.new_resume_code(), codes.new_teacher_key()
    assert len(join) == codes.JOIN_LEN and set(join) <= set(codes.ALPHABET)
    assert len(resume) == 19 and codes.clean_code(resume.lower(), codes.RESUME_LEN) == resume.replace("-", "")
    assert len(key) == 32
    assert not set("0O1IL") & set(codes.ALPHABET)
    assert codes.clean_code("K7QM3", codes.JOIN_LEN) is None and codes.clean_code("K7QM3O", codes.JOIN_LEN) is None
    assert len({codes.new_join_code() for _ in range(200)}) == 200


def test_teacher_key_is_stored_only_as_a_salted_hash(store):
    info, key = classes.create_class(store, "GPU 101")
    other, key2 = classes.create_class(store, "GPU 101")
    with store.engine.connect() as conn:
        rows = conn.execute(schema.classes.select()).mappings().all()
    assert all(key not in str(v) and key2 not in str(v) for r in rows for v in r.values())
    assert rows[0]["key_salt"] != rows[1]["key_salt"] and rows[0]["key_hash"] != rows[1]["key_hash"]
    assert classes.teacher_login(store, info.join_code.lower(), key, "t1") == info
    with pytest.raises(classes.WrongKey):
        classes.teacher_login(store, info.join_code, key2, "t1")  # another class's key
    with pytest.raises(classes.WrongKey):
        classes.teacher_login(store, "ZZZZZZ", key, "t1")


@pytest.fixture
def waits(monkeypatch):
    """The seconds each try waited before it was checked (the over-limit delay, recorded instead of slept)."""
    slept: list[float] = []
    monkeypatch.setattr(ratelimit.time, "sleep", slept.append)
    ratelimit._tabs.clear()
    return slept


def test_wrong_teacher_keys_never_lock_out_the_right_key(store, waits):
    """Issue 27 #6: behind one school address (or nginx on the same host) ten wrong keys locked the real teacher
    out for 10 minutes. Now the guesser's own tab stops, the address slows down, and the right key passes."""
    info, key = classes.create_class(store, "A")
    limit = ratelimit.LIMITS["teacher"][0]
    for i in range(limit):  # ten guessing tabs, each under its own limit, all from the school's address
        with pytest.raises(classes.WrongKey):
            classes.teacher_login(store, info.join_code, f"guess{i}", "school-nat", f"tab{i}")
    assert waits == []
    with pytest.raises(ratelimit.TooManyAttempts) as err:  # past the address's limit a wrong key is told to wait
        classes.teacher_login(store, info.join_code, "one more", "school-nat", "tab-x")
    assert err.value.message("zh") != err.value.message("en")
    assert waits == [ratelimit.OVER_LIMIT_DELAY_S]
    # the real teacher, same address, another tab: slowed down, never refused
    assert classes.teacher_login(store, info.join_code, key, "school-nat", "teacher-tab") == info
    assert len(waits) == 2
    assert classes.teacher_login(store, info.join_code, key, "teacher-laptop", "t2") == info


def test_a_guessing_tab_is_stopped_right_or_wrong(store, waits):
    info, key = classes.create_class(store, "A")
    for i in range(ratelimit.SESSION_FAILURES - 1):
        with pytest.raises(classes.WrongKey):
            classes.teacher_login(store, info.join_code, f"g{i}", f"bot{i}", "guesser-tab")
    with pytest.raises(ratelimit.TooManyAttempts):  # its last wrong try
        classes.teacher_login(store, info.join_code, "last", "bot-z", "guesser-tab")
    with pytest.raises(ratelimit.TooManyAttempts):  # and from now on, even a right key from that tab
        classes.teacher_login(store, info.join_code, key, "bot-y", "guesser-tab")
    assert classes.teacher_login(store, info.join_code, key, "bot-y", "teacher-tab") == info


def test_a_class_guessed_at_from_many_addresses_slows_down_but_opens_for_its_teacher(store, waits):
    info, key = classes.create_class(store, "A")
    for i in range(ratelimit.LIMITS["teacher_class"][0]):
        with pytest.raises((classes.WrongKey, ratelimit.TooManyAttempts)):
            classes.teacher_login(store, info.join_code, f"g{i}", f"bot{i % 5}", f"tab{i}")
    waited = len(waits)
    assert classes.teacher_login(store, info.join_code, key, "teacher", "teacher-tab") == info
    assert len(waits) == waited + 1
    later = __import__("time").time() + 601  # and it ends: a window, not a lock-out for good
    assert ratelimit._count(store, "teacher_class", info.join_code, later) == 0


def test_join_code_guessing_slows_down_but_the_right_code_joins(store, waits):
    info, _ = classes.create_class(store, "A")
    for i in range(40):  # a class of 40 behind one school NAT: successful joins do not count
        classes.join_class(store, info.join_code, f"student{i}", "school-nat", f"s{i}")
    limit = ratelimit.LIMITS["join"][0]
    for i in range(limit):  # somebody at the same address guesses, from many tabs
        with pytest.raises(classes.UnknownClass):
            classes.find_class(store, codes.new_join_code(), "school-nat", f"guess{i // 5}")
    assert waits == []
    with pytest.raises(ratelimit.TooManyAttempts):
        classes.find_class(store, codes.new_join_code(), "school-nat", "guess-new")
    assert classes.find_class(store, info.join_code, "school-nat", "late-student") == info  # not refused
    assert waits == [ratelimit.OVER_LIMIT_DELAY_S] * 2


def test_resume_code_guessing_is_limited_per_tab_and_never_refuses_the_owner(store, waits):
    me, code = store.join("ana")
    for _ in range(ratelimit.SESSION_FAILURES - 1):
        assert classes.resume(store, codes.new_resume_code(), "guesser", "g-tab") is None
    with pytest.raises(ratelimit.TooManyAttempts):
        classes.resume(store, codes.new_resume_code(), "guesser", "g-tab")
    with pytest.raises(ratelimit.TooManyAttempts):
        classes.resume(store, code, "guesser", "g-tab")
    assert classes.resume(store, code, "guesser", "ana-phone") == me  # same address, her own tab


def test_failures_counted_from_many_threads_are_all_counted(store):
    n = 16
    barrier = threading.Barrier(n)

    def fail():
        barrier.wait()
        ratelimit.failed(store, "join", "same-address")

    threads = [threading.Thread(target=fail) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with store.engine.connect() as conn:
        assert conn.execute(schema.attempts.select()).mappings().one()["n"] == n


def test_a_remembered_teacher_session_reopens_its_class_until_locked_expired_or_deleted(store):
    info, _ = classes.create_class(store, "GPU 101")
    other, _ = classes.create_class(store, "GPU 102")
    token = classes.open_teacher_session(store, info.id, now=1000.0)
    assert classes.resume_teacher(store, token, now=1001.0) == info
    assert classes.resume_teacher(store, token[:-1] + ("0" if token[-1] != "0" else "1"), now=1001.0) is None
    assert classes.resume_teacher(store, token, now=1000.0 + classes.TEACHER_SESSION_S) is None  # expired
    with store.engine.connect() as conn:  # only the hash is kept
        stored = [r.token_hash for r in conn.execute(schema.teacher_sessions.select())]
    assert token not in stored and codes.resume_hash(token) in stored
    classes.close_teacher_session(store, token)
    assert classes.resume_teacher(store, token, now=1001.0) is None  # locked
    kept = classes.open_teacher_session(store, other.id)
    gone = classes.open_teacher_session(store, info.id)
    classes.delete_class(store, info.id)
    assert classes.resume_teacher(store, gone) is None and classes.resume_teacher(store, kept) == other
    assert classes.resume_teacher(store, "") is None and classes.resume_teacher(store, "x" * 500) is None


def test_class_names_are_validated(store):
    from rocm_bridge.errors import InvalidInput

    for bad in ("", "   ", "x" * (classes.NAME_MAX + 1)):
        with pytest.raises(InvalidInput):
            classes.create_class(store, bad)
    assert classes.create_class(store, "  GPU   <b>101</b> ")[0].name == "GPU <b>101</b>"  # shown escaped


def test_a_class_sees_the_same_papers(store):
    a, _ = classes.create_class(store, "A")
    b, _ = classes.create_class(store, "B")
    for ch in ("ch1", "ch3", "ch6"):
        first, again = papers.chapter_quiz(a.id, ch), papers.chapter_quiz(a.id, ch)
        assert [(q.id, q.answer) for q in first] == [(q.id, q.answer) for q in again]  # generated numbers too
    seed = papers.exam_seed(a.id, 10, None)
    assert [q.id for q in papers.exam(seed, 10, None)] == [q.id for q in papers.exam(seed, 10, None)]
    differs = [
        [q.id for q in papers.chapter_quiz(a.id, ch)] != [q.id for q in papers.chapter_quiz(b.id, ch)]
        for ch in ("ch1", "ch2", "ch3", "ch4", "ch5", "ch6", "ch7", "ch8")
    ]
    assert any(differs), "the seed depends on the class"
    assert papers.option_seed(a.id) == papers.option_seed(a.id) != papers.option_seed(b.id)


def test_delete_class_removes_its_learners_and_nothing_else(store):
    a, _ = classes.create_class(store, "A")
    b, _ = classes.create_class(store, "B")
    _, ana, code = classes.join_class(store, a.join_code, "ana", "x")
    _, bo, _ = classes.join_class(store, b.join_code, "bo", "x")
    for who in (ana, bo):
        store.record_answer(who.id, question_id="ch1.wavefront-size", chapter="ch1", set_name="bank",
                            mode="practice", given=64, correct=True)  # fmt: skip
        store.mark_read(who.id, "ch1")
    poll = polls.open_poll(store, a.id, "ch1.cudnn-counterpart")
    assert polls.answer(store, poll, ana.id, 1) == "ok"
    classes.delete_class(store, a.id)
    assert classes.get_class(store, a.id) is None and store.resume(code) is None
    assert store.count_answers() == 1 and store.count_answers(b.id) == 1
    with store.engine.connect() as conn:
        assert conn.execute(schema.polls.select()).fetchall() == []
        assert conn.execute(schema.poll_answers.select()).fetchall() == []


def test_live_poll_round_trip(store):
    info, _ = classes.create_class(store, "A")
    ana = store.learner_id("ana", info.id)
    bo = store.learner_id("bo", info.id)
    assert polls.current_poll(store, info.id) is None
    poll = polls.open_poll(store, info.id, "ch1.cudnn-counterpart")  # answer: MIOpen (index 1)
    seen = polls.current_poll(store, info.id)
    assert seen is not None and seen.id == poll.id and seen.question().id == "ch1.cudnn-counterpart"
    assert polls.answer(store, poll, ana, 1) == "ok"
    assert polls.answer(store, poll, ana, 0) == "again"  # one answer per learner
    assert polls.answer(store, poll, bo, 0) == "ok"
    counts, n, right = polls.distribution(store, poll.id)
    assert (dict(counts), n, right) == ({"1": 1, "0": 1}, 2, 1)
    assert polls.my_answer(store, poll.id, ana) == 1
    polls.reveal(store, poll)
    assert polls.current_poll(store, info.id).status == "revealed"  # the cache was dropped
    assert polls.answer(store, poll, store.learner_id("cy", info.id), 1) == "closed"  # revealed: no more answers
    polls.close(store, poll)
    assert polls.current_poll(store, info.id) is None
    (done,) = polls.history(store, info.id)
    assert (done["n_answers"], done["n_correct"]) == (2, 1)
    assert [a.correct for a in store.history(ana)] == [True]  # the poll answer is in the learner's history
    assert store.question_stats(info.id)[0].n_answers == 2


def test_a_generated_poll_question_has_the_same_numbers_for_everyone(store):
    info, _ = classes.create_class(store, "A")
    poll = polls.open_poll(store, info.id, "gen.speedup")
    q1, q2 = poll.question(), polls.current_poll(store, info.id, fresh=True).question()
    assert q1.prompt == q2.prompt and q1.answer == q2.answer
    lid = store.learner_id("ana", info.id)
    assert polls.answer(store, poll, lid, q1.answer) == "ok"
    assert polls.distribution(store, poll.id)[2] == 1
    assert store.history(lid)[0].question_id == "gen.speedup"


def test_opening_a_poll_closes_the_previous_one(store):
    info, _ = classes.create_class(store, "A")
    first = polls.open_poll(store, info.id, "ch1.cudnn-counterpart")
    second = polls.open_poll(store, info.id, "ch1.wavefront-size")
    assert polls.current_poll(store, info.id).id == second.id
    assert polls.answer(store, first, store.learner_id("ana", info.id), 1) == "closed"
    with pytest.raises(ValueError):
        polls.open_poll(store, info.id, "no.such-question")


def test_a_poll_closed_while_students_answer_loses_no_acknowledged_answer(store):
    info, _ = classes.create_class(store, "A")
    ids = [store.learner_id(f"s{i}", info.id) for i in range(24)]
    poll = polls.open_poll(store, info.id, "ch1.cudnn-counterpart")
    barrier = threading.Barrier(len(ids) + 1)
    results: dict[int, str] = {}
    errors: list[BaseException] = []

    def student(lid):
        try:
            barrier.wait()
            results[lid] = polls.answer(store, poll, lid, lid % 4)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=student, args=(lid,)) for lid in ids]
    for t in threads:
        t.start()
    barrier.wait()
    polls.close(store, poll)  # in the middle of the answers
    for t in threads:
        t.join()
    assert not errors
    assert set(results.values()) <= {"ok", "closed"}
    acknowledged = {lid for lid, r in results.items() if r == "ok"}
    counts, n, _ = polls.distribution(store, poll.id)
    assert n == len(acknowledged)
    with store.engine.connect() as conn:
        stored = {r.learner_id for r in conn.execute(schema.answers.select().where(schema.answers.c.mode == "poll"))}
    assert stored == acknowledged, "every acknowledged answer is in the learners' histories, nothing else"


def test_a_class_of_1000_with_10000_answers(store):
    """The scale of issue 15: 1,000 learners, 10,000 answers written by 8 concurrent writers, one teacher view."""
    info, _ = classes.create_class(store, "Big")
    ids = [store.learner_id(f"learner{i:04d}", info.id) for i in range(1000)]
    with pytest.raises(NicknameTaken):
        store.learner_id("LEARNER0001", info.id)
    n_writers, per_writer = 8, 1250
    errors: list[BaseException] = []

    def writer(w):
        try:
            for k in range(per_writer):
                lid = ids[(w * per_writer + k) % len(ids)]
                store.record_answer(lid, question_id=f"ch{1 + k % 8}.q{k % 40}", chapter=f"ch{1 + k % 8}",
                                    set_name="bank", mode="practice", given=k % 4, correct=k % 3 == 0,
                                    client_key=f"{w}:{k}")  # fmt: skip
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(n_writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[:3]
    assert store.count_answers(info.id) == n_writers * per_writer
    hist = store.class_histories(info.id)
    assert len(hist) == 1000 and sum(len(h) for _, h in hist.values()) == 10_000
    stats = store.question_stats(info.id)
    expected = {f"ch{1 + k % 8}.q{k % 40}" for k in range(per_writer)}
    assert sum(s.n_answers for s in stats) == 10_000 and {s.question_id for s in stats} == expected


def test_cli_creates_exports_and_deletes_a_class(db_url, monkeypatch, capsys):
    from rocm_bridge import cli

    monkeypatch.setenv("ROCM_BRIDGE_DB_URL", db_url)
    assert cli.main(["classroom", "migrate"]) == 0
    assert f"schema version {schema.SCHEMA_VERSION}" in capsys.readouterr().out
    assert cli.main(["classroom", "create", "GPU 101"]) == 0
    lines = dict(line.split(":", 1) for line in capsys.readouterr().out.splitlines())
    code, key = lines["join code"].strip(), lines["teacher key"].strip()
    store = Store(db_url)
    info = classes.find_class(store, code, "t")
    store.record_answer(store.learner_id("ana", info.id),
                        question_id="ch1.wavefront-size", chapter="ch1", set_name="bank", mode="practice",
                        given="=1+1", correct=False)  # fmt: skip
    monkeypatch.setenv("ROCM_BRIDGE_TEACHER_KEY", "wrong")
    assert cli.main(["classroom", "export", code]) == cli.EXIT_ERROR
    assert "do not match" in capsys.readouterr().err
    monkeypatch.setenv("ROCM_BRIDGE_TEACHER_KEY", key)
    assert cli.main(["classroom", "export", code]) == 0
    import csv
    import io

    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[1][0] == "ana" and rows[1][5] == '"=1+1"'  # stored as JSON text: no cell starts with "="
    assert cli.main(["classroom", "delete", code]) == 0
    assert classes.get_class(store, info.id) is None
    store.engine.dispose()
