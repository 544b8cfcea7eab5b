"""Every chart palette stays readable with colour-vision deficiency (Machado et al. 2009 simulation)."""

import pytest

from rocm_bridge import style
from tests.colour_vision import closest_pairs, delta_e, simulate

MIN_DELTA_E = 15.0  # about where two flat colours stop being confused at chart size

PALETTES = {name: getattr(style, name) for name in ("VENDOR_COLORS", "DTYPE_COLORS", "STATUS_COLORS", "PART_COLORS")}


@pytest.mark.parametrize("name", PALETTES)
def test_palette_colours_stay_apart_under_every_simulated_vision(name):
    worst = closest_pairs(PALETTES[name])[0]
    assert worst[0] >= MIN_DELTA_E, f"{name}: {worst}"


def test_the_simulation_confuses_what_it_should():
    # the old red/green status pair was the problem: nearly one colour to a deuteranope, distinct to others
    red, green = "#D62728", "#2CA02C"
    assert delta_e(simulate(red, "deuteranopia"), simulate(green, "deuteranopia")) < MIN_DELTA_E
    assert closest_pairs({"red": red, "green": green})[-1][0] > 50
