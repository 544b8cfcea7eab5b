"""The question model and its schema: one validated, immutable record per question.

Bank questions come from content/quiz/*.yaml; generated questions (rocm_bridge.quiz.generate) produce the same
record with fresh values. Text fields are {"en": ..., "zh": ...}; both languages are required.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from rocm_bridge.errors import RocmBridgeError
from rocm_bridge.i18n import LANGS

CHAPTERS: tuple[str, ...] = tuple(f"ch{n}" for n in range(1, 13))
SETS: tuple[str, ...] = ("bank", "misconceptions", "interview", "generated")
GRADED_TYPES: tuple[str, ...] = ("single", "multiple", "true_false", "numeric", "code")
TYPES: tuple[str, ...] = (*GRADED_TYPES, "open")
DIFFICULTIES: tuple[int, ...] = (1, 2, 3)
# interview tracks: ML infrastructure / AMD port, ROCm GPU software engineer, environment / support
TRACKS: tuple[str, ...] = ("ml-infra", "gpu-software", "env-support")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{2,79}$")

Text = dict[str, str]


class QuizSchemaError(RocmBridgeError, ValueError):
    """A question in the bank breaks the schema (a content bug: tests catch it before a learner does)."""

    key = "quiz.errors.schema"


def _fail(qid: object, problem: str) -> QuizSchemaError:
    return QuizSchemaError(qid=str(qid), problem=problem)


def _text(raw: Any, qid: str, name: str, *, required: bool = True) -> Text | None:
    if raw is None and not required:
        return None
    if isinstance(raw, str):
        raise _fail(qid, f"{name} must have both en and zh (got a plain string)")
    if not isinstance(raw, dict):
        raise _fail(qid, f"{name} must be a mapping with en and zh")
    out = {}
    for lang in LANGS:
        value = raw.get(lang)
        if not isinstance(value, str) or not value.strip():
            raise _fail(qid, f"{name}.{lang} is missing or empty")
        out[lang] = value.strip()
    extra = set(raw) - set(LANGS)
    if extra:
        raise _fail(qid, f"{name} has unknown languages {sorted(extra)}")
    return out


def _option(raw: Any, qid: str, i: int) -> Text:
    """An option is language-neutral text (a code line, an API name) or {en, zh}."""
    if isinstance(raw, (str, int, float)) and not isinstance(raw, bool):
        value = str(raw).strip("\n")
        if not value.strip():
            raise _fail(qid, f"option {i} is empty")
        return {lang: value for lang in LANGS}
    return _text(raw, qid, f"options[{i}]")  # type: ignore[return-value]


@dataclass(frozen=True)
class Question:
    id: str
    set: str
    chapter: str
    type: str
    difficulty: int
    prompt: Text
    explanation: Text
    source: str
    options: tuple[Text, ...] = ()
    answer: Any = None  # int (single, code) | tuple[int, ...] (multiple) | bool | float (numeric) | None (open)
    tolerance: float = 0.0  # numeric: accepted absolute difference
    unit: str = ""  # numeric: language-neutral unit shown after the input
    code: str = ""  # a snippet shown with the prompt
    page: str = ""  # page key that teaches it (defaults to the chapter)
    misconception: str = ""  # id of the misconception a wrong answer reveals
    model_answer: Text | None = None  # open questions
    listen_for: dict[str, tuple[str, ...]] | None = None  # open questions: what an interviewer listens for
    track: str = ""  # open questions: one of TRACKS (optional, older items have none)
    weak_answer: Text | None = None  # open questions: a common weak answer and why it falls short
    follow_ups: dict[str, tuple[str, ...]] | None = None  # open questions: follow-up questions
    template: str = ""  # generated questions: the generator id (what the database stores)
    params: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def graded(self) -> bool:
        return self.type in GRADED_TYPES

    @property
    def record_id(self) -> str:
        """The id stored with an answer: generated questions are tracked per generator."""
        return self.template or self.id

    @property
    def page_key(self) -> str:
        return self.page or self.chapter

    def t(self, name: str, lang: str) -> str:
        value = getattr(self, name)
        return value.get(lang) or value["en"] if value else ""

    def option_labels(self, lang: str) -> list[str]:
        return [o.get(lang) or o["en"] for o in self.options]


def question_from_dict(raw: dict, *, set_name: str, origin: str = "") -> Question:
    """Validate one raw question (from YAML or a generator) and build the record."""
    if not isinstance(raw, dict):
        raise _fail(origin or "?", "a question must be a mapping")
    qid = raw.get("id")
    if not isinstance(qid, str) or not ID_RE.match(qid):
        raise _fail(qid, "id must match [a-z0-9][a-z0-9._-]{2,79}")
    known = {
        "id",
        "chapter",
        "type",
        "difficulty",
        "prompt",
        "explanation",
        "source",
        "options",
        "answer",
        "tolerance",
        "unit",
        "code",
        "page",
        "misconception",
        "model_answer",
        "listen_for",
        "track",
        "weak_answer",
        "follow_ups",
        "template",
        "params",
    }
    unknown = set(raw) - known
    if unknown:
        raise _fail(qid, f"unknown fields {sorted(unknown)}")
    if set_name not in SETS:
        raise _fail(qid, f"set must be one of {SETS}")
    chapter = raw.get("chapter")
    if chapter not in CHAPTERS:
        raise _fail(qid, f"chapter must be one of {CHAPTERS}")
    qtype = raw.get("type")
    if qtype not in TYPES:
        raise _fail(qid, f"type must be one of {TYPES}")
    if (qtype == "open") != (set_name == "interview"):
        raise _fail(qid, "open questions belong to the interview set, and only there")
    difficulty = raw.get("difficulty")
    if difficulty not in DIFFICULTIES or isinstance(difficulty, bool):
        raise _fail(qid, "difficulty must be 1, 2 or 3")
    source = raw.get("source")
    if not isinstance(source, str) or len(source.strip()) < 5:
        raise _fail(qid, "source is missing")
    kwargs: dict[str, Any] = {
        "id": qid,
        "set": set_name,
        "chapter": chapter,
        "type": qtype,
        "difficulty": difficulty,
        "prompt": _text(raw.get("prompt"), qid, "prompt"),
        # an open question's model answer is its explanation
        "explanation": _text(
            raw.get("explanation") if qtype != "open" or "explanation" in raw else raw.get("model_answer"),
            qid,
            "explanation",
        ),
        "source": source.strip(),
        "code": str(raw.get("code") or "").strip("\n"),
        "page": str(raw.get("page") or ""),
        "misconception": str(raw.get("misconception") or ""),
        "template": str(raw.get("template") or ""),
        "params": dict(raw.get("params") or {}),
    }
    options_raw = raw.get("options")
    answer = raw.get("answer")
    if qtype in ("single", "multiple", "code"):
        if not isinstance(options_raw, list) or not 2 <= len(options_raw) <= 8:
            raise _fail(qid, "needs 2 to 8 options")
        options = tuple(_option(o, qid, i) for i, o in enumerate(options_raw))
        if len({o["en"] for o in options}) != len(options) or len({o["zh"] for o in options}) != len(options):
            raise _fail(qid, "options must be distinct")
        kwargs["options"] = options
        if qtype == "multiple":
            if not isinstance(answer, list) or not answer:
                raise _fail(qid, "a multiple-choice answer is a non-empty list of option indices")
            if any(not isinstance(a, int) or isinstance(a, bool) or not 0 <= a < len(options) for a in answer):
                raise _fail(qid, "answer index out of range")
            if len(set(answer)) != len(answer):
                raise _fail(qid, "answer lists an option twice")
            kwargs["answer"] = tuple(sorted(answer))
        else:
            if not isinstance(answer, int) or isinstance(answer, bool) or not 0 <= answer < len(options):
                raise _fail(qid, "answer must be the index of one option")
            kwargs["answer"] = answer
        if qtype == "code" and not (kwargs["code"] or all(o["en"] == o["zh"] for o in options)):
            raise _fail(qid, "a code question shows code (a snippet, or code lines as its options)")
    elif options_raw is not None:
        raise _fail(qid, f"{qtype} questions have no options")
    if qtype == "true_false":
        if not isinstance(answer, bool):
            raise _fail(qid, "a true/false answer is true or false")
        kwargs["answer"] = answer
    elif qtype == "numeric":
        if isinstance(answer, bool) or not isinstance(answer, (int, float)) or not math.isfinite(answer):
            raise _fail(qid, "a numeric answer is a finite number")
        tolerance = raw.get("tolerance", 0)
        if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not tolerance >= 0:
            raise _fail(qid, "tolerance must be a non-negative number")
        kwargs["answer"] = float(answer)
        kwargs["tolerance"] = float(tolerance)
        kwargs["unit"] = str(raw.get("unit") or "")
    elif qtype == "open":
        if answer is not None:
            raise _fail(qid, "open questions have a model_answer, not an answer")
        kwargs["model_answer"] = _text(raw.get("model_answer"), qid, "model_answer")
        listen = raw.get("listen_for")
        if not isinstance(listen, dict):
            raise _fail(qid, "listen_for must map en and zh to lists")
        points = {}
        for lang in LANGS:
            items = listen.get(lang)
            if (
                not isinstance(items, list)
                or len(items) < 2
                or not all(isinstance(s, str) and s.strip() for s in items)
            ):
                raise _fail(qid, f"listen_for.{lang} must list at least two points")
            points[lang] = tuple(s.strip() for s in items)
        if len(points["en"]) != len(points["zh"]):
            raise _fail(qid, "listen_for has a different number of points in en and zh")
        kwargs["listen_for"] = points
        track = raw.get("track")
        if track is not None:
            if track not in TRACKS:
                raise _fail(qid, f"track must be one of {TRACKS}")
            kwargs["track"] = track
        kwargs["weak_answer"] = _text(raw.get("weak_answer"), qid, "weak_answer", required=False)
        follow = raw.get("follow_ups")
        if follow is not None:
            if not isinstance(follow, dict):
                raise _fail(qid, "follow_ups must map en and zh to lists")
            ups = {}
            for lang in LANGS:
                items = follow.get(lang)
                if not isinstance(items, list) or not items or not all(isinstance(s, str) and s.strip() for s in items):
                    raise _fail(qid, f"follow_ups.{lang} must list at least one question")
                ups[lang] = tuple(s.strip() for s in items)
            if len(ups["en"]) != len(ups["zh"]):
                raise _fail(qid, "follow_ups has a different number of questions in en and zh")
            kwargs["follow_ups"] = ups
    interview_only = ("model_answer", "listen_for", "track", "weak_answer", "follow_ups")
    if qtype != "open" and any(raw.get(name) is not None for name in interview_only):
        raise _fail(qid, "model_answer/listen_for/track/weak_answer/follow_ups belong to open questions")
    if set_name == "misconceptions" and not kwargs["misconception"]:
        kwargs["misconception"] = qid
    return Question(**kwargs)
