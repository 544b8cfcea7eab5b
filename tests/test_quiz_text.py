"""Markdown escaping of quiz text and nicknames, number parsing, option order."""

from __future__ import annotations

import re

import pytest

from rocm_bridge.quiz.text import md_content, md_escape, option_order, parse_number


def test_md_escape_neutralises_markdown_html_and_latex():
    out = md_escape("<img src=x onerror=alert(1)> **bold** [link](http://x) $x^2$ __init__")
    assert re.search(r"(?<!\\)[<>*\[\]$_]", out) is None, out
    # md_escape also puts an invisible word joiner after "http" to stop GFM autolinks (rocm_bridge/text.py)
    assert out.replace("\\", "").replace("\u2060", "") == "<img src=x onerror=alert(1)> **bold** [link](http://x) $x^2$ __init__"
    assert md_escape("- item\n1. one\n  + x") == "\\- item\n1\\. one\n  \\+ x"
    assert md_escape("2024 was") == "2024 was"


def test_md_content_keeps_code_spans():
    out = md_content("Use `__shfl_down(v, 16)` not __shared__ $USER")
    assert "`__shfl_down(v, 16)`" in out
    assert "\\_\\_shared\\_\\_" in out and "\\$USER" in out


@pytest.mark.parametrize(
    "raw, value",
    [
        ("2560", 2560.0),
        (" 2560.5 ", 2560.5),
        ("2 560", 2560.0),
        ("９３．７", 93.7),
        ("0,94", 0.94),
        ("1,234.5", 1234.5),
        ("93.7 %", 93.7),
        ("1.5×", 1.5),
        (7, 7.0),
        ("-3", -3.0),
    ],
)
def test_parse_number(raw, value):
    assert parse_number(raw) == pytest.approx(value)


@pytest.mark.parametrize("raw", ["", "abc", "1.2.3", None, "nan", "inf", True])
def test_parse_number_rejects(raw):
    assert parse_number(raw) is None


def test_option_order_is_a_stable_permutation():
    a = option_order("ch1.x", 4, seed=3)
    assert sorted(a) == [0, 1, 2, 3] and a == option_order("ch1.x", 4, seed=3)
    assert len({tuple(option_order(f"q{i}", 4, seed=3)) for i in range(30)}) > 5
