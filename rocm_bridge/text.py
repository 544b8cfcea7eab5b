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


_URL = re.compile(r"https?://[^\s()\[\]<>|]+")
_SAFE_URL = re.compile(r"https?://[A-Za-z0-9\-._~:/?#@!$&'*+,;=%]+")
_GITHUB = re.compile(r"(?<![/\w])github\.com/([\w.-]+)/([\w.-]+)(?:[ /]([^\s()|]+))?")


def source_link(text: str) -> tuple[str, str | None]:
    """A short label and a link for one source as the data tables write it, instead of a wall of raw URLs.

    'github.com/OWNER/REPO path/file.md (...)' links to that file on GitHub; a text with an https URL links to it;
    anything else (a data file name, a book) is its own label with no link. Only plain http(s) URLs are linked.

    >>> source_link("github.com/ROCm/ROCm docs/reference/gpu-arch-specs.rst (commit e396b48)")
    ('ROCm/ROCm · gpu-arch-specs.rst', 'https://github.com/ROCm/ROCm/blob/HEAD/docs/reference/gpu-arch-specs.rst')
    >>> source_link("https://www.anandtech.com/show/17326/amd-releases-instinct-mi210 (press table)")
    ('anandtech.com · amd-releases-instinct-mi210', 'https://www.anandtech.com/show/17326/amd-releases-instinct-mi210')
    >>> source_link("data/stack_equivalents.csv")
    ('data/stack_equivalents.csv', None)
    """
    text = str(text).strip()
    github = _GITHUB.search(text)
    if github:
        owner, repo, path = github.groups()
        prefix = text[: github.start()].strip()
        label = f"{owner}/{repo}" + (f" · {path.rstrip('/').rsplit('/', 1)[-1]}" if path else "")
        url = f"https://github.com/{owner}/{repo}" + (f"/blob/HEAD/{path}" if path else "")
        label = f"{prefix} {label}".strip()
    else:
        found = _URL.search(text)
        if not found:
            return text, None
        url = found.group(0).rstrip(".,;:")
        host, _, rest = url.split("://", 1)[1].partition("/")
        last = next((seg for seg in reversed(rest.split("?")[0].split("/")) if seg), "")
        label = host.removeprefix("www.") + (f" · {last[:40]}" if last else "")
        prefix = text[: found.start()].strip()
        label = f"{prefix} {label}".strip()
    return label, url if _SAFE_URL.fullmatch(url) else None


def source_markdown(text: str) -> str:
    """Markdown for a source line: each ' | '-separated source as a short escaped label, linked where it can be."""
    parts = []
    for part in str(text).split(" | "):
        label, url = source_link(part)
        parts.append(f"[{md_escape(label)}]({url})" if url else md_escape(label))
    return " · ".join(parts)
