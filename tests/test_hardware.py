"""Hardware comparison core: parsing gpu_specs.csv, per-GCD view, ratios, rooflines, measured benchmarks."""

from __future__ import annotations

import csv
import math

import pytest

from rocm_bridge import hardware as hw
from rocm_bridge import i18n
from rocm_bridge.data import data_path
from rocm_bridge.errors import InvalidInput
from rocm_bridge.hardware.measured import HostMeasurement


def _csv(name: str) -> list[dict[str, str]]:
    with data_path(name).open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_every_row_parsed_and_empty_cells_are_none_not_zero():
    rows = {hw.gpu_id(r["model"]): r for r in _csv("gpu_specs.csv")}
    assert len(hw.gpus()) == len(rows) == 12
    for g in hw.gpus():
        row = rows[g.id]
        for metric, (column, _) in {**hw.PRECISIONS, **hw.MEMORY_METRICS}.items():
            cell = row[column].strip()
            if cell:
                assert g.value(metric) == float(cell)
            else:
                assert g.value(metric) is None
    mi325x = hw.gpu("instinct-mi325x")
    assert mi325x.value("fp64") is None and mi325x.value("fp16") == 1307.4
    assert hw.gpu("tesla-v100-sxm2").value("bf16") is None
    assert hw.gpu("instinct-mi100").value("fp64_matrix") is None


@pytest.mark.parametrize("cell", ["", "  ", "n/a", "0", "-3", "nan", "inf"])
def test_unusable_cells_are_not_published(cell):
    assert hw.parse_figure(cell) is None


def test_gcd_count_comes_from_the_notes():
    assert hw.gpu("instinct-mi250").gcds == 2
    assert hw.gpu("instinct-mi250x").gcds == 2
    assert hw.gpu("instinct-mi210").gcds == 1
    assert hw.gpu("instinct-mi300x").gcds == 1
    assert hw.gpu("a100-80gb-sxm4").gcds == 1


def test_per_gcd_halves_mi250_and_leaves_single_gcd_gpus_alone():
    mi250 = hw.gpu("instinct-mi250")
    assert mi250.value("fp64", per_gcd=True) == pytest.approx(45.3 / 2)
    assert mi250.value("fp16", per_gcd=True) == pytest.approx(362.1 / 2)
    assert mi250.value("memory_gb", per_gcd=True) == 64
    assert mi250.value("memory_bandwidth_tbs", per_gcd=True) == pytest.approx(1.6)
    assert mi250.value("tdp_w", per_gcd=True) == 560  # board power is not split
    assert mi250.is_derived("fp64", per_gcd=True) and not mi250.is_derived("fp64")
    a100 = hw.gpu("a100-80gb-sxm4")
    assert a100.value("fp64", per_gcd=True) == a100.value("fp64") == 9.7
    # OLCF states 64 GB and 1.6 TB/s per MI250X GCD (in the row's notes)
    mi250x = hw.gpu("instinct-mi250x")
    assert mi250x.value("memory_gb", per_gcd=True) == 64
    assert "64 GB HBM2e at 1.6 TB/s per GCD" in mi250x.notes


def test_derived_figures_follow_the_notes():
    assert hw.gpu("instinct-mi210").derived == {"bf16"}
    assert hw.gpu("instinct-mi100").derived == {"bf16"}
    assert hw.gpu("instinct-mi250x").derived == set(hw.PRECISIONS)  # "DERIVED peaks"
    assert hw.gpu("a100-80gb-pcie").derived == set(hw.PRECISIONS)  # "DERIVED FLOPS"
    assert hw.gpu("instinct-mi250").derived == frozenset()  # "Stream processors derived" is not a peak
    assert hw.derived_metrics("blah FP16 DERIVED: x") == {"fp16"}


def test_every_gpu_has_a_source():
    for g in hw.gpus():
        assert g.sources and all(s for s in g.sources)


def test_ratio_table_against_hand_computed_values():
    table = {r["metric"]: r for r in hw.ratio_table(["instinct-mi250", "a100-80gb-sxm4"], "a100-80gb-sxm4")}
    assert table["fp64"]["instinct-mi250"] == pytest.approx(45.3 / 9.7)  # ~4.67x
    assert table["fp32_matrix_or_tf32"]["instinct-mi250"] == pytest.approx(90.5 / 156)  # FP32 matrix vs TF32
    assert table["memory_bandwidth_tbs"]["instinct-mi250"] == pytest.approx(3.2 / 2.039)
    assert table["fp64"]["a100-80gb-sxm4"] == 1.0
    per_gcd = {r["metric"]: r for r in hw.ratio_table(["instinct-mi250"], "a100-80gb-sxm4", per_gcd=True)}
    assert per_gcd["fp64"]["instinct-mi250"] == pytest.approx(45.3 / 2 / 9.7)


def test_ratio_with_a_missing_figure_is_none():
    table = {r["metric"]: r for r in hw.ratio_table(["instinct-mi325x"], "instinct-mi250")}
    assert table["fp64"]["instinct-mi325x"] is None
    assert table["fp16"]["instinct-mi325x"] == pytest.approx(1307.4 / 362.1)
    assert hw.ratio(None, 2.0) is None and hw.ratio(2.0, None) is None and hw.ratio(1.0, 0.0) is None


def test_ridge_point_and_attainable():
    # A100 80GB FP64: 9.7 TFLOP/s over 2.039 TB/s -> ~4.76 FLOP/byte
    assert hw.ridge_point(9.7, 2.039) == pytest.approx(4.757, rel=1e-3)
    # MI250 FP64: 45.3 / 3.2 = 14.16
    assert hw.ridge_point(45.3, 3.2) == pytest.approx(14.156, rel=1e-3)
    assert hw.ridge_point(None, 3.2) is None and hw.ridge_point(45.3, None) is None
    assert hw.attainable_tflops(1.0, 45.3, 3.2) == pytest.approx(3.2)  # memory bound
    assert hw.attainable_tflops(1000.0, 45.3, 3.2) == 45.3  # compute bound
    ridge = hw.ridge_point(45.3, 3.2)
    assert hw.attainable_tflops(ridge, 45.3, 3.2) == pytest.approx(45.3)
    with pytest.raises(InvalidInput):
        hw.attainable_tflops(-1.0, 45.3, 3.2)


def test_roofline_curve_is_monotone_flat_after_the_ridge():
    roof = hw.gpu_roofline("instinct-mi250", "fp64")
    assert roof.ridge in roof.intensities
    assert list(roof.attainable) == sorted(roof.attainable)
    for x, y in zip(roof.intensities, roof.attainable, strict=True):
        assert y == pytest.approx(min(45.3, 3.2 * x))
    per_gcd = hw.gpu_roofline("instinct-mi250", "fp64", per_gcd=True)
    assert per_gcd.ridge == pytest.approx(roof.ridge)  # both halve: the ridge stays
    assert per_gcd.peak_tflops == pytest.approx(45.3 / 2)
    assert hw.gpu_roofline("instinct-mi325x", "fp64") is None
    with pytest.raises(InvalidInput):
        hw.gpu_roofline("instinct-mi250", "fp4")


def test_parse_gpu_list_from_url():
    assert hw.parse_gpu_list("instinct-mi250,a100-80gb-sxm4,instinct-mi250") == ("instinct-mi250", "a100-80gb-sxm4")
    with pytest.raises(InvalidInput):
        hw.parse_gpu_list("instinct-mi250,rtx-9090")
    with pytest.raises(InvalidInput):
        hw.parse_gpu_list(" , ")
    assert all(g in {x.id for x in hw.gpus()} for g in hw.DEFAULT_GPUS)


def test_host_point_uses_the_measured_ridge():
    m = HostMeasurement(
        device_name="NVIDIA H200",
        vendor="NVIDIA",
        backend="torch",
        backend_version="2.11",
        measured_at="2026-11-29T12:00:00",
        matmul_tflops={"fp32": 51.0, "tf32": 384.0},
        d2d_gbs=4250.0,
    )
    assert hw.host_point(m, "fp32") == pytest.approx((51.0 / 4.25, 51.0))
    assert hw.host_point(m, "fp32_matrix_or_tf32")[1] == 384.0
    assert hw.host_point(m, "fp64") is None  # not measured
    assert hw.host_point(HostMeasurement("x", "CPU", "torch", "1", "t", matmul_tflops={"fp32": 1.0}), "fp32") is None
    assert (
        hw.host_tflops(HostMeasurement("x", "CPU", "torch", "1", "t", matmul_tflops={"fp16": math.nan}), "fp16") is None
    )


def test_benchmarks_keep_who_software_date_and_source():
    rows = _csv("benchmarks_mi250_vs_a100.csv")
    got = hw.benchmarks()
    assert len(got) == len(rows)
    for b, row in zip(got, rows, strict=True):
        assert b.who == row["who_measured"] and b.date == row["date"] and b.source == row["source"]
        assert b.software == row["software_stack"]
        if row["ratio_mi250_over_a100"]:
            assert b.ratio == float(row["ratio_mi250_over_a100"])
        if b.mi250 and b.a100 and b.ratio:
            assert b.mi250 / b.a100 == pytest.approx(b.ratio, abs=0.006)  # the data's ratio is the rounded quotient
    labels = [hw.short_workload(b) for b in got]
    assert "Llama-2-7b-hf TP1 len128 b1" in labels
    assert len(set(labels)) == len(labels)


def test_catalog_names_every_precision_and_metric():
    for metric in hw.RATIO_METRICS:
        assert i18n.t(f"hardware.metric.{metric}", "zh")
        assert i18n.t(f"hardware.metric.{metric}", "en")
