"""Secrets and names: join codes, teacher keys, resume codes, and the look-alike-proof nickname key.

- A join code is short, for a blackboard: 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L),
  31^6 = 887 million codes. Guessing is stopped by the rate limit (rocm_bridge.classroom.ratelimit), not length.
- A teacher key is long (24 random bytes, 32 URL-safe characters) and kept only as a salted scrypt hash.
- A resume code is 16 characters of the same alphabet (31^16, about 79 bits): random enough that it is looked
  up by its plain SHA-256 (a salt protects low-entropy secrets such as passwords; these are not).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import secrets
import unicodedata
from importlib import resources

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0 O 1 I L
JOIN_LEN = 6
RESUME_LEN = 16
SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}  # ~16 MiB, ~40 ms: fine for a login, slow for a guesser


def _random(n: int) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(n))


def new_join_code() -> str:
    return _random(JOIN_LEN)


def new_resume_code() -> str:
    """Shown as four groups of four (ABCD-EFGH-JKMN-PQRS); any case, spaces or dashes are accepted back."""
    raw = _random(RESUME_LEN)
    return "-".join(raw[i : i + 4] for i in range(0, RESUME_LEN, 4))


def new_teacher_key() -> str:
    return secrets.token_urlsafe(24)


def clean_code(raw: object, length: int) -> str | None:
    """A typed code in canonical form (upper case, no separators), or None when it cannot be one."""
    text = "".join(ch for ch in str(raw or "").upper() if ch not in " -_\t")
    if len(text) != length or any(ch not in ALPHABET for ch in text):
        return None
    return text


def resume_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def hash_key(key: str, salt: bytes | None = None) -> tuple[str, str]:
    """(salt hex, scrypt hash hex) of a teacher key."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.scrypt(key.encode(), salt=salt, **SCRYPT)
    return salt.hex(), digest.hex()


def check_key(key: str, salt_hex: str, hash_hex: str) -> bool:
    if not key or len(key) > 200:
        return False
    _, digest = hash_key(key, bytes.fromhex(salt_hex))
    return hmac.compare_digest(digest, hash_hex)


# --- look-alike characters --------------------------------------------------------------------------------


@functools.cache
def _confusable_classes() -> dict[str, str]:
    """Every single character of Unicode's confusables table mapped to one representative of its look-alike
    class (the data ships with the confusable-homoglyphs package, built from confusables.txt of UTS #39).

    Classes are closed transitively, so l, 1, I and | share one key: stricter than the UTS #39 skeleton, which
    only matters for uniqueness (a look-alike name is refused), never for what is shown."""
    raw = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.get(c, c) != c:
            parent[c] = parent.get(parent[c], parent[c])
            c = parent[c]
        return c

    for char, glyphs in raw.items():
        if len(char) != 1:
            continue
        for g in glyphs:
            other = g["c"].replace("\u200e", "")
            if len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {c: find(c) for c in list(parent)}


# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15.1), plus the Braille blank: characters
# that draw nothing, so "Alice" followed by a Hangul filler (U+3164) looks exactly like "Alice".
_INVISIBLE_RANGES = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
                     (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x2800, 0x2800),
                     (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
                     (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


def invisible(char: str) -> bool:
    """Whether a character draws nothing (a default-ignorable code point or the Braille blank).

    >>> [invisible(c) for c in "A\u3164\u200b\uffa0 "]
    [False, True, True, True, False]
    """
    cp = ord(char)
    return any(lo <= cp <= hi for lo, hi in _INVISIBLE_RANGES)


def skeleton(text: str, *, fold: bool = True) -> str:
    """Each character replaced by its look-alike class, after NFKC (and case folding with fold=True).

    Case folding and look-alikes do not commute (capital I looks like l, small i does not), so a nickname has
    two keys, both unique in a class: skeleton(nick) makes 'ALICE' == 'alice' == 'Аlice' (Cyrillic А), and
    skeleton(nick, fold=False) makes 'AIice' (capital I) == 'Alice'."""
    table = _confusable_classes()
    text = "".join(c for c in unicodedata.normalize("NFKC", text) if not invisible(c))
    if fold:
        text = unicodedata.normalize("NFKC", text.casefold())
    return "".join(table.get(c, c) for c in text)
