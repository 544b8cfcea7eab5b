"""The five formulas: worked examples checked by hand, invalid inputs, and properties (hypothesis)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rocm_bridge import formulas
from rocm_bridge.errors import InvalidInput
from rocm_bridge.formulas import (
    FORMULAS,
    amdahl_speedup,
    compatible,
    coverage,
    per_op_time,
    speedup,
    throughput,
)
from rocm_bridge.i18n import LANGS, has, t

positive = st.floats(min_value=1e-6, max_value=1e6, allow_nan=False, allow_infinity=False)
non_negative = st.floats(min_value=0.0, max_value=1e6, allow_nan=False, allow_infinity=False)
bad_numbers = st.sampled_from([-1.0, -1e-9, float("nan"), float("inf"), float("-inf"), "abc", None, True])
version_parts = st.lists(st.integers(min_value=0, max_value=30), min_size=1, max_size=4)


# --- worked examples (numbers checked by hand) ------------------------------------------------------------


def test_per_op_time_adds_its_three_parts_and_shares_sum_to_one():
    t_op = per_op_time(dispatch_s=4e-6, kernel_s=12e-6, sync_s=4e-6)
    assert t_op.total_s == pytest.approx(20e-6)
    assert t_op.shares == pytest.approx({"dispatch": 0.2, "kernel": 0.6, "sync": 0.2})
    assert per_op_time(0, 0, 0).shares == {"dispatch": 0.0, "kernel": 0.0, "sync": 0.0}


def test_throughput_example():
    # 128 samples in 0.05 + 0.03 s = 1600 samples/s
    assert throughput(batch=128, t_compute_s=0.05, t_transfer_s=0.03) == pytest.approx(1600.0)


def test_coverage_and_speedup_examples():
    assert coverage(n_supported=45, n_total=47) == pytest.approx(0.957446, rel=1e-5)
    assert coverage(0, 5) == 0.0
    assert speedup(t_before_s=9.0, t_after_s=3.0) == pytest.approx(3.0)
    assert speedup(2.0, 4.0) == pytest.approx(0.5)  # a slowdown is S < 1, not an error


def test_amdahl_examples():
    assert amdahl_speedup(0.5, 2.0) == pytest.approx(1 / (0.5 + 0.25))
    assert amdahl_speedup(0.0, 100.0) == pytest.approx(1.0)
    assert amdahl_speedup(1.0, 4.0) == pytest.approx(4.0)


def test_compatible_names_the_failing_factor():
    c = compatible(driver=("6.3", "6.1"), rocm=("6.1.x", "6.4.x"), tensorflow=("2.18.1", "2.16.2"))
    assert c.value == 0
    assert [i.name for i in c.failing] == ["rocm"]
    assert [i.value for i in c.indicators] == [1, 0, 1]


def test_compatible_compares_versions_not_text():
    assert compatible(tensorflow=("2.10.0", "2.9")).value == 1  # as text "2.10.0" < "2.9"
    assert compatible(rocm=("10.0.0", "7.2")).value == 1
    assert compatible(rocm=("6.0", "6.0.0")).value == 1  # trailing zeros are the same version
    assert compatible(rocm=("5.7.1", "6.0")).value == 0


def test_compatible_missing_component_is_zero():
    c = compatible(rocm=(None, "6.0"), tensorflow=("2.14", "2.14"))
    assert c.value == 0 and c.failing[0].name == "rocm" and c.failing[0].installed is None


# --- invalid inputs --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, key",
    [
        (lambda: throughput(0, 1, 1), "errors.zero"),
        (lambda: throughput(10, 0, 0), "errors.zero"),
        (lambda: throughput(10, -1, 1), "errors.negative"),
        (lambda: throughput(10, float("nan"), 1), "errors.not_finite"),
        (lambda: throughput("ten", 1, 1), "errors.not_a_number"),
        (lambda: per_op_time(-1e-6, 1e-6, 0), "errors.negative"),
        (lambda: per_op_time(0, float("inf"), 0), "errors.not_finite"),
        (lambda: coverage(3, 0), "errors.zero"),
        (lambda: coverage(6, 5), "errors.more_than_total"),
        (lambda: coverage(2.5, 5), "formula_lab.errors.not_integer"),
        (lambda: coverage(True, 5), "errors.not_a_number"),
        (lambda: speedup(1.0, 0.0), "errors.zero"),
        (lambda: speedup(0.0, 1.0), "errors.zero"),
        (lambda: speedup(float("nan"), 1.0), "errors.not_finite"),
        (lambda: amdahl_speedup(1.5, 2.0), "errors.more_than_total"),
        (lambda: amdahl_speedup(0.5, 0.0), "errors.zero"),
        (lambda: compatible(), "errors.no_components"),
        (lambda: compatible(rocm=("six", "6.0")), "errors.bad_version"),
        (lambda: compatible(rocm="6.0"), "errors.bad_version"),
    ],
)
def test_invalid_inputs_raise_invalid_input_with_a_translated_message(call, key):
    with pytest.raises(InvalidInput) as info:
        call()
    err = info.value
    assert err.key == key
    assert has(key), f"catalog lacks {key}"
    for lang in LANGS:
        message = err.message(lang)
        assert message and "{" not in message and key not in message


@given(bad=bad_numbers)
def test_any_bad_number_is_rejected_by_every_formula(bad):
    for call in (
        lambda: throughput(bad, 1.0, 1.0),
        lambda: throughput(1.0, bad, 1.0),
        lambda: throughput(1.0, 1.0, bad),
        lambda: per_op_time(bad, 1.0, 1.0),
        lambda: speedup(bad, 1.0),
        lambda: speedup(1.0, bad),
        lambda: coverage(bad, 10),
        lambda: amdahl_speedup(bad, 2.0),
    ):
        with pytest.raises(InvalidInput):
            call()


# --- properties --------------------------------------------------------------------------------------------


@given(a=positive, b=positive, c=positive)
def test_speedups_chain(a, b, c):
    assert speedup(a, b) * speedup(b, c) == pytest.approx(speedup(a, c), rel=1e-9)


@given(a=positive, b=positive)
def test_speedup_is_reciprocal(a, b):
    assert speedup(a, b) * speedup(b, a) == pytest.approx(1.0, rel=1e-9)


@given(batch=positive, t_compute=positive, t_transfer=non_negative)
def test_throughput_never_exceeds_batch_over_compute(batch, t_compute, t_transfer):
    value = throughput(batch, t_compute, t_transfer)
    assert value <= batch / t_compute * (1 + 1e-12)
    assert value > 0


@given(batch=positive, t_compute=positive, t_transfer=positive, extra=positive)
def test_throughput_falls_when_transfer_grows(batch, t_compute, t_transfer, extra):
    assert throughput(batch, t_compute, t_transfer + extra) <= throughput(batch, t_compute, t_transfer)


@given(total=st.integers(min_value=1, max_value=10_000), data=st.data())
def test_coverage_is_a_share(total, data):
    part = data.draw(st.integers(min_value=0, max_value=total))
    r = coverage(part, total)
    assert 0.0 <= r <= 1.0
    assert (r == 1.0) == (part == total)


@given(d=non_negative, k=non_negative, s=non_negative)
def test_per_op_time_total_and_shares(d, k, s):
    t_op = per_op_time(d, k, s)
    assert t_op.total_s == pytest.approx(d + k + s)
    if t_op.total_s > 0:
        assert sum(t_op.shares.values()) == pytest.approx(1.0)
        assert all(0.0 <= v <= 1.0 for v in t_op.shares.values())


@given(p=st.floats(min_value=0.0, max_value=1.0), s=st.floats(min_value=1.0, max_value=1e6))
def test_amdahl_is_bounded_by_the_untouched_part(p, s):
    whole = amdahl_speedup(p, s)
    assert 1.0 - 1e-12 <= whole <= s * (1 + 1e-12)
    if p < 1:
        assert whole <= 1 / (1 - p) * (1 + 1e-12)


def _v(parts: list[int]) -> str:
    return ".".join(map(str, parts))


@given(indicators=st.lists(st.tuples(version_parts, version_parts), min_size=1, max_size=4))
def test_compatible_is_one_iff_every_indicator_is_one(indicators):
    components = {f"c{i}": (_v(a), _v(b)) for i, (a, b) in enumerate(indicators)}
    result = compatible(**components)
    assert result.value in (0, 1)
    assert result.value == int(all(i.value == 1 for i in result.indicators))
    assert result.value == math.prod(i.value for i in result.indicators)


@given(a=version_parts, b=version_parts)
def test_versions_compare_as_integer_tuples(a, b):
    def norm(parts):
        parts = list(parts)
        while len(parts) > 1 and parts[-1] == 0:
            parts.pop()
        return tuple(parts)

    expected = norm(a) >= norm(b)
    assert bool(compatible(x=(_v(a), _v(b))).value) == expected


# --- the formula specs -------------------------------------------------------------------------------------


def test_formula_specs_have_titles_and_symbols_in_the_catalog():
    assert set(FORMULAS) == {"compatible", "per_op_time", "throughput", "coverage", "speedup", "occupancy"}
    for spec in FORMULAS.values():
        assert spec.latex.strip()
        assert has(spec.title_key), spec.title_key
        for _, key in spec.symbols:
            assert has(key), key
            assert t(key, "zh") != t(key, "en")


def test_check_number_accepts_numeric_text_and_rejects_bools():
    assert formulas.check_number("x", "3.5") == 3.5
    with pytest.raises(InvalidInput):
        formulas.check_number("x", False)
