"""Access to the sourced fact tables in data/ (plain csv: the core never needs pandas)."""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


def data_path(name: str) -> Path:
    path = DATA_DIR / name
    if not path.exists():
        raise FileNotFoundError(f"data file {name!r} not found in {DATA_DIR}")
    return path


@cache
def _read(name: str) -> tuple[dict[str, str], ...]:
    with data_path(name).open(newline="", encoding="utf-8") as fh:
        return tuple(csv.DictReader(fh))


def read_csv(name: str) -> list[dict[str, str]]:
    """Rows of data/<name> as dicts of strings (empty cell = not sourced, never zero). Cached; do not mutate."""
    return list(_read(name))
