"""Showing untrusted text (nicknames, file names, pasted logs, link values) safely: in Markdown and in CSV."""

from __future__ import annotations

import re
from typing import Any

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+!|~$:])")
_LINE_START = re.compile(r"^(\s*)([-+=]|\d+)([.)]?)", re.MULTILINE)
# GitHub-flavoured autolinks (https://..., www.x, a@b.c) are found in the text after escapes are resolved, so a
# backslash cannot stop them: a WORD JOINER (U+2060, invisible) after the scheme, "www" or "@" does.
_AUTOLINK = re.compile(r"(?i)(https?|ftp|mailto|xmpp|www)(?=\\?[:.])|(@)")
WORD_JOINER = "\u2060"


def md_escape(text: object) -> str:
    """Text that st.markdown shows exactly as typed: no emphasis, links, autolinks, images, LaTeX, lists or HTML.

    >>> md_escape("<b>[x](e)</b> $a$")
    '\\\\<b\\\\>\\\\[x\\\\]\\\\(e\\\\)\\\\</b\\\\> \\\\$a\\\\$'
    >>> md_escape("see https://e.x or www.e.x") == "see https" + WORD_JOINER + "\\\\://e.x or www" + WORD_JOINER + ".e.x"
    True
    >>> md_escape("1. first")
    '1\\\\. first'
    """
    text = _MD_SPECIAL.sub(r"\\\1", str(text))
    text = _AUTOLINK.sub(lambda m: m.group(0) + WORD_JOINER, text)

    def fix(m: re.Match) -> str:
        if m.group(2)[0].isdigit():  # "1." starts an ordered list: escape the dot
            return m.group(1) + m.group(2) + ("\\" + m.group(3) if m.group(3) else "")
        return m.group(1) + "\\" + m.group(2) + m.group(3)

    return _LINE_START.sub(fix, text)


def csv_safe(value: Any) -> str:
    """A CSV cell a spreadsheet will not run as a formula: user text starting with = + - @ gets a leading quote.

    >>> csv_safe("=HYPERLINK(0)"), csv_safe("ok"), csv_safe(None)
    ("'=HYPERLINK(0)", 'ok', '')
    """
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
