"""Catalog look-up for the hipify engine and command line that reads only rocm_bridge/locales/hipify*.toml.

rocm_bridge.i18n.t loads every area's catalog (a few hundred entries of chapter prose); the command line
must start in well under a second, so it reads just its own file. Same keys, same text, same format rules.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

LOCALES = Path(__file__).resolve().parent.parent / "locales"
CATALOGS = ("hipify.toml", "hipify_project.toml")  # the engine's, and the project view / build files / minimum ROCm


@lru_cache(maxsize=4)
def _entries(name: str = CATALOGS[0]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}

    def walk(table: dict, prefix: str) -> None:
        for name, value in table.items():
            key = f"{prefix}.{name}" if prefix else name
            if isinstance(value, dict):
                if "en" in value and not any(isinstance(v, dict) for v in value.values()):
                    out[key] = value
                else:
                    walk(value, key)

    with (LOCALES / name).open("rb") as fh:
        walk(tomllib.load(fh), "")
    return out


def t(key: str, lang: str, /, **params: object) -> str:
    entry = _entries().get(key) or _entries(CATALOGS[1])[key]  # the second file is read only when needed
    text = entry.get(lang) or entry["en"]
    return text.format(**params) if params else text
