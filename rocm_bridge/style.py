"""Every visual constant of the app in one place (colours, chart sizes, Plotly config)."""

from __future__ import annotations

VENDOR_COLORS: dict[str, str] = {
    "AMD": "#ED1C24",  # AMD red
    "NVIDIA": "#76B900",  # NVIDIA green
    "HIP": "#5B5EA6",  # the portable layer between the two stacks
    "HOST": "#1F77B4",  # "your machine"
    "RECORDED": "#9467BD",  # recorded results shipped with the app
    "CPU": "#7F7F7F",
}

DTYPE_COLORS: dict[str, str] = {
    "fp64": "#1B9E77",
    "fp32": "#D95F02",
    "tf32": "#7570B3",
    "fp16": "#E7298A",
    "bf16": "#66A61E",
    "int8": "#E6AB02",
}

STATUS_COLORS: dict[str, str] = {
    "ok": "#2CA02C",
    "warn": "#FF9F1C",
    "fail": "#D62728",
    "skipped": "#9E9E9E",
}

PART_COLORS: dict[str, str] = {"dispatch": "#FFB000", "kernel": "#648FFF", "sync": "#DC267F", "transfer": "#FE6100"}

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
