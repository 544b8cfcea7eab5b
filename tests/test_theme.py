"""The theme switch's contract with Streamlit's frontend, the per-theme palettes, and charts built for each theme."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import streamlit

from rocm_bridge.coverage import analyze
from rocm_bridge.coverage import chart as coverage_chart
from rocm_bridge.ui import theme
from rocm_bridge.ui.charts import reference_line
from rocm_bridge.visual import style

BUNDLE = Path(streamlit.__file__).parent / "static" / "static" / "js"


@pytest.fixture(scope="module")
def frontend() -> str:
    return "".join(path.read_text(encoding="utf-8", errors="ignore") for path in BUNDLE.glob("*.js"))


def test_bundled_streamlit_reads_the_theme_from_the_key_the_switch_writes(frontend):
    # const CACHED_THEME_VERSION = N, CACHED_THEME_BASE_KEY = `stActiveTheme-${window.location.pathname}`,
    # ACTIVE_THEME = `${BASE}-v${N}` (minified names differ per build)
    match = re.search(r"(\w+)=(\d+),(\w+)=`stActiveTheme-\$\{window\.location\.pathname\}`,\w+=\{"
                      r"CACHED_THEME_VERSION:\1,CACHED_THEME_BASE_KEY:\3,ACTIVE_THEME:`\$\{\3\}-v\$\{\1\}`\}", frontend)
    assert match, "Streamlit changed where it keeps the theme: update rocm_bridge/ui/theme.py and docs/ux.md"
    assert f"stActiveTheme-{{path}}-v{match.group(2)}" == theme.STORAGE_KEY
    # the stored value is JSON.parse'd and must be one of the three names the switch writes
    assert re.search(r"localStorage\.getItem\(\w+\.ACTIVE_THEME\);if\(!\w+\)return null;let \w+=JSON\.parse", frontend)
    names = re.search(r"(\w+)===`System`\|\|\1===`Light`\|\|\1===`Dark`", frontend)
    assert names and set(theme.STREAMLIT_NAMES.values()) == {"System", "Light", "Dark"}


def test_apply_script_holds_only_fixed_text_and_json_values():
    dark, nothing = theme.apply_script("dark"), theme.apply_script("")
    assert 'const want = "dark";' in dark and 'data-want="dark"' in dark
    assert 'const want = "";' in nothing  # the default leaves the browser's (or Streamlit menu's) choice alone
    assert '"stActiveTheme-" + window.location.pathname + "-v2"' in dark
    assert '{"auto": "System", "light": "Light", "dark": "Dark"}' in dark
    def fixed(script: str) -> list[str]:
        return [line for line in script.splitlines() if "want = " not in line and "data-want=" not in line]

    assert "%(" not in dark and fixed(dark) == fixed(nothing)  # only the choice differs, never translated text
    assert "window.location.replace" in dark and "sessionStorage" in dark  # one reload, never a loop


def test_theme_choices_map_to_streamlit_names():
    assert set(theme.CHOICES) == set(theme.STREAMLIT_NAMES) and theme.DEFAULT == "auto"
    assert set(style.THEMES) < set(theme.CHOICES)


def test_light_palette_is_the_module_palettes_and_dark_swaps_only_what_vanishes():
    light, dark = style.palette("light"), style.palette("dark")
    assert dict(light.vendor) == style.VENDOR_COLORS and dict(light.dtype) == style.DTYPE_COLORS
    assert dict(light.status) == style.STATUS_COLORS and dict(light.part) == style.PART_COLORS
    for group in ("vendor", "dtype", "status", "part"):
        assert set(getattr(light, group)) == set(getattr(dark, group))
    changed = {(g, k) for g in ("vendor", "dtype", "status", "part")
               for k, v in getattr(dark, g).items() if getattr(light, g)[k] != v}
    assert changed == {("vendor", "HIP"), ("vendor", "HOST"), ("dtype", "fp64"), ("part", "transfer")}
    assert dark.vendor_color("amd") == style.VENDOR_COLORS["AMD"] and dark.vendor_color("intel") == dark.vendor["CPU"]
    assert (light.code_editor, dark.code_editor) == ("textmate", "tomorrow_night")
    assert style.vendor_color("HOST", "dark") == "#FFFFFF" and style.vendor_color("HOST") == "#000000"


def test_palettes_are_shared_and_read_only():
    pal = style.palette("dark")
    assert style.palette("dark") is pal
    with pytest.raises(TypeError):
        pal.vendor["AMD"] = "#000000"
    with pytest.raises(ValueError):
        style.palette("sepia")


def test_contrast_blend_and_text_on_fills():
    assert style.contrast_ratio("#000000", "#FFFFFF") == pytest.approx(21.0)
    assert style.contrast_ratio("#777777", "#777777") == pytest.approx(1.0)
    assert style.blend("#FF0000", "#000000", 0.5) == "#800000"
    assert style.blend("#76B900", "#FFFFFF", 1.0) == "#76B900"
    assert style.text_on("#76B900") == "#000000"  # white on NVIDIA green is 2.4:1, black 8.7:1
    assert style.text_on("#C8102E") == "#FFFFFF"
    assert style.text_on(style.blend("#C8102E", style.BACKGROUND["dark"], 0.35)) == "#FFFFFF"


@pytest.mark.parametrize("theme_", style.THEMES)
def test_legible_and_faded_lines_keep_3_to_1_on_the_page(theme_):
    bg = style.BACKGROUND[theme_]
    for colour in [*style.VENDOR_COLORS.values(), *style.DTYPE_COLORS.values(), *style.STATUS_COLORS.values()]:
        shade = style.legible(colour, bg)
        assert style.contrast_ratio(shade, bg) >= style.LINE_CONTRAST, (colour, shade)
        if style.contrast_ratio(colour, bg) >= style.LINE_CONTRAST:
            assert shade == colour  # a colour that already reads is left alone
        dim = style.faded(colour, bg, 0.35)
        assert style.contrast_ratio(dim, bg) >= style.LINE_CONTRAST, (colour, dim)
    assert style.legible("#76B900", "#FFFFFF") != "#76B900"  # NVIDIA green on white paper: 2.4:1
    # faded keeps the fading where it can: indigo on white at 35 % is 1.8:1, raised only as far as 3:1
    indigo = style.faded("#332288", "#FFFFFF", 0.35)
    assert style.contrast_ratio(indigo, "#FFFFFF") < style.contrast_ratio("#332288", "#FFFFFF")


def test_casing_reads_against_every_part_colour_and_the_highlight():
    from rocm_bridge.stack.figure import HIGHLIGHT

    for part in ("dispatch", "kernel", "sync"):  # the per-op picture cuts its bars with it
        assert style.contrast_ratio(style.CASING, style.PART_COLORS[part]) >= 4.5, part
    assert style.contrast_ratio(style.CASING, HIGHLIGHT) >= 4.5


@pytest.mark.parametrize("name", ["light", "dark"])
def test_stack_diagram_is_drawn_in_the_theme_colours(name):
    from rocm_bridge import stack
    from rocm_bridge.stack.figure import build_figure

    pal = style.palette(name)
    fig = build_figure(list(stack.layers()), "cuda.math-blas", "tf.matmul", False, lang="en", theme=name)
    bars = [t for t in fig.data if t.type == "bar"]
    by_side = {}
    for bar in bars:
        by_side.setdefault(bar.legendgroup, set()).add(bar.marker.color)
    assert by_side == {"cuda": {pal.vendor["NVIDIA"]}, "hip": {pal.vendor["HIP"]}, "rocm": {pal.vendor["AMD"]}}
    for bar in bars:
        drawn = style.blend(bar.marker.color, pal.background, bar.marker.opacity)
        assert style.contrast_ratio(bar.textfont.color, drawn) >= 4.5, (bar.name, bar.textfont.color, drawn)
        if bar.marker.line.width == 4:  # the selected block
            assert bar.marker.line.color == pal.ink
        if bar.marker.line.width == 0.5:
            assert bar.marker.line.color == pal.background


@pytest.mark.parametrize("name", ["light", "dark"])
def test_formula_figures_use_the_theme_ink_and_reference_line(name):
    from rocm_bridge.formulas import lab as fl
    from rocm_bridge.formulas.figures import speedup_figures

    pal = style.palette(name)
    view = fl.amdahl_view(12.0, 8.0, 0.6)
    bars, amdahl = speedup_figures(12.0, 8.0, 60.0, view, "en", name)
    you = amdahl.data[-1]
    assert you.marker.color == pal.ink and amdahl.data[0].line.color == pal.vendor["AMD"]
    assert [s.line.color for s in amdahl.layout.shapes] == [pal.line]
    assert {b.marker.color for b in bars.data} == {pal.vendor["CPU"], pal.vendor["AMD"]}


def test_coverage_chart_draws_every_status_visible_on_its_background():
    from tests.test_coverage_analysis import NODES, REG

    rep = analyze(NODES, REG, "toy")
    for name in style.THEMES:
        colours = coverage_chart.status_colors(name)
        fig = coverage_chart.status_figure([rep], str, by="nodes", theme=name)
        assert {bar.name: bar.marker.color for bar in fig.data} == {s: colours[s] for s in rep.status_nodes}
        assert all(style.contrast_ratio(c, style.BACKGROUND[name]) > 1.5 for c in colours.values()), name
    assert coverage_chart.status_colors("dark")["default"] == "#FFFFFF"  # black on light, white on dark
    assert coverage_chart.status_colors("light")["default"] == "#000000"


def test_reference_line_defaults_to_the_light_grey_without_a_browser():
    import plotly.graph_objects as go

    fig = reference_line(go.Figure(), y=1.0)
    assert fig.layout.shapes[0].line.color == style.palette("light").line
    fig = reference_line(go.Figure(), y=1.0, color=style.palette("dark").line)
    assert fig.layout.shapes[0].line.color == "#A9A5A0"
