"""What a class sees: the chapter quizzes and exams are seeded by the class, so every student gets the same
questions in the same option order, and the teacher's preview shows exactly that."""

from __future__ import annotations

import random

from rocm_bridge.classroom.classes import class_seed
from rocm_bridge.quiz import paper
from rocm_bridge.quiz.bank import bank
from rocm_bridge.quiz.model import Question


def chapter_quiz(class_id: int, chapter: str, round_: int = 0) -> list[Question]:
    return paper.chapter_quiz(bank(), chapter, seed=class_seed(class_id, "chapter", chapter, round_))


def exam_seed(class_id: int, n: int, chapter: str | None) -> str:
    return f"class:{class_id}:exam:{chapter or 'all'}:{n}"


def exam(seed: str, n: int, chapter: str | None) -> list[Question]:
    return paper.build_exam(bank(), n, chapters=[chapter] if chapter else None, rng=random.Random(seed))


def option_seed(class_id: int) -> int:
    return class_seed(class_id, "options")
