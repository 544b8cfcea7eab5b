"""SVG pictures, headless: a tiny builder the explainer pictures draw with (no Streamlit, no Plotly).

Coordinates are CSS pixels at the picture's natural width. The picture never grows past that width
(`max-width`), so a label drawn at `LABEL_PX` is at least that size wherever the column is as wide as the picture;
presenter mode at 1280x720 gives the main column about 1,100 px, so pictures are drawn `WIDTH` (1000) wide at most.
Every string is escaped here: a builder passes plain text, never markup.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from rocm_bridge.visual import style

WIDTH = 1000  # natural width of a picture, px (fits presenter mode's main column at 1280x720)
MIN_FONT_PX = 18  # nothing smaller is readable from the back row (the back-row test enforces it)
LABEL_PX = 20
TITLE_PX = 24
BIG_PX = 30
# The class of a casing: a wider line drawn under a line so that it reads where it crosses blocks of any colour
# (the back-row test measures the line against its casing and does not measure the casing as a line itself).
CASING_CLASS = "rb-casing"


def text_width(text: str, size: float, mono: bool = False) -> float:
    """A cautious width estimate of `text` at `size` px in the house font: CJK characters are square, Latin ones
    about 0.58 em on average (digits and capitals included), 0.62 em in the monospace font. Builders use it to keep
    labels inside their boxes."""
    import unicodedata

    latin = 0.62 if mono else 0.58
    return sum(size if unicodedata.east_asian_width(ch) in "WF" else size * latin for ch in text)


def fit(text: str, size: float, width: float, floor: float = MIN_FONT_PX, mono: bool = False) -> float:
    """The largest font size <= `size` (and >= `floor`) at which `text` fits in `width` px."""
    need = text_width(text, size, mono)
    if need <= width:
        return size
    return max(floor, int(size * width / need * 4) / 4)  # rounded down to a quarter pixel: never a hair over


def clip(text: str, size: float, width: float, mono: bool = False) -> str:
    """`text`, cut with an ellipsis until it fits `width` at `size` (for when fit() stopped at the floor)."""
    while len(text) > 2 and text_width(text, size, mono) > width:
        text = text[:-2] + "…"
    return text


def fitted(text: str, size: float, width: float, mono: bool = False) -> tuple[str, float]:
    """(text, size) that fit `width`: the size shrunk toward MIN_FONT_PX first, then the text clipped."""
    size = fit(text, size, width, mono=mono)
    return clip(text, size, width, mono), size


@dataclass
class Svg:
    """An SVG document under construction: add shapes and text, then `render()`."""

    width: float
    height: float
    theme: str = "light"
    parts: list[str] = field(default_factory=list)

    @property
    def pal(self) -> style.Palette:
        return style.palette(self.theme)

    def add(self, markup: str) -> Svg:
        self.parts.append(markup)
        return self

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str, stroke: str | None = None,
             rx: float = 6, opacity: float = 1.0, cls: str = "", title: str | None = None) -> Svg:
        s = f' stroke="{stroke}" stroke-width="2"' if stroke else ""
        o = f' fill-opacity="{opacity:g}"' if opacity != 1 else ""
        c = f' class="{escape(cls)}"' if cls else ""
        tip = f"<title>{escape(title)}</title>" if title else ""
        self.parts.append(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{rx:g}" fill="{fill}"{s}{o}{c}>'
                          f"{tip}</rect>")
        return self

    def line(self, x1: float, y1: float, x2: float, y2: float, *, stroke: str, width: float = 2,
             dash: str | None = None, arrow: bool = False, casing: str | None = None) -> Svg:
        """A line; `casing` (a colour): drawn over a line of that colour 4 px wider (CASING_CLASS)."""
        if casing:
            self.parts.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{casing}" '
                              f'stroke-width="{width + 4:g}" class="{CASING_CLASS}"/>')
        d = f' stroke-dasharray="{dash}"' if dash else ""
        a = ' marker-end="url(#rb-arrow)"' if arrow else ""
        self.parts.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{stroke}" '
                          f'stroke-width="{width:g}"{d}{a}/>')
        return self

    def path(self, d: str, *, stroke: str, fill: str = "none", width: float = 2, arrow: bool = False) -> Svg:
        a = ' marker-end="url(#rb-arrow)"' if arrow else ""
        self.parts.append(f'<path d="{escape(d)}" stroke="{stroke}" fill="{fill}" stroke-width="{width:g}"{a}/>')
        return self

    def circle(self, cx: float, cy: float, r: float, *, fill: str, stroke: str | None = None) -> Svg:
        s = f' stroke="{stroke}" stroke-width="2"' if stroke else ""
        self.parts.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{r:g}" fill="{fill}"{s}/>')
        return self

    def text(self, x: float, y: float, text: str, *, size: float = LABEL_PX, fill: str | None = None,
             anchor: str = "start", weight: str = "normal", mono: bool = False) -> Svg:
        """A label; `y` is its baseline. Sizes below MIN_FONT_PX are raised to it (the back row must read it)."""
        size = max(size, MIN_FONT_PX)
        family = "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace" if mono else style.FONT_FAMILY
        self.parts.append(
            f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" font-family=\'{family}\' fill="{fill or self.pal.ink}" '
            f'text-anchor="{anchor}" font-weight="{weight}">{escape(text)}</text>')
        return self

    def render(self, label: str) -> str:
        """The finished document; `label` is its accessible name (what a screen reader says)."""
        arrow = (f'<defs><marker id="rb-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
                 f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
                 f'fill="{self.pal.ink}"/></marker></defs>')
        return (f'<svg class="rb-picture" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width:g} '
                f'{self.height:g}" width="100%" style="max-width:{self.width:g}px;height:auto" role="img" '
                f'aria-label="{escape(label)}">{arrow}{"".join(self.parts)}</svg>')
