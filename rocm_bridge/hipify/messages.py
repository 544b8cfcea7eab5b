"""Catalog look-up for the hipify engine and command line that reads only rocm_bridge/locales/hipify*.toml.

rocm_bridge.i18n.t loads every area's catalog (a few hundred entries of chapter prose); the command line
must start in well under a second, so it reads just its own file. Same keys, same text, same format rules.
"""

from __future__ import annotations

import marshal
import os
from functools import lru_cache

# os.path, not pathlib, in the command line's modules: pathlib costs ~10 ms of a one-line run's start
LOCALES = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "locales")
FORMAT = 1  # bump when the cached layout changes


@lru_cache(maxsize=1)
def _entries() -> dict[str, dict[str, str]]:
    """The entries, from a marshal copy in the cache directory when it matches the files (parsing the TOML is a
    tenth of a one-file run; loading the copy takes well under a millisecond)."""
    paths = sorted(os.path.join(LOCALES, n) for n in os.listdir(LOCALES)
                   if n.startswith("hipify") and n.endswith(".toml"))
    key = [FORMAT] + [(str(p), *_stamp(p)) for p in paths]
    cache = _cache_file()
    try:
        with open(cache, "rb") as fh:
            stored_key, out = marshal.loads(fh.read())  # load(fh) would call readinto once per object
        if stored_key == key:
            return out
    except (OSError, EOFError, ValueError, TypeError):
        pass
    out = _parse(paths)
    try:
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        tmp = f"{cache}.{os.getpid()}.tmp"
        with open(tmp, "wb") as fh:
            marshal.dump((key, out), fh)
        os.replace(tmp, cache)
    except OSError:
        pass  # read-only cache directory: parse every time
    return out


def _stamp(path: str) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_size, st.st_mtime_ns


def _cache_file() -> str:
    """One file per checkout (named by a hash of the locales path): two checkouts, or the app and a copy of the
    tool, sharing one cache file would each find the other's key and parse the TOML on every start."""
    from rocm_bridge.hipify.index import cache_dir

    return os.path.join(cache_dir(), f"hipify_messages_v{FORMAT}_{_fnv1a(str(LOCALES)):08x}.marshal")


def _fnv1a(text: str) -> int:
    """32-bit FNV-1a (str hashes change from run to run; hashlib costs an import)."""
    h = 0x811C9DC5
    for b in text.encode("utf-8", "surrogateescape"):
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def _parse(paths: list[str]) -> dict[str, dict[str, str]]:
    import tomllib

    out: dict[str, dict[str, str]] = {}

    def walk(table: dict, prefix: str) -> None:
        for name, value in table.items():
            key = f"{prefix}.{name}" if prefix else name
            if isinstance(value, dict):
                if "en" in value and not any(isinstance(v, dict) for v in value.values()):
                    out[key] = value
                else:
                    walk(value, key)

    for path in paths:
        with open(path, "rb") as fh:
            walk(tomllib.load(fh), "")
    return out


def t(key: str, lang: str, /, **params: object) -> str:
    from rocm_bridge.i18n import fill

    entry = _entries()[key]
    text = entry.get(lang) or entry["en"]
    return fill(text, params)
