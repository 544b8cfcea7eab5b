"""Every visual constant of the app in one place (colours, chart sizes, Plotly config)."""

from __future__ import annotations

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


def vendor_color(vendor: str) -> str:
    return VENDOR_COLORS.get(vendor.upper(), VENDOR_COLORS["CPU"])
