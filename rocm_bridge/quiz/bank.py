"""The question bank: content/quiz/*.yaml, validated once and cached.

Each file is a mapping with `set` (bank | misconceptions | interview) and `questions` (a list). Ids are
stable: answers in the database refer to them, so an id is never reused for a different question.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rocm_bridge.quiz.model import CHAPTERS, Question, QuizSchemaError, question_from_dict

CONTENT_DIR = Path(__file__).resolve().parent.parent.parent / "content" / "quiz"


@dataclass(frozen=True)
class Bank:
    questions: tuple[Question, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {q.id: q for q in self.questions})

    def get(self, qid: str) -> Question | None:
        return self._by_id.get(qid)  # type: ignore[attr-defined]

    def __len__(self) -> int:
        return len(self.questions)

    def select(
        self,
        *,
        sets: Iterable[str] | None = None,
        chapters: Iterable[str] | None = None,
        graded_only: bool = False,
    ) -> list[Question]:
        sets = set(sets) if sets is not None else None
        chapters = set(chapters) if chapters is not None else None
        return [
            q
            for q in self.questions
            if (sets is None or q.set in sets)
            and (chapters is None or q.chapter in chapters)
            and (not graded_only or q.graded)
        ]

    @property
    def misconception_ids(self) -> set[str]:
        return {q.id for q in self.questions if q.set == "misconceptions"}


def _load_file(path: Path) -> list[Question]:
    import yaml  # only when the bank is first read

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml is ~7x faster; same safe subset
    try:
        doc = yaml.load(path.read_text(encoding="utf-8"), Loader=loader)  # noqa: S506 - a safe loader
    except yaml.YAMLError as exc:
        raise QuizSchemaError(qid=path.name, problem=f"invalid YAML: {exc}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("questions"), list):
        raise QuizSchemaError(qid=path.name, problem="a bank file maps 'set' and 'questions'")
    set_name = doc.get("set", "bank")
    return [question_from_dict(raw, set_name=set_name, origin=path.name) for raw in doc["questions"]]


def load_bank(directory: Path | str | None = None) -> Bank:
    """Every question of every file, validated across files (unique ids, known misconceptions and pages)."""
    from rocm_bridge.pages import PAGES

    directory = Path(directory) if directory is not None else CONTENT_DIR
    questions: list[Question] = []
    for path in sorted(directory.glob("*.yaml")):
        questions.extend(_load_file(path))
    seen: set[str] = set()
    for q in questions:
        if q.id in seen:
            raise QuizSchemaError(qid=q.id, problem="duplicate id")
        seen.add(q.id)
    misconceptions = {q.id for q in questions if q.set == "misconceptions"}
    page_keys = {p.key for p in PAGES}
    for q in questions:
        if q.misconception and q.misconception not in misconceptions:
            raise QuizSchemaError(qid=q.id, problem=f"unknown misconception {q.misconception!r}")
        if q.page and q.page not in page_keys:
            raise QuizSchemaError(qid=q.id, problem=f"unknown page {q.page!r}")
    return Bank(tuple(questions))


@lru_cache(maxsize=1)
def bank() -> Bank:
    """The shipped bank (cached for the process)."""
    return load_bank()


def chapter_counts(b: Bank) -> dict[str, int]:
    return {ch: sum(1 for q in b.questions if q.chapter == ch and q.graded) for ch in CHAPTERS}
