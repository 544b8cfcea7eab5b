"""Generated questions: answers checked against an independent computation from the raw data."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest

from rocm_bridge.quiz.generate import GENERATORS, generate
from rocm_bridge.quiz.scoring import is_correct

DATA = Path(__file__).resolve().parent.parent / "data"
SEEDS = range(40)


def _rows(name):
    with (DATA / name).open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _version(text):
    """Independent of rocm_bridge.versions: numeric fields, trailing zeros dropped."""
    parts = [int(p) for p in text.split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def _many(template):
    rng = random.Random(1234)
    return [generate(template, rng) for _ in SEEDS]


def test_every_generator_makes_valid_fresh_questions():
    for template, gen in GENERATORS.items():
        qs = _many(template)
        assert all(q.template == template and q.set == "generated" and q.chapter == gen.chapter for q in qs)
        assert len({q.id for q in qs}) == len(qs), "instances need distinct ids"
        assert len({q.t("prompt", "en") for q in qs}) >= 5, f"{template} repeats itself"
        for q in qs:
            assert q.t("prompt", "zh") != q.t("prompt", "en")
            assert "{" not in q.t("prompt", "zh") + q.t("explanation", "zh"), "unfilled placeholder"


def _check_numeric(q, expected):
    assert q.answer == pytest.approx(expected, rel=1e-9)
    assert is_correct(q, expected)
    assert is_correct(q, round(expected, 2)) or q.tolerance < 0.01
    assert not is_correct(q, expected * 1.1 + 1)


def test_throughput_answers():
    for q in _many("gen.throughput"):
        p = q.params
        _check_numeric(q, p["batch"] * 1000.0 / (p["t_compute_ms"] + p["t_transfer_ms"]))


def test_speedup_answers():
    for q in _many("gen.speedup"):
        _check_numeric(q, q.params["t_before_s"] / q.params["t_after_s"])
        assert is_correct(q, round(q.params["t_before_s"] / q.params["t_after_s"], 2))


def test_coverage_answers():
    for q in _many("gen.coverage"):
        _check_numeric(q, 100.0 * q.params["n_supported"] / q.params["n_total"])
        assert is_correct(q, round(100.0 * q.params["n_supported"] / q.params["n_total"], 1))


def test_per_op_time_answers():
    for q in _many("gen.per_op_time"):
        d, k, s = q.params["dispatch_us"], q.params["kernel_us"], q.params["sync_us"]
        _check_numeric(q, 100.0 * (d + s) / (d + k + s))


def test_compatible_answers():
    qs = _many("gen.compatible")
    for q in qs:
        p = q.params
        ok = all(_version(p[f"{c}_installed"]) >= _version(p[f"{c}_min"]) for c in ("driver", "rocm", "tensorflow"))
        assert q.answer is ok
        assert is_correct(q, ok) and not is_correct(q, not ok)
    assert {q.answer for q in qs} == {True, False}


def test_hip_name_answers_match_the_mapping_table():
    rows = _rows("hipify_mappings.csv")
    hip_names = {}
    for r in rows:
        if r["variant"] == "hip" and r["hip_name"]:
            hip_names.setdefault(r["cuda_name"], set()).add(r["hip_name"])
    for q in _many("gen.hip_name"):
        cuda = q.params["cuda_name"]
        labels = q.option_labels("en")
        assert labels[q.answer] in hip_names[cuda]
        assert cuda in q.t("prompt", "en") and cuda in q.t("prompt", "zh")
        others = [label for i, label in enumerate(labels) if i != q.answer]
        assert not set(others) & hip_names[cuda], "a distractor is also a right answer"
        assert len(set(labels)) == len(labels) == 4


def test_fp64_answers_match_the_spec_table():
    peaks = {r["model"]: float(r["fp64_tflops"]) for r in _rows("gpu_specs.csv") if r["fp64_tflops"]}
    for q in _many("gen.fp64"):
        a, b = q.option_labels("en")
        assert peaks[a] != peaks[b]
        winner = a if peaks[a] > peaks[b] else b
        assert q.option_labels("en")[q.answer] == winner
        assert "gpu_specs.csv" in q.source


def test_tf_rocm_answers_match_the_compatibility_table():
    listed = {
        r["rocm_version"]: {v.strip() for v in r["tensorflow_versions"].split(",")}
        for r in _rows("tf_rocm_compat.csv")
        if r["record_type"] == "rocm_release"
    }
    lines = set()
    for q in _many("gen.tf_rocm"):
        line = q.params["rocm"]
        lines.add(line)
        labels = q.option_labels("en")
        picked = {labels[i] for i in q.answer}
        assert picked == listed[line], line
        assert set(labels) - picked, "needs at least one wrong option"
        assert not (set(labels) - picked) & listed[line]
        assert is_correct(q, list(q.answer)) and not is_correct(q, list(q.answer)[:-1])
    assert len(lines) >= 4


def _occupancy_reference(vgprs, agprs, lds, threads):
    """gfx90a waves per SIMD, computed here without rocm_bridge.formulas (LLVM AMDGPUUsage / llvm-calc-occupancy)."""
    used = (vgprs + 3) // 4 * 4 + agprs if agprs else vgprs
    allocated = (used + 7) // 8 * 8
    by_regs = min(512 // allocated, 8)
    if lds:
        blocks = 65536 // lds
        by_lds = min(max(blocks * ((threads + 63) // 64) // 4, 1), 8)
    else:
        by_lds = 8
    return min(8, by_regs, by_lds)


def test_occupancy_items_match_an_independent_computation():
    qs = _many("gen.occupancy")
    for q in qs:
        p = q.params
        assert q.answer == _occupancy_reference(p["vgprs"], p["agprs"], p["lds"], p["threads"])
        assert is_correct(q, q.answer) and not is_correct(q, q.answer + 1)
        assert str(p["vgprs"]) in q.prompt["en"] and str(p["vgprs"]) in q.prompt["zh"]
    assert len({q.answer for q in qs}) >= 3, "the generator should produce varied answers"


def test_occupancy_reference_agrees_with_recorded_compiler_output():
    # hipcc (HIP 5.2) -Rpass-analysis=kernel-resource-usage, gfx90a, recorded 2026-12-01 (content/en/ch9.md)
    assert _occupancy_reference(136, 0, 0, 256) == 3
    assert _occupancy_reference(4, 0, 1024, 256) == 8
