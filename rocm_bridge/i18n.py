"""The UI string catalog: rocm_bridge/locales/<area>.toml, every entry in English and Chinese.

    [hipify.title]
    en = "hipify: CUDA to HIP"
    zh = "hipify：CUDA 转 HIP"

Keys are the dotted table paths. Unknown keys raise KeyError, so a typo fails a test instead of showing
a raw key to a learner.
"""

from __future__ import annotations

import os
from functools import lru_cache

LANGS: tuple[str, ...] = ("en", "zh")
DEFAULT_LANG = "en"
LANG_NAMES = {"en": "English", "zh": "中文"}
LOCALES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locales")  # os.path: the CLI skips pathlib


def _flatten(table: dict, prefix: str, out: dict[str, dict[str, str]], origin: str) -> None:
    for name, value in table.items():
        key = f"{prefix}.{name}" if prefix else name
        if not isinstance(value, dict):
            raise ValueError(f"{origin}: {key} must be a table with en and zh")
        if any(lang in value for lang in LANGS) and not any(isinstance(v, dict) for v in value.values()):
            if key in out:
                raise ValueError(f"{origin}: duplicate key {key}")
            out[key] = {lang: value.get(lang, "") for lang in LANGS} | {
                k: v for k, v in value.items() if k not in LANGS
            }
        else:
            _flatten(value, key, out, origin)


@lru_cache(maxsize=1)
def catalog() -> dict[str, dict[str, str]]:
    """Every entry of every catalog file: {key: {"en": ..., "zh": ...}}."""
    import tomllib  # here, not at the top: the command line imports this module for cli_lang() only

    out: dict[str, dict[str, str]] = {}
    for name in sorted(n for n in os.listdir(LOCALES_DIR) if n.endswith(".toml")):
        with open(os.path.join(LOCALES_DIR, name), "rb") as fh:
            _flatten(tomllib.load(fh), "", out, name)
    return out


def normalize_lang(value: str | None) -> str | None:
    """'zh', 'zh-CN', 'zh_TW' -> 'zh'; 'en-US' -> 'en'; anything else -> None."""
    if not value:
        return None
    base = str(value).strip().lower().replace("_", "-").split("-")[0]
    return base if base in LANGS else None


class Count(int):
    """An integer parameter. In a catalog text, {n:file|files} writes "1 file" or "3 files" (English needs the
    plural, Chinese writes just {n}); any other format spec is int's own."""

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            one, many = spec.split("|", 1)
            return f"{int(self)} {one if self == 1 else many}"
        return int.__format__(self, spec)


def fill(text: str, params: dict[str, object]) -> str:
    """text.format(**params), with int parameters as Count (so {n:item|items} works)."""
    if not params:
        return text
    return text.format(**{k: Count(v) if type(v) is int else v for k, v in params.items()})


def t(key: str, lang: str, /, **params: object) -> str:
    """The catalog text for key in lang, with {params} filled in."""
    entry = catalog()[key]
    text = entry.get(lang) or entry[DEFAULT_LANG]
    return fill(text, params)


def has(key: str) -> bool:
    return key in catalog()


def cli_lang() -> str:
    """Language for command-line messages: ROCM_BRIDGE_LANG, else LANG/LC_ALL, else English."""
    for var in ("ROCM_BRIDGE_LANG", "LC_ALL", "LANG"):
        lang = normalize_lang(os.environ.get(var))
        if lang:
            return lang
    return DEFAULT_LANG
