"""The question bank: every question valid, in both languages, with an answer among its options."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rocm_bridge.quiz.bank import CONTENT_DIR, load_bank
from rocm_bridge.quiz.model import CHAPTERS, QuizSchemaError, question_from_dict

CJK = re.compile(r"[\u4e00-\u9fff]")
IDS_LOCK = Path(__file__).parent / "quiz_ids.txt"


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def test_bank_size_and_spread(bank):
    graded = [q for q in bank.questions if q.set == "bank"]
    assert len(graded) >= 120
    for ch in CHAPTERS:
        assert sum(q.chapter == ch for q in graded) >= 10, ch
    assert len([q for q in bank.questions if q.set == "misconceptions"]) >= 10
    assert len([q for q in bank.questions if q.set == "interview"]) >= 8


def test_every_type_is_used(bank):
    assert {q.type for q in bank.questions} == {"single", "multiple", "true_false", "numeric", "code", "open"}


def test_ids_unique_and_chapters_valid(bank):
    ids = [q.id for q in bank.questions]
    assert len(ids) == len(set(ids))
    assert all(q.chapter in CHAPTERS for q in bank.questions)


def test_ids_are_stable():
    """Ids stored in learners' answers must never disappear: the lock file lists every shipped id."""
    locked = {line.strip() for line in IDS_LOCK.read_text(encoding="utf-8").splitlines() if line.strip()}
    current = {q.id for q in load_bank().questions}
    assert locked - current == set(), "a question id was removed or renamed; keep it (ids are stored in the DB)"


@pytest.mark.parametrize("q", load_bank().questions, ids=lambda q: q.id)
def test_question_is_complete(q):
    for field in ("prompt", "explanation"):
        text = getattr(q, field)
        assert text["en"].strip() and text["zh"].strip()
        assert text["en"] != text["zh"], f"{field} not translated"
        assert CJK.search(text["zh"]), f"{field}.zh has no Chinese"
        assert not CJK.search(text["en"]), f"{field}.en contains Chinese"
    assert len(q.source) >= 10
    assert q.difficulty in (1, 2, 3)
    if q.type in ("single", "code"):
        assert 0 <= q.answer < len(q.options)
    elif q.type == "multiple":
        assert q.answer and all(0 <= i < len(q.options) for i in q.answer)
        assert len(q.answer) < len(q.options), "a multiple-choice question where every option is right teaches nothing"
    elif q.type == "true_false":
        assert isinstance(q.answer, bool)
    elif q.type == "numeric":
        assert q.tolerance >= 0 and q.tolerance < max(abs(q.answer), 1)
    elif q.type == "open":
        assert CJK.search(q.model_answer["zh"]) and len(q.listen_for["en"]) == len(q.listen_for["zh"]) >= 2
    for opt in q.options:
        if opt["en"] != opt["zh"]:
            assert CJK.search(opt["zh"]) or not re.search(r"[a-z]{4} [a-z]{4}", opt["en"]), opt


def test_true_false_answers_are_not_all_the_same(bank):
    answers = [q.answer for q in bank.questions if q.type == "true_false" and q.set == "bank"]
    assert 0.25 < sum(answers) / len(answers) < 0.75


def test_misconception_links_resolve(bank):
    ids = bank.misconception_ids
    linked = {q.misconception for q in bank.questions if q.set == "bank" and q.misconception}
    assert linked and linked <= ids
    # every misconception is probed by at least one bank question as well as by its own item
    assert ids <= linked


def _valid(**over):
    raw = {
        "id": "ch1.example",
        "chapter": "ch1",
        "type": "single",
        "difficulty": 1,
        "prompt": {"en": "Q?", "zh": "问？"},
        "explanation": {"en": "Because.", "zh": "因为。"},
        "source": "data/gpu_specs.csv",
        "options": ["a", "b"],
        "answer": 1,
    }
    raw.update(over)
    return raw


def test_validator_accepts_a_good_question():
    q = question_from_dict(_valid(), set_name="bank")
    assert q.answer == 1 and q.option_labels("zh") == ["a", "b"]


@pytest.mark.parametrize(
    "over",
    [
        {"prompt": {"en": "Q?"}},  # no Chinese
        {"prompt": "Q?"},  # plain string
        {"explanation": {"en": "x", "zh": ""}},
        {"source": ""},
        {"chapter": "ch99"},
        {"difficulty": 4},
        {"answer": 2},  # not among the options
        {"answer": True},
        {"options": ["a", "a"]},
        {"options": ["a"]},
        {"type": "multiple", "answer": [0, 0]},
        {"type": "multiple", "answer": []},
        {"type": "true_false", "options": None, "answer": 1},
        {"type": "numeric", "options": None, "answer": float("nan")},
        {"type": "numeric", "options": None, "answer": 3, "tolerance": -1},
        {"type": "open", "options": None, "answer": None},  # open outside the interview set
        {"id": "Bad Id"},
        {"colour": "red"},
        {"type": "code", "options": [{"en": "first", "zh": "第一"}, {"en": "second", "zh": "第二"}]},
    ],
)
def test_validator_rejects(over):
    with pytest.raises(QuizSchemaError):
        question_from_dict(_valid(**over), set_name="bank")


def test_loader_rejects_duplicates_and_unknown_links(tmp_path):
    text = (CONTENT_DIR / "ch1.yaml").read_text(encoding="utf-8")
    (tmp_path / "a.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "b.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(QuizSchemaError, match="duplicate"):
        load_bank(tmp_path)
    (tmp_path / "b.yaml").unlink()
    with pytest.raises(QuizSchemaError, match="unknown misconception"):
        load_bank(tmp_path)  # ch1 links to misconceptions that are not in this directory


def test_loader_reports_bad_yaml(tmp_path):
    (tmp_path / "bad.yaml").write_text("questions: [\n", encoding="utf-8")
    with pytest.raises(QuizSchemaError, match="YAML"):
        load_bank(tmp_path)


def _strictly_longest_is_correct(q) -> bool:
    lengths = [len(o["en"]) for o in q.options]
    return lengths[q.answer] == max(lengths) and lengths.count(max(lengths)) == 1


def test_the_correct_option_is_not_given_away_by_its_length(bank):
    """A test-wise learner who always picks the longest option must score near chance (at most 35 %)."""
    choice = [q for q in bank.questions if q.type in ("single", "code")]
    longest = [q.id for q in choice if _strictly_longest_is_correct(q)]
    assert len(choice) >= 80
    assert len(longest) / len(choice) <= 0.35, f"{len(longest)} of {len(choice)}: {longest}"
    for ch in {q.chapter for q in choice}:  # and no chapter leans on it either
        per = [q for q in choice if q.chapter == ch]
        assert sum(_strictly_longest_is_correct(q) for q in per) / len(per) <= 0.5, ch


def test_the_length_check_catches_a_giveaway():
    q = question_from_dict(_valid(options=["no", "a much longer and obviously correct option"], answer=1), set_name="bank")
    assert _strictly_longest_is_correct(q)
    assert not _strictly_longest_is_correct(question_from_dict(_valid(options=["abc", "xyz"], answer=1), set_name="bank"))


def test_interview_set_covers_three_tracks_with_full_answers(bank):
    from rocm_bridge.quiz.model import TRACKS

    interview = [q for q in bank.questions if q.set == "interview"]
    assert len(interview) >= 40
    for track in TRACKS:
        assert sum(q.track == track for q in interview) >= 10, track
    for q in interview:
        assert q.track in TRACKS, q.id
        assert q.weak_answer and CJK.search(q.weak_answer["zh"]) and not CJK.search(q.weak_answer["en"]), q.id
        assert q.follow_ups and len(q.follow_ups["en"]) == len(q.follow_ups["zh"]) >= 1, q.id
        assert all(CJK.search(s) for s in q.follow_ups["zh"]), q.id
        assert len(q.model_answer["en"]) > 200, f"{q.id}: a model answer should be an answer, not a hint"


@pytest.mark.parametrize(
    "over",
    [
        {"track": "sales"},
        {"weak_answer": "plain string"},
        {"follow_ups": {"en": ["Why?"], "zh": []}},
        {"follow_ups": {"en": ["Why?", "How?"], "zh": ["为什么？"]}},
    ],
)
def test_interview_fields_are_validated(over):
    raw = _valid(type="open", options=None, answer=None, model_answer={"en": "Because.", "zh": "因为。"},
                 listen_for={"en": ["a", "b"], "zh": ["甲", "乙"]}, **over)
    with pytest.raises(QuizSchemaError):
        question_from_dict(raw, set_name="interview")


def test_interview_fields_stay_optional_and_only_for_open_questions():
    raw = _valid(type="open", options=None, answer=None, model_answer={"en": "Because.", "zh": "因为。"},
                 listen_for={"en": ["a", "b"], "zh": ["甲", "乙"]})
    assert question_from_dict(raw, set_name="interview").follow_ups is None  # older items load unchanged
    with pytest.raises(QuizSchemaError):
        question_from_dict(_valid(track="ml-infra"), set_name="bank")
