"""Published AMD Instinct matmul figures (data/published_gemm.csv) and the comparison the live lab draws from them."""

from __future__ import annotations

import copy
import csv
import re

import pytest

from rocm_bridge.data import DATA_DIR, read_csv
from rocm_bridge.live import published as pub
from rocm_bridge.live.results import recorded_results


def _rows() -> list[dict[str, str]]:
    with (DATA_DIR / pub.FILE).open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _h200(backend: str = "torch") -> dict:
    return next(d for d in recorded_results() if d["backend"] == backend)


def test_table_has_the_schema_and_no_problems():
    rows = _rows()
    assert rows and tuple(rows[0]) == pub.COLUMNS
    assert pub.problems(rows) == []
    assert len(pub.load()) == len(rows)


def test_every_row_is_sourced_dated_kinded_and_quoted():
    for row in _rows():
        assert re.search(r"https://|github\.com/", row["source"]), row["id"]
        assert re.fullmatch(r"20\d\d-\d\d-\d\d", row["date"]), row["id"]
        assert row["date"] <= "2026-12-02", row["id"]  # nothing dated after the day the sources were read
        assert row["kind"] in pub.KINDS and row["quote"].strip() and row["date_note"].strip(), row["id"]
        # the quote is the source's own words for this figure: the number must be in it
        assert row["tflops"] in row["quote"], (row["id"], row["tflops"], row["quote"])


def test_the_table_covers_cdna3_and_cdna2():
    gpus = {p.gpu for p in pub.load()}
    assert {"Instinct MI300X", "Instinct MI325X"} <= gpus  # CDNA3
    assert {"Instinct MI250X", "Instinct MI210"} <= gpus  # CDNA2
    assert {p.measured_by for p in pub.load()} == {"vendor", "independent"}
    assert all(p.gpu.startswith("Instinct MI") for p in pub.load())  # AMD only; NVIDIA's figure is our own run


@pytest.mark.parametrize(
    ("field", "value", "complaint"),
    [
        ("date", "Feb 2025", "bad date"),
        ("kind", "peak", "bad kind"),
        ("dtype", "fp8", "bad dtype"),
        ("tflops", "0", "bad tflops"),
        ("source", "a blog somewhere", "bad source"),
        ("quote", "", "empty quote"),
        ("problem_size", "4096 x 4864", "bad problem_size"),
        ("peak_column", "int8_tops", "bad peak_column"),
    ],
)
def test_problems_name_a_broken_row(field, value, complaint):
    rows = copy.deepcopy(_rows())
    rows[0][field] = value
    found = pub.problems(rows)
    assert any(complaint in p for p in found), found


def test_problems_catch_repeated_ids_and_a_gcd_scope_on_a_single_die():
    rows = copy.deepcopy(_rows())
    rows[1]["id"] = rows[0]["id"]
    mi300x = next(r for r in rows if r["gpu"] == "Instinct MI300X")
    mi300x["scope"] = "1 GCD"
    found = pub.problems(rows)
    assert any("repeated" in p for p in found) and any("multi-GCD" in p for p in found), found
    rows[0] = {k: v for k, v in rows[0].items() if k != "note"}
    assert any("columns" in p for p in pub.problems(rows))


def test_datasheet_peaks_come_from_gpu_specs():
    specs = {r["model"]: r for r in read_csv("gpu_specs.csv")}
    assert pub.datasheet_peak("Instinct MI300X", "bf16_tflops", "device") == float(specs["Instinct MI300X"]["bf16_tflops"])
    # one GCD of an MI250X is half the package, as ROCm sees two devices
    assert pub.datasheet_peak("Instinct MI250X", "bf16_tflops", "1 GCD") == pytest.approx(383.0 / 2)
    assert pub.datasheet_peak("Instinct MI250X", "bf16_tflops", "device") == pytest.approx(383.0)
    # FP32 GEMM on CDNA2 runs on the matrix cores: the FP32-matrix column, not the vector one
    assert pub.datasheet_peak("Instinct MI210", "fp32_matrix_or_tf32_tflops", "device") == pytest.approx(45.3)
    # no cell, no row: None, never a guess
    assert specs["Instinct MI325X"]["bf16_tflops"] == ""
    assert pub.datasheet_peak("Instinct MI325X", "bf16_tflops", "device") is None
    assert pub.datasheet_peak("Instinct MI355X", "bf16_tflops", "device") is None


def test_loaded_rows_carry_peak_and_ratio():
    rows = {p.id: p for p in pub.load()}
    maf = rows["amd-maf-mi300x-bf16"]
    assert (maf.tflops, maf.clock_mhz, maf.publisher, maf.date) == (708.0, 1207.0, "AMD", "2025-02-28")
    assert maf.ratio == pytest.approx(708 / 1307.4)
    assert rows["mamf-mi250x-bf16"].ratio == pytest.approx(147.0 / 191.5)
    assert rows["amd-maf-mi325x-bf16"].ratio is None
    assert [p.problem_size for p in pub.for_dtype("fp32")] == [f"{n}x{n}x{n}" for n in (1024, 2048, 4096, 8192)]


def test_dtypes_for_a_gpu_run_and_none_for_a_cpu_run():
    doc = _h200()
    assert pub.dtypes_for(doc) == ["fp32", "fp16", "bf16"]  # tf32: nothing published in the table
    cpu = copy.deepcopy(doc)
    cpu["device"]["kind"] = "cpu"
    assert pub.dtypes_for(cpu) == []
    broken = copy.deepcopy(doc)
    broken["benchmarks"]["matmul"] = {"status": "error", "message": "x"}
    assert pub.dtypes_for(broken) == []


def test_own_bars_take_the_largest_n_with_burst_and_peak():
    doc = _h200()
    rows = [r for r in doc["benchmarks"]["matmul"]["rows"] if r["dtype"] == "bf16"]
    top = max(rows, key=lambda r: r["n"])
    sustained, burst = pub.own_bars(doc, "bf16")
    assert (sustained.origin, sustained.kind, sustained.tflops) == ("recorded", "sustained", top["tflops"])
    assert (burst.kind, burst.tflops) == ("burst", top["burst_tflops"])
    assert sustained.size == f"{top['n']}x{top['n']}x{top['n']}"
    assert sustained.peak_tflops == doc["spec"]["peaks_tflops"]["bf16"] == 989.4
    assert sustained.ratio == pytest.approx(top["tflops"] / 989.4)


def test_a_measured_run_without_burst_or_spec_is_labelled_and_not_guessed():
    doc = copy.deepcopy(_h200())
    doc["source"] = "measured"
    doc["spec"] = None
    for r in doc["benchmarks"]["matmul"]["rows"]:
        r.pop("burst_tflops", None)
    bars = pub.own_bars(doc, "bf16")
    assert [(b.origin, b.kind) for b in bars] == [("measured", "sustained")]
    assert bars[0].peak_tflops is None and bars[0].ratio is None


def test_comparison_puts_our_figures_first_then_every_published_one():
    doc = _h200("jax")
    bars = pub.comparison(doc, "bf16")
    assert [b.origin for b in bars[:2]] == ["recorded", "recorded"]
    published = bars[2:]
    assert [b.row_id for b in published] == [p.id for p in pub.for_dtype("bf16")]
    assert all(b.origin == "published" and b.publisher and b.date and b.source for b in published)
    assert {b.gpu for b in published} >= {"Instinct MI300X", "Instinct MI250X"}
