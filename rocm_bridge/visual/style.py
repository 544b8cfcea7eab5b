"""Every visual constant of the app in one place (colours, chart sizes, Plotly config), per theme.

The module-level palettes are the light theme's; palette("dark") swaps the few colours that vanish on a dark
background. Pages get the palette of the theme the visitor sees from rocm_bridge.ui.theme.palette().
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType

# Every palette keeps each pair of its colours apart (CIE76 delta E >= 15) for normal vision and for simulated
# protanopia, deuteranopia and tritanopia (tests/test_colour_vision.py); charts add labels or marks as well, so
# no chart relies on colour alone. Colours follow Okabe & Ito's colour-blind-safe set where no brand applies.
VENDOR_COLORS: dict[str, str] = {
    "AMD": "#C8102E",  # AMD red, darkened so it stays apart from NVIDIA green under deuteranopia
    "NVIDIA": "#76B900",  # NVIDIA green
    "HIP": "#332288",  # the portable layer between the two stacks
    "HOST": "#000000",  # "your machine"
    "RECORDED": "#0072B2",  # recorded results shipped with the app
    "CPU": "#7F7F7F",
}

DTYPE_COLORS: dict[str, str] = {
    "fp64": "#000000",
    "fp32": "#E69F00",
    "tf32": "#56B4E9",
    "fp16": "#D55E00",
    "bf16": "#CC79A7",
    "int8": "#0072B2",
}

STATUS_COLORS: dict[str, str] = {
    "ok": "#009E73",
    "warn": "#E69F00",
    "fail": "#D55E00",
    "skipped": "#BBBBBB",
}

PART_COLORS: dict[str, str] = {"dispatch": "#FFB000", "kernel": "#648FFF", "sync": "#DC267F", "transfer": "#000000"}

CHART_HEIGHT = 420
FONT_FAMILY = '"Source Sans Pro", "Noto Sans CJK SC", "Noto Sans SC", sans-serif'

# Toolbar: keep the PNG download (teachers paste charts into slides); drop the Plotly logo.
PLOTLY_CONFIG: dict = {
    "displaylogo": False,
    "toImageButtonOptions": {"format": "png", "scale": 2},
    "modeBarButtonsToRemove": ["lasso2d", "select2d"],
}


THEMES: tuple[str, ...] = ("light", "dark")

# The paper every chart is drawn on: Streamlit 1.67's own backgrounds (bgColor of its light and dark themes,
# frontend/lib/src/theme; its Plotly theme sets paper_bgcolor and plot_bgcolor to it, so charts follow the page).
BACKGROUND: dict[str, str] = {"light": "#FFFFFF", "dark": "#171614"}

# On the dark background black marks vanish (WCAG contrast 1.2:1) and the HIP indigo sinks (1.5:1); their dark
# twins keep every palette's colours >= 3:1 against it (WCAG 2.1 SC 1.4.11, graphics) and apart from each other
# and from the background by delta E >= 15 under every simulated vision (tests/test_colour_vision.py).
_DARK_SWAPS: dict[str, dict[str, str]] = {
    "vendor": {"HIP": "#AA99FF", "HOST": "#FFFFFF"},
    "dtype": {"fp64": "#FFFFFF"},
    "status": {},
    "part": {"transfer": "#FFFFFF"},
}

# Neutral marks per theme: ink = "you are here" markers and the selected block's outline; line = reference
# lines; muted = secondary chart text; edge = the hairline between diagram blocks (the background colour);
# neutral = bars that only give context (measured ratios below 1).
_NEUTRALS: dict[str, dict[str, str]] = {
    "light": {"ink": "#000000", "line": "#555555", "muted": "#6E6E6E", "edge": "#FFFFFF", "neutral": "#9E9E9E"},
    "dark": {"ink": "#FFFFFF", "line": "#A9A5A0", "muted": "#A9A5A0", "edge": "#171614", "neutral": "#9E9E9E"},
}

# The hipify editor (Ace, bundled with streamlit-code-editor): built-in themes only, which load nothing from the
# network (the component's streamlit_light / streamlit_dark themes @import Google Fonts).
CODE_EDITOR_THEME: dict[str, str] = {"light": "textmate", "dark": "tomorrow_night"}


@dataclass(frozen=True)
class Palette:
    """Every chart colour of one theme."""

    theme: str
    vendor: Mapping[str, str]
    dtype: Mapping[str, str]
    status: Mapping[str, str]
    part: Mapping[str, str]
    background: str
    ink: str
    line: str
    muted: str
    edge: str
    neutral: str
    code_editor: str

    def vendor_color(self, vendor: str) -> str:
        return self.vendor.get(vendor.upper(), self.vendor["CPU"])


@cache
def palette(theme: str = "light") -> Palette:
    """The palette of a theme ("light" or "dark"); anything else is a ValueError."""
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}")
    swaps = _DARK_SWAPS if theme == "dark" else {name: {} for name in _DARK_SWAPS}
    base = {"vendor": VENDOR_COLORS, "dtype": DTYPE_COLORS, "status": STATUS_COLORS, "part": PART_COLORS}
    maps = {name: MappingProxyType({**colours, **swaps[name]}) for name, colours in base.items()}
    return Palette(theme=theme, **maps, background=BACKGROUND[theme], **_NEUTRALS[theme],
                   code_editor=CODE_EDITOR_THEME[theme])


def relative_luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance of a #RRGGBB colour."""
    channels = [int(colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2.1 contrast ratio of two #RRGGBB colours (1 to 21)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def blend(colour: str, background: str, opacity: float) -> str:
    """The colour a mark of this opacity shows over the background (sRGB alpha compositing)."""
    def channel(hex_: str, i: int) -> int:
        return int(hex_.lstrip("#")[i:i + 2], 16)

    mix = (round(opacity * channel(colour, i) + (1 - opacity) * channel(background, i)) for i in (0, 2, 4))
    return "#" + "".join(f"{c:02X}" for c in mix)


# WCAG 2.1 SC 1.4.11: a line or mark a reader needs keeps at least 3:1 against what it is drawn on.
LINE_CONTRAST = 3.0

# The casing of a bright highlight line (the hero's op path, #FFB000) where it crosses coloured blocks: dark in both
# themes, since the highlight itself is light (the highlight has 11.5:1 against it, NVIDIA green only 1.3:1).
CASING = "#000000"


def legible(colour: str, background: str, minimum: float = LINE_CONTRAST) -> str:
    """`colour`, or the nearest shade of it (mixed toward black on a light background, toward white on a dark one)
    with at least `minimum` contrast against `background`: NVIDIA green (2.4:1) and the fp32 orange (2.1:1) as lines
    on white paper."""
    if contrast_ratio(colour, background) >= minimum:
        return colour
    toward = "#000000" if contrast_ratio("#000000", background) >= contrast_ratio("#FFFFFF", background) else "#FFFFFF"
    for step in range(1, 21):
        shade = blend(toward, colour, step / 20)
        if contrast_ratio(shade, background) >= minimum:
            return shade
    return toward


def faded(colour: str, background: str, opacity: float, minimum: float = LINE_CONTRAST) -> str:
    """A de-emphasised line: `colour` at `opacity` over the background, made no fainter than `minimum` contrast
    against it (a dimmed line is still a line a reader must see from the back row)."""
    for step in range(round(opacity * 100), 101):
        shade = blend(colour, background, step / 100)
        if contrast_ratio(shade, background) >= minimum:
            return shade
    return legible(colour, background, minimum)


def text_on(fill: str) -> str:
    """Black or white, whichever reads better on a filled block of this colour (labels inside bars)."""
    return "#FFFFFF" if contrast_ratio("#FFFFFF", fill) >= contrast_ratio("#000000", fill) else "#000000"


def vendor_color(vendor: str, theme: str = "light") -> str:
    return palette(theme).vendor_color(vendor)
