"""Learners: the nickname rules, and the Store's queries about one learner (join, resume, chapters read,
download and delete their own data).

A learner is a nickname plus a private resume code (shown once): the nickname is a name tag inside a class (unique
by its look-alike-proof keys, nickname_key and nickname_look), the resume code is what gives back a history. No
personal data: validate_nickname refuses invisible characters, e-mail addresses and phone-like numbers.
LearnerQueries is one of the mixins rocm_bridge.quiz.store.Store is made of; it uses the Store's engine and, for
export_learner, AnswerQueries.exams_of.
"""

from __future__ import annotations

import json
import re
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from rocm_bridge.classroom import codes
from rocm_bridge.errors import InvalidInput
from rocm_bridge.quiz.schema import KEY_MAX, NICK_MAX, answers, exams, learners, reads

NICK_MIN = 2
_NICK_RE = re.compile(r"^[^\W_][\w .\-]*$")


class NicknameError(InvalidInput):
    key = "quiz.errors.nickname_chars"


class NicknameTaken(InvalidInput):
    key = "classroom.errors.nickname_taken"


def validate_nickname(raw: str) -> str:
    """The nickname as stored (NFKC, trimmed, inner spaces collapsed) or NicknameError with the reason.

    The length is checked on what the columns hold: the nickname (NICK_MAX characters) and its key."""
    nick = " ".join(unicodedata.normalize("NFKC", str(raw or "")).split())
    if not NICK_MIN <= len(nick) <= NICK_MAX or max(len(nickname_key(nick)), len(nickname_look(nick))) > KEY_MAX:
        raise NicknameError("quiz.errors.nickname_length", min=NICK_MIN, max=NICK_MAX)
    if any(codes.invisible(c) for c in nick):  # a Hangul filler after "Alice" would look like "Alice"
        raise NicknameError("quiz.errors.nickname_invisible")
    if not _NICK_RE.match(nick):
        raise NicknameError("quiz.errors.nickname_chars")
    if "@" in nick or re.search(r"\d{7,}", nick.replace(" ", "").replace("-", "")):
        raise NicknameError("quiz.errors.nickname_personal")
    return nick


def nickname_key(nick: str) -> str:
    """The uniqueness key: 'Ana', 'ANA' and 'Аna' (Cyrillic А) are one name in a class."""
    return codes.skeleton(nick)


def nickname_look(nick: str) -> str:
    """The second uniqueness key, case kept: 'AIice' (capital I) and 'Alice' are one name in a class."""
    return codes.skeleton(nick, fold=False)


@dataclass(frozen=True)
class Learner:
    id: int
    nickname: str
    class_id: int  # 0: not in a class


class LearnerQueries:
    """join / resume / learner / delete / export one learner, and the chapters they marked read."""

    engine: Engine

    def join(self, nickname: str, class_id: int = 0) -> tuple[Learner, str]:
        """A new learner and their resume code (returned once, stored only as a hash).

        NicknameTaken when the name (or a look-alike of it) is already used in this class: typing someone
        else's nickname never gives their history."""
        nick = validate_nickname(nickname)
        code = codes.new_resume_code()
        try:
            with self.engine.begin() as conn:
                lid = conn.execute(
                    learners.insert().values(
                        class_id=class_id,
                        nickname=nick,
                        nickname_key=nickname_key(nick),
                        nickname_look=nickname_look(nick),
                        resume_hash=codes.resume_hash(codes.clean_code(code, codes.RESUME_LEN) or code),
                        created_at=time.time(),
                    )
                ).inserted_primary_key[0]
        except IntegrityError:
            raise NicknameTaken(nick=nick) from None
        return Learner(int(lid), nick, class_id), code

    def learner_id(self, nickname: str, class_id: int = 0) -> int:
        """The id of a NEW learner with this nickname (scripts and benches; the resume code is dropped).
        NicknameTaken if the name is in use: a nickname never leads to someone else's history."""
        return self.join(nickname, class_id)[0].id

    def resume(self, code: str) -> Learner | None:
        """The learner this resume code belongs to, or None (wrong, deleted, or not a code at all)."""
        clean = codes.clean_code(code, codes.RESUME_LEN)
        if clean is None:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(learners.c.id, learners.c.nickname, learners.c.class_id).where(
                    learners.c.resume_hash == codes.resume_hash(clean)
                )
            ).first()
        return Learner(int(row.id), row.nickname, int(row.class_id)) if row else None

    def learner(self, learner_id: int) -> Learner | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(learners.c.id, learners.c.nickname, learners.c.class_id).where(learners.c.id == learner_id)
            ).first()
        return Learner(int(row.id), row.nickname, int(row.class_id)) if row else None

    def nickname(self, learner_id: int) -> str | None:
        found = self.learner(learner_id)
        return found.nickname if found else None

    def delete_learner(self, learner_id: int) -> None:
        """Everything stored about a learner: answers, exams, chapters read, poll answers, the name."""
        from rocm_bridge.quiz.schema import poll_answers

        with self.engine.begin() as conn:
            for table in (answers, exams, reads, poll_answers):
                conn.execute(delete(table).where(table.c.learner_id == learner_id))
            conn.execute(delete(learners).where(learners.c.id == learner_id))

    def export_learner(self, learner_id: int) -> dict[str, Any]:
        """A learner's own data as one JSON-able document (what 'download my data' gives)."""
        me = self.learner(learner_id)
        if me is None:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(answers).where(answers.c.learner_id == learner_id).order_by(answers.c.answered_at)
            ).mappings()
            my_answers = [
                {k: (json.loads(v) if k == "given" else v) for k, v in r.items() if k not in ("id", "learner_id")}
                for r in rows
            ]
        return {
            "nickname": me.nickname,
            "class_id": me.class_id,
            "chapters_read": sorted(self.chapters_read(learner_id)),
            "answers": my_answers,
            "exams": [{k: v for k, v in e.items() if k != "learner_id"} for e in self.exams_of(learner_id)],
        }

    # --- chapters read ----------------------------------------------------------------------------------

    def mark_read(self, learner_id: int, chapter: str) -> None:
        try:
            with self.engine.begin() as conn:
                conn.execute(reads.insert().values(learner_id=learner_id, chapter=chapter, read_at=time.time()))
        except IntegrityError:  # already read: the first time counts
            pass

    def chapters_read(self, learner_id: int) -> set[str]:
        with self.engine.connect() as conn:
            return set(conn.execute(select(reads.c.chapter).where(reads.c.learner_id == learner_id)).scalars())
