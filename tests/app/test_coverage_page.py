"""The coverage lab page: tracing an example, deep links, the ROCm vs CUDA difference, TensorFlow missing."""

from __future__ import annotations

import pytest

from rocm_bridge import coverage, i18n
from rocm_bridge.coverage import trace

PAGE = "views/coverage.py"


def t(key: str, lang: str = "en", **params) -> str:
    return i18n.t(key, lang, **params)


def metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def expected_r(example: str, alias: str) -> str:
    rep = coverage.analyze(coverage.example_nodes(example), coverage.resolve(alias))
    return f"{rep.r_ops:.1%}"


def test_recorded_example_shows_r_chart_table_and_csv(app_test):
    at = app_test(PAGE, cv_recorded="true", cv_model="small_cnn")
    assert not at.exception, [e.value for e in at.exception]
    rocm, cuda = coverage.resolve("rocm-2.14"), coverage.resolve("cuda-2.14")
    assert metrics(at) == {
        rocm.label: expected_r("small_cnn", "rocm-2.14"),
        cuda.label: expected_r("small_cnn", "cuda-2.14"),
    }
    assert any(t("coverage.note.precomputed", tf="2.21.0")[:40] in c.value for c in at.caption)
    assert at.get("download_button"), "CSV export missing"
    table = at.dataframe[-1].value
    assert set(table[t("coverage.col.op")]) >= {"Conv2D", "MatMul", "Relu", "NoOp"}
    chart = at.get("plotly_chart")[0].proto.spec
    assert (
        t("coverage.chart_title", model=t("coverage.example.small_cnn")) in chart and t("coverage.chart_y.ops") in chart
    )
    assert any("tensorflow-rocm-2.14.0.600.json.gz" in c.value for c in at.caption)  # the chart's source line


def test_deep_link_to_mixed_precision_finds_the_bf16_relu_gap(app_test):
    at = app_test(PAGE, cv_model="cnn_mixed_bf16", cv_recorded="true")
    assert not at.exception
    rocm = coverage.resolve("rocm-2.14")
    assert metrics(at)[rocm.label] == expected_r("cnn_mixed_bf16", "rocm-2.14") != "100.0%"
    diffs = at.dataframe[0].value
    assert list(diffs[t("coverage.col.op")]) == ["Relu", "ReluGrad"]
    assert set(diffs[rocm.label]) == {t("coverage.status.dtype_gap")}
    assert any("`Relu` (bfloat16)" in m.value for m in at.markdown)


@pytest.mark.tf
def test_tracing_an_example_with_tensorflow(app_test):
    pytest.importorskip("tensorflow", reason="tensorflow-cpu is not installed")
    at = app_test(PAGE, cv_model="lstm")
    assert not at.exception, [e.value for e in at.exception]
    assert at.status and at.status[0].proto.label.startswith("Traced:")
    assert set(at.dataframe[-1].value[t("coverage.col.op")]) >= {"While", "Sigmoid", "Tanh"}
    assert len(at.metric) == 2


def test_without_tensorflow_the_recorded_results_still_show(app_test, monkeypatch):
    monkeypatch.setattr(trace, "tensorflow_installed", lambda: False)
    at = app_test(PAGE, cv_reg=["tensorflow-rocm-2.14.0.600", "live"])
    assert not at.exception
    toggle = at.toggle(key="cv_recorded")
    assert toggle.value is True and toggle.disabled  # the recorded lists are in use, and the toggle says so
    assert t("coverage.no_tf") in [w.value for w in at.warning]
    assert t("coverage.live_needs_tf") in [i.value for i in at.info]
    assert list(metrics(at)) == [coverage.resolve("rocm-2.14").label]


def test_cpu_build_registry_warns_that_it_has_no_gpu(app_test):
    at = app_test(PAGE, cv_reg="tensorflow-cpu-2.21.0", cv_recorded="true", lang="zh")
    assert not at.exception
    assert t("coverage.warn.no_gpu_build", "zh") in [w.value for w in at.warning]
    assert list(metrics(at).values()) == ["0.0%"]
    assert t("coverage.title", "zh") in [x.value for x in at.title]


def test_upload_mode_waits_for_a_file(app_test):
    at = app_test(PAGE, cv_source="upload")
    assert not at.exception
    assert not at.metric and not at.error


def test_first_visit_shows_a_model_with_a_gap_and_short_registry_chips(app_test):
    at = app_test(PAGE, cv_recorded="true")
    assert not at.exception
    assert at.selectbox(key="cv_model").value == coverage.DEFAULT_EXAMPLE
    rocm = coverage.resolve("rocm-2.14")
    assert metrics(at)[rocm.label] == expected_r(coverage.DEFAULT_EXAMPLE, "rocm-2.14") != "100.0%"  # teaches a gap
    chips = [at.multiselect(key="cv_reg").format_func(v) for v in at.multiselect(key="cv_reg").value]
    assert chips and all(len(c) <= 24 for c in chips), chips
