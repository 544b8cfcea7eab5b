"""Version strings compared as versions, not text ("2.10" > "2.9"; "6.0.2" > "6.0")."""

from __future__ import annotations

import re

from rocm_bridge.errors import InvalidInput

_VERSION = re.compile(r"\s*v?(\d+(?:\.\d+)*)")


def parse_version(text: str) -> tuple[int, ...]:
    """'6.3.3' -> (6, 3, 3); '2.14.0.600' -> (2, 14, 0, 600); '7.2.x' -> (7, 2); '6.10.5-2109' -> (6, 10, 5).

    >>> parse_version("2.10") > parse_version("2.9")
    True
    """
    match = _VERSION.match(str(text))
    if not match:
        raise InvalidInput("errors.bad_version", value=text)
    parts = tuple(int(p) for p in match.group(1).split("."))
    while len(parts) > 1 and parts[-1] == 0:
        parts = parts[:-1]
    return parts


def version_at_least(installed: str, minimum: str) -> bool:
    return parse_version(installed) >= parse_version(minimum)
