"""Classes: created by a teacher (join code + teacher key, the key kept only as a salted hash), joined by
learners with the code and a nickname, viewed only with the key, deleted with everything in them.

A teacher who opens a class with the key may keep it open on that device for TEACHER_SESSION_S: a random
token goes into the browser's cookie and only its hash into the database, so a reload in front of the class
does not ask for the key again; "Lock" (or the time running out, or deleting the class) ends it.

Everything a class shows is seeded by the class: the chapter quizzes and exams are the same for every student
(and for the teacher's preview), see `class_seed`.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from rocm_bridge.classroom import codes, ratelimit
from rocm_bridge.errors import InvalidInput, RocmBridgeError
from rocm_bridge.quiz.schema import answers, classes, exams, learners, poll_answers, polls, reads, teacher_sessions

NAME_MAX = 60
TEACHER_SESSION_S = 12 * 3600  # a school day; the cookie lives as long


class UnknownClass(RocmBridgeError, LookupError):
    key = "classroom.errors.unknown_class"


class WrongKey(RocmBridgeError, PermissionError):
    key = "classroom.errors.wrong_key"


@dataclass(frozen=True)
class ClassInfo:
    id: int
    join_code: str
    name: str
    created_at: float


def class_seed(class_id: int, *parts: object) -> int:
    """A stable number for this class and purpose ("chapter", "ch3", round): the same on every replica."""
    text = ":".join(str(p) for p in ("class", class_id, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") >> 2


def validate_name(raw: object) -> str:
    name = " ".join(str(raw or "").split())
    if not 1 <= len(name) <= NAME_MAX:
        raise InvalidInput("classroom.errors.name_length", max=NAME_MAX)
    return name


def create_class(store, name: str, who: str = "local") -> tuple[ClassInfo, str]:
    """A new class and its teacher key (returned once; only its salted scrypt hash is stored)."""
    name = validate_name(name)
    ratelimit.check(store, "create", who)
    ratelimit.failed(store, "create", who)  # creating counts: one address cannot fill the table
    key = codes.new_teacher_key()
    salt, digest = codes.hash_key(key)
    now = time.time()
    for _ in range(8):  # a clash of 6-character codes is rare; try another
        join_code = codes.new_join_code()
        try:
            with store.engine.begin() as conn:
                cid = conn.execute(
                    classes.insert().values(
                        join_code=join_code, name=name, key_salt=salt, key_hash=digest, created_at=now
                    )
                ).inserted_primary_key[0]
            return ClassInfo(int(cid), join_code, name, now), key
        except IntegrityError:
            continue
    raise RuntimeError("could not find a free join code")


def _row(r) -> ClassInfo:
    return ClassInfo(int(r.id), r.join_code, r.name, float(r.created_at))


def get_class(store, class_id: int) -> ClassInfo | None:
    with store.engine.connect() as conn:
        r = conn.execute(
            select(classes.c.id, classes.c.join_code, classes.c.name, classes.c.created_at).where(classes.c.id == class_id)
        ).first()
    return _row(r) if r else None


def find_class(store, join_code: str, who: str, session: str = "") -> ClassInfo:
    """The class with this join code. Wrong codes count against the tab (`session`) and the client address `who`
    (ratelimit: guessing slows down, a right code always passes)."""
    clean = codes.clean_code(join_code, codes.JOIN_LEN)
    if clean is None:
        raise UnknownClass()  # not even the shape of a code: no guess, not counted
    over = ratelimit.guard(store, session, ("join", who))
    with store.engine.connect() as conn:
        r = conn.execute(
            select(classes.c.id, classes.c.join_code, classes.c.name, classes.c.created_at).where(
                classes.c.join_code == clean
            )
        ).first()
    if r is None:
        ratelimit.wrong(store, session, ("join", who), over=over)
        raise UnknownClass()
    return _row(r)


def teacher_login(store, join_code: str, key: str, who: str, session: str = "") -> ClassInfo:
    """The class, if `key` is its teacher key. Wrong keys count against the tab, the client address and the class
    (ratelimit: guessing slows down; the right key always passes, so nobody's guesses lock the teacher out)."""
    clean = codes.clean_code(join_code, codes.JOIN_LEN) or "?"
    buckets = (("teacher", who), ("teacher_class", clean))
    over = ratelimit.guard(store, session, *buckets)
    with store.engine.connect() as conn:
        r = conn.execute(select(classes).where(classes.c.join_code == clean)).first()
    ok = r is not None and codes.check_key(str(key or "").strip(), r.key_salt, r.key_hash)
    if r is None:
        codes.hash_key(str(key)[:200])  # the same work as a real check: timing does not tell codes apart
    if not ok:
        ratelimit.wrong(store, session, *buckets, over=over)
        raise WrongKey()
    return _row(r)


def open_teacher_session(store, class_id: int, now: float | None = None) -> str:
    """A new token that reopens this class on one device until it expires (only its hash is stored)."""
    now = time.time() if now is None else now
    token = secrets.token_hex(24)  # [0-9a-f]: safe in a cookie as it is
    with store.engine.begin() as conn:
        conn.execute(delete(teacher_sessions).where(teacher_sessions.c.expires_at <= now))
        conn.execute(
            teacher_sessions.insert().values(
                token_hash=codes.resume_hash(token), class_id=class_id, expires_at=now + TEACHER_SESSION_S
            )
        )
    return token


def resume_teacher(store, token: str, now: float | None = None) -> ClassInfo | None:
    """The class a live token opens, None when it is unknown, expired, ended or its class is gone."""
    if not token or len(token) > 64:
        return None
    now = time.time() if now is None else now
    with store.engine.connect() as conn:
        r = conn.execute(
            select(classes.c.id, classes.c.join_code, classes.c.name, classes.c.created_at)
            .join(teacher_sessions, teacher_sessions.c.class_id == classes.c.id)
            .where(teacher_sessions.c.token_hash == codes.resume_hash(token), teacher_sessions.c.expires_at > now)
        ).first()
    return _row(r) if r else None


def close_teacher_session(store, token: str) -> None:
    with store.engine.begin() as conn:
        conn.execute(delete(teacher_sessions).where(teacher_sessions.c.token_hash == codes.resume_hash(token)))


def join_class(store, join_code: str, nickname: str, who: str, session: str = ""):
    """(class, learner, resume code) for a student joining with the board's code."""
    info = find_class(store, join_code, who, session)
    learner, code = store.join(nickname, info.id)
    return info, learner, code


def resume(store, code: str, who: str, session: str = ""):
    """The learner of a resume code (None if unknown); unknown codes count against the tab and `who`."""
    if codes.clean_code(code, codes.RESUME_LEN) is None:
        return store.resume(code)  # not the shape of a code: not a guess
    over = ratelimit.guard(store, session, ("resume", who))
    found = store.resume(code)
    if found is None:
        ratelimit.wrong(store, session, ("resume", who), over=over)
    return found


def delete_class(store, class_id: int) -> None:
    """The class and everything of its learners (answers, exams, chapters read, polls)."""
    with store.engine.begin() as conn:
        ids = select(learners.c.id).where(learners.c.class_id == class_id).scalar_subquery()
        poll_ids = select(polls.c.id).where(polls.c.class_id == class_id).scalar_subquery()
        conn.execute(delete(poll_answers).where(poll_answers.c.poll_id.in_(poll_ids)))
        conn.execute(delete(polls).where(polls.c.class_id == class_id))
        conn.execute(delete(teacher_sessions).where(teacher_sessions.c.class_id == class_id))
        for table in (answers, exams, reads):
            conn.execute(delete(table).where(table.c.learner_id.in_(ids)))
        conn.execute(delete(learners).where(learners.c.class_id == class_id))
        conn.execute(delete(classes).where(classes.c.id == class_id))
