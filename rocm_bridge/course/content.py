"""Chapter prose: content/<lang>/<id>.md, Markdown plus a few directive lines (CONTRIBUTING.md, 'Chapters').

    ::: story / ::: takeaways / ::: misconceptions   ... block, closed by a line ':::'
    ::: formula <id>    the formula card
    ::: widget <name>   an embedded widget (rocm_bridge.course.widgets.WIDGETS)
    ::: lab <page_key>  a link to a page
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rocm_bridge.course.widgets import WIDGETS as _REGISTRY
from rocm_bridge.formulas import FORMULAS
from rocm_bridge.i18n import LANGS
from rocm_bridge.pages import PAGES

CONTENT_DIR = Path(__file__).resolve().parents[2] / "content"
BLOCKS = ("story", "takeaways", "misconceptions")
WIDGETS = tuple(_REGISTRY)  # the widget names a chapter may use: the registry's, nothing else
PAGE_KEYS = tuple(p.key for p in PAGES)


@dataclass(frozen=True)
class Block:
    kind: str  # markdown | story | takeaways | misconceptions | formula | widget | lab
    text: str  # Markdown for text kinds, the argument for one-line directives


class ContentError(ValueError):
    """A malformed chapter file: caught by tests, never shown to a learner."""


def parse(text: str, origin: str = "<text>") -> tuple[Block, ...]:
    blocks: list[Block] = []
    buffer: list[str] = []
    open_block: str | None = None

    def flush(kind: str) -> None:
        body = "\n".join(buffer).strip()
        buffer.clear()
        if body:
            blocks.append(Block(kind, body))

    for lineno, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped.startswith(":::"):
            buffer.append(line)
            continue
        words = stripped[3:].split()
        if not words:  # closing ':::'
            if open_block is None:
                raise ContentError(f"{origin}:{lineno}: ':::' closes no block")
            flush(open_block)
            open_block = None
            continue
        if open_block is not None:
            raise ContentError(f"{origin}:{lineno}: directive inside the open '{open_block}' block")
        name, args = words[0], words[1:]
        flush("markdown")
        if name in BLOCKS and not args:
            open_block = name
        elif name == "formula" and len(args) == 1 and args[0] in FORMULAS:
            blocks.append(Block("formula", args[0]))
        elif name == "widget" and len(args) == 1 and args[0] in WIDGETS:
            blocks.append(Block("widget", args[0]))
        elif name == "lab" and len(args) == 1 and args[0] in PAGE_KEYS:
            blocks.append(Block("lab", args[0]))
        else:
            raise ContentError(f"{origin}:{lineno}: unknown directive {stripped!r}")
    if open_block is not None:
        raise ContentError(f"{origin}: block '{open_block}' is never closed")
    flush("markdown")
    return tuple(blocks)


def content_path(doc_id: str, lang: str) -> Path:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}")
    return CONTENT_DIR / lang / f"{doc_id}.md"


@lru_cache(maxsize=64)
def load(doc_id: str, lang: str) -> tuple[Block, ...] | None:
    """The parsed document, or None when it is not written in this language."""
    path = content_path(doc_id, lang)
    if not path.exists():
        return None
    return parse(path.read_text(encoding="utf-8"), str(path))
