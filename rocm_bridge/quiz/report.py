"""Teacher-view tables built from the store's aggregates (plain rows: the page and the CSV export share them)."""

from __future__ import annotations

import csv
import io
import json

from rocm_bridge.i18n import t
from rocm_bridge.quiz.bank import Bank
from rocm_bridge.quiz.class_queries import QuestionStats
from rocm_bridge.quiz.generate import GENERATORS, generate
from rocm_bridge.quiz.model import Question
from rocm_bridge.quiz.scoring import format_answer
from rocm_bridge.text import csv_safe


def _question(bank: Bank, qid: str) -> Question | None:
    q = bank.get(qid)
    if q is None and qid in GENERATORS:
        import random

        q = generate(qid, random.Random(0))  # a representative instance, for its type and options' shape
    return q


def question_label(bank: Bank, qid: str, lang: str, width: int = 90) -> str:
    """A short, human label for a stored question id (generated kinds are named by their template)."""
    if qid in GENERATORS:
        return f"{t('quiz.sets.generated', lang)}: {qid}"
    q = bank.get(qid)
    if q is None:
        return qid  # an answer to a question that no longer ships: keep the id visible
    text = q.t("prompt", lang)
    return text if len(text) <= width else text[: width - 1] + "…"


def common_wrong_text(bank: Bank, s: QuestionStats, lang: str) -> str:
    if not s.common_wrong:
        return ""
    given_json, count = s.common_wrong[0]
    q = _question(bank, s.question_id)
    try:
        given = json.loads(given_json)
    except ValueError:
        given = None
    if q is None or q.set == "generated" and q.type in ("single", "multiple", "code"):
        text = str(given)  # a generated question's options change every time: the index alone is meaningless
    else:
        text = format_answer(q, given, lang)
    return f"{text} (×{count})"


def question_rows(bank: Bank, stats: list[QuestionStats], lang: str) -> list[dict[str, object]]:
    return [
        {
            "question_id": s.question_id,
            "question": question_label(bank, s.question_id, lang),
            "chapter": s.chapter,
            "set": s.set_name,
            "answers": s.n_answers,
            "learners": s.n_learners,
            "wrong_rate_percent": round(100 * s.wrong_rate, 1),
            "most_common_wrong": common_wrong_text(bank, s, lang),
            "misconception": s.misconception,
        }
        for s in stats
    ]


def misconception_rows(bank: Bank, counts: list[tuple[str, int, int]], lang: str) -> list[dict[str, object]]:
    rows = []
    for mid, n_wrong, n_learners in counts:
        q = bank.get(mid)
        rows.append(
            {
                "misconception": q.t("prompt", lang) if q else mid,
                "misconception_id": mid,
                "wrong_answers": n_wrong,
                "learners": n_learners,
            }
        )
    return rows


def rows_to_csv(rows: list[dict[str, object]]) -> str:
    buf = io.StringIO()
    if rows:
        writer = csv.DictWriter(buf, fieldnames=list(rows[0]))
        writer.writeheader()
        for row in rows:
            writer.writerow({k: csv_safe(v) if isinstance(v, str) else v for k, v in row.items()})
    return buf.getvalue()
