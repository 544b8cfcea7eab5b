"""Scoring, spaced repetition, exam papers, chapter quizzes and mastery."""

from __future__ import annotations

import random

import pytest

from rocm_bridge.quiz.bank import load_bank
from rocm_bridge.quiz.generate import GENERATORS
from rocm_bridge.quiz.model import CHAPTERS, question_from_dict
from rocm_bridge.quiz.paper import ExamState, build_exam, chapter_quiz, practice_deck
from rocm_bridge.quiz.progress import mastery_by_chapter
from rocm_bridge.quiz.review import INTERVALS_S, Answer, card_states, review_queue
from rocm_bridge.quiz.scoring import correct_answer_text, format_answer, is_correct, normalize_given, score_paper

BANK = load_bank()
T = {"en": "x", "zh": "题"}


def q(**over):
    raw = {
        "id": "ch1.t",
        "chapter": "ch1",
        "type": "single",
        "difficulty": 1,
        "prompt": T,
        "explanation": T,
        "source": "test source",
        "options": ["a", "b", "c"],
        "answer": 2,
    }
    raw.update(over)
    return question_from_dict(raw, set_name=over.pop("set_name", "bank"))


def test_single_and_code():
    s = q()
    assert is_correct(s, 2) and is_correct(s, "2")
    assert not is_correct(s, 1) and not is_correct(s, None) and not is_correct(s, 7) and not is_correct(s, True)


def test_multiple_needs_the_exact_set():
    m = q(type="multiple", answer=[0, 2])
    assert is_correct(m, [2, 0]) and is_correct(m, (0, 2, 2))
    assert not is_correct(m, [0]) and not is_correct(m, [0, 1, 2]) and not is_correct(m, []) and not is_correct(m, "02")


def test_true_false_only_accepts_bools():
    tf = q(type="true_false", options=None, answer=False)
    assert is_correct(tf, False) and not is_correct(tf, True) and not is_correct(tf, 0) and not is_correct(tf, "false")


def test_numeric_tolerance():
    n = q(type="numeric", options=None, answer=2560, tolerance=1)
    assert is_correct(n, 2560) and is_correct(n, 2559.2) and is_correct(n, "2560.5")
    assert not is_correct(n, 2562) and not is_correct(n, float("nan")) and not is_correct(n, "abc")
    exact = q(type="numeric", options=None, answer=0.3, tolerance=0)
    assert is_correct(exact, 0.1 + 0.2)


def test_open_self_assessment():
    iv = BANK.select(sets=["interview"])[0]
    assert is_correct(iv, "got") and not is_correct(iv, "partial") and normalize_given(iv, "maybe") is None


def test_format_answers_in_both_languages():
    tf = q(type="true_false", options=None, answer=True)
    assert format_answer(tf, True, "en") != format_answer(tf, True, "zh")
    assert format_answer(q(), None, "en") == "—"
    m = q(type="multiple", answer=[0, 2])
    assert correct_answer_text(m, "en") == "a; c"


def test_score_paper():
    qs = [q(id="ch1.a"), q(id="ch2.b", chapter="ch2"), q(id="ch2.c", chapter="ch2")]
    score = score_paper(qs, {"ch1.a": 2, "ch2.b": 0})
    assert (score.n_questions, score.n_answered, score.n_correct) == (3, 2, 1)
    assert score.per_chapter == {"ch1": (1, 1), "ch2": (0, 2)}
    assert score.wrong_ids == ("ch2.b", "ch2.c")
    assert score.percent == pytest.approx(100 / 3)


def test_leitner_boxes():
    hist = [Answer("a", True, 0), Answer("a", True, 10), Answer("a", False, 20), Answer("a", True, 30)]
    st = card_states(hist)["a"]
    assert (st.box, st.n_answers, st.n_wrong, st.last_correct) == (1, 4, 1, True)
    assert st.due_at == 30 + INTERVALS_S[1]
    many = [Answer("b", True, i) for i in range(20)]
    assert card_states(many)["b"].box == len(INTERVALS_S) - 1


def test_review_queue_puts_mistakes_first():
    hist = [
        Answer("right-old", True, 0),  # box 1, due at 600
        Answer("wrong-late", False, 500),
        Answer("wrong-early", False, 100),
        Answer("right-new", True, 900),  # due at 1500
        Answer("fixed", False, 50),
        Answer("fixed", True, 60),  # box 1, due at 660
    ]
    assert review_queue(hist, now=700) == ["wrong-early", "wrong-late", "right-old", "fixed"]
    assert review_queue(hist, now=700, include_not_due=True)[-1] == "right-new"
    assert review_queue([], now=0) == []


def test_exam_covers_chapters_without_repeats():
    rng = random.Random(5)
    exam = build_exam(BANK, 20, chapters=None, rng=rng)
    assert len(exam) == 20 and len({x.id for x in exam}) == 20
    assert all(x.graded for x in exam)
    assert len({x.chapter for x in exam}) >= 6
    assert 2 <= sum(x.set == "generated" for x in exam) <= 6
    only = build_exam(BANK, 5, chapters=["ch3"], rng=rng)
    assert {x.chapter for x in only} == {"ch3"}


def test_exam_larger_than_pool_is_filled_with_generated():
    exam = build_exam(BANK, 30, chapters=["ch4"], rng=random.Random(1))
    assert len(exam) == 30 and len({x.id for x in exam}) == 30


def test_exam_state_timer():
    st = ExamState(questions=[q(id="ch1.a")], started_at=100.0, duration_s=90)
    assert st.remaining_s(150) == 40 and not st.expired(150) and st.expired(190)
    st.answers["ch1.a"] = 2
    assert st.score().n_correct == 1


def test_chapter_quiz_is_short_stable_and_on_topic():
    for ch in CHAPTERS:
        a = chapter_quiz(BANK, ch, seed=7)
        assert 2 <= len(a) <= 3 and {x.chapter for x in a} == {ch}
        b = chapter_quiz(BANK, ch, seed=7)
        assert [x.id for x in a] == [x.id for x in b], "a rerun must show the same questions"


def test_practice_deck_filters():
    deck = practice_deck(BANK, sets=["misconceptions"], chapters=["ch2"], rng=random.Random(0), generated=False)
    assert deck and all(x.set == "misconceptions" and x.chapter == "ch2" for x in deck)
    with_gen = practice_deck(BANK, sets=["bank"], chapters=["ch4"], rng=random.Random(0), generated=True)
    assert any(x.set == "generated" for x in with_gen)


def test_mastery_counts_latest_answers():
    ch1 = [x.id for x in BANK.select(chapters=["ch1"], graded_only=True)]
    hist = [
        Answer(ch1[0], False, 1),
        Answer(ch1[0], True, 2),
        Answer(ch1[1], True, 3),
        Answer(ch1[2], False, 4),
        Answer("gen.fp64", True, 5),
        Answer("not-a-question", True, 6),
    ]
    m = {x.chapter: x for x in mastery_by_chapter(BANK, hist)}
    pool = len(ch1) + sum(g.chapter == "ch1" for g in GENERATORS.values())
    assert m["ch1"].pool == pool
    assert (m["ch1"].answered, m["ch1"].mastered, m["ch1"].n_answers, m["ch1"].n_correct) == (4, 3, 5, 3)
    assert m["ch1"].mastery == pytest.approx(3 / pool)
    assert m["ch2"].mastery == 0 and m["ch2"].accuracy == 0
