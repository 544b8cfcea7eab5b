"""Small drawing helpers the mechanism pictures share (chapters 2-7 and 9): translation, a legend row, spans of
numbers, a hatched "dark" cell. Headless; the text goes through rocm_bridge.visual.svg (escaped, >= 18 px)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rocm_bridge import i18n
from rocm_bridge.visual import svg as s

KEY = "pictures_mech"


def tr(lang: str, prefix: str) -> Callable[..., str]:
    """t("x", ...) -> the catalog text pictures_mech.<prefix>.x in `lang`."""
    return lambda key, /, **params: i18n.t(f"{KEY}.{prefix}.{key}", lang, **params)


def spans(numbers: Iterable[int]) -> str:
    """1, 2, 3, 7, 9, 10 -> "1–3, 7, 9–10" (en dash: ranges read the same in both languages)."""
    out: list[str] = []
    run: list[int] = []
    for n in sorted(set(numbers)):
        if run and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            out.append(f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [n]
    if run:
        out.append(f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]))
    return ", ".join(out) if out else "—"


def dark_cell(p: s.Svg, x: float, y: float, w: float, h: float, title: str | None = None) -> None:
    """A cell that is left out: grey, crossed, readable as "off" without its colour."""
    pal = p.pal
    p.rect(x, y, w, h, fill=pal.neutral, opacity=0.35, stroke=pal.line, rx=3, title=title)
    p.line(x + 3, y + h - 3, x + w - 3, y + 3, stroke=pal.line, width=2)


def off_cell(p: s.Svg, x: float, y: float, w: float, h: float, title: str | None = None) -> None:
    """A cell that is simply not active (an outline)."""
    p.rect(x, y, w, h, fill=p.pal.background, stroke=p.pal.line, rx=3, title=title)


def legend(p: s.Svg, items: list[tuple[str, Callable[[s.Svg, float, float, float, float], None]]], x: float,
           y: float, size: float = s.LABEL_PX, gap: float = 34) -> float:
    """A row of (label, draw swatch) entries starting at (x, y = the row's middle); returns the x after the last."""
    for label, swatch in items:
        swatch(p, x, y - 11, 22, 22)
        p.text(x + 30, y + size * 0.35, label, size=size)
        x += 30 + s.text_width(label, size) + gap
    return x


def filled(fill: str) -> Callable[[s.Svg, float, float, float, float], None]:
    def draw(p: s.Svg, x: float, y: float, w: float, h: float) -> None:
        p.rect(x, y, w, h, fill=fill, rx=3)
    return draw


def fitted(p: s.Svg, x: float, y: float, text: str, width: float, size: float = s.LABEL_PX, **kw) -> None:
    """A label shrunk (never below the floor) to fit `width`."""
    p.text(x, y, text, size=s.fit(text, size, width), **kw)
