"""Text helpers for showing quiz content and user input safely as Markdown."""

from __future__ import annotations

import random
import re
import unicodedata

from rocm_bridge.text import md_escape

_CODE_SPAN = re.compile(r"(`[^`\n]+`)")
def md_content(text: str) -> str:
    """Our own question text: `code spans` stay code, everything else is escaped (so __shared__ stays literal)."""
    parts = _CODE_SPAN.split(str(text))
    return "".join(p if i % 2 else md_escape(p) for i, p in enumerate(parts))


def parse_number(text: object) -> float | None:
    """A number typed by a learner ('2 560', '2560.5', '９３．７', '0,94', '93.7 %') or None if it is not one."""
    if text is None:
        return None
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text)
    s = unicodedata.normalize("NFKC", str(text)).strip().replace("\u3002", ".")
    s = s.rstrip("%×xX ").replace(" ", "").replace("_", "")
    if "," in s:
        s = s.replace(",", "") if "." in s or s.count(",") > 1 else s.replace(",", ".")
    try:
        value = float(s)
    except ValueError:
        return None
    return value if value == value and value not in (float("inf"), float("-inf")) else None


def option_order(qid: str, n: int, seed: int) -> list[int]:
    """A stable shuffled order of a question's options for one learner session (the stored answer is the index)."""
    order = list(range(n))
    random.Random(f"{seed}:{qid}").shuffle(order)
    return order
