"""URL values for on/off state: one parser for every page."""

import pytest

from rocm_bridge.ui.state import parse_flag


@pytest.mark.parametrize(("raw", "value"), [("1", True), ("TRUE", True), ("yes", True), (" on ", True),
                                            ("0", False), ("false", False), ("No", False), ("off", False)])
def test_parse_flag(raw, value):
    assert parse_flag(raw) is value


@pytest.mark.parametrize("raw", ["", "2", "maybe", "<b>"])
def test_anything_else_is_a_bad_link_value(raw):
    with pytest.raises(ValueError):
        parse_flag(raw)
