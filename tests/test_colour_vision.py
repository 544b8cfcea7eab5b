"""Every chart palette stays readable with colour-vision deficiency (Machado et al. 2009 simulation), on the light
and on the dark background."""

import pytest

from rocm_bridge.visual import style
from tests.colour_vision import MACHADO, _rgb, closest_pairs, delta_e, simulate

MIN_DELTA_E = 15.0  # about where two flat colours stop being confused at chart size
MIN_GRAPHIC_CONTRAST = 3.0  # WCAG 2.1 SC 1.4.11: marks that carry meaning against what is next to them
MIN_TEXT_CONTRAST = 4.5  # WCAG 2.1 SC 1.4.3: small text

PALETTES = {name: getattr(style, name) for name in ("VENDOR_COLORS", "DTYPE_COLORS", "STATUS_COLORS", "PART_COLORS")}
GROUPS = ("vendor", "dtype", "status", "part")
VISIONS = ("normal", *MACHADO)


def _seen(colour: str, vision: str):
    return _rgb(colour) if vision == "normal" else simulate(colour, vision)


@pytest.mark.parametrize("name", PALETTES)
def test_palette_colours_stay_apart_under_every_simulated_vision(name):
    worst = closest_pairs(PALETTES[name])[0]
    assert worst[0] >= MIN_DELTA_E, f"{name}: {worst}"


@pytest.mark.parametrize("theme", style.THEMES)
@pytest.mark.parametrize("group", GROUPS)
def test_theme_palette_colours_stay_apart_and_off_the_background(theme, group):
    colours = dict(getattr(style.palette(theme), group))
    worst = closest_pairs(colours)[0]
    assert worst[0] >= MIN_DELTA_E, f"{theme} {group}: {worst}"
    background = style.BACKGROUND[theme]
    for name, colour in colours.items():
        for vision in VISIONS:
            gap = delta_e(_seen(colour, vision), _seen(background, vision))
            assert gap >= MIN_DELTA_E, f"{theme} {group}.{name} {colour} on {background} ({vision}): delta E {gap:.1f}"


@pytest.mark.parametrize("group", GROUPS)
def test_every_dark_palette_colour_has_graphic_contrast_against_the_dark_background(group):
    background = style.BACKGROUND["dark"]
    colours = getattr(style.palette("dark"), group)
    ratios = {name: round(style.contrast_ratio(colour, background), 2) for name, colour in colours.items()}
    low = {name: ratio for name, ratio in ratios.items() if ratio < MIN_GRAPHIC_CONTRAST}
    assert not low, f"dark {group} below {MIN_GRAPHIC_CONTRAST}:1 against {background}: {low}"


@pytest.mark.parametrize("theme", style.THEMES)
def test_neutral_marks_read_on_their_background(theme):
    pal = style.palette(theme)
    assert pal.background == style.BACKGROUND[theme]
    for mark in ("ink", "line"):
        assert style.contrast_ratio(getattr(pal, mark), pal.background) >= MIN_GRAPHIC_CONTRAST, mark
    assert style.contrast_ratio(pal.muted, pal.background) >= MIN_TEXT_CONTRAST  # "not published" labels
    assert pal.edge == pal.background  # the hairline between diagram blocks is a gap, not a line


def test_the_dark_background_would_hide_the_light_palette():
    # the reason the dark palette exists: black marks and the HIP indigo vanish on Streamlit's dark background
    dark = style.BACKGROUND["dark"]
    assert style.contrast_ratio(style.VENDOR_COLORS["HOST"], dark) < 1.5
    assert style.contrast_ratio(style.VENDOR_COLORS["HIP"], dark) < 2
    assert delta_e(_rgb(style.PART_COLORS["transfer"]), _rgb(dark)) < MIN_DELTA_E


def test_the_simulation_confuses_what_it_should():
    # the old red/green status pair was the problem: nearly one colour to a deuteranope, distinct to others
    red, green = "#D62728", "#2CA02C"
    assert delta_e(simulate(red, "deuteranopia"), simulate(green, "deuteranopia")) < MIN_DELTA_E
    assert closest_pairs({"red": red, "green": green})[-1][0] > 50
