"""Formula lab page (AppTest): widget values drive the shown result exactly as the core computes it; a URL
query reproduces the view; bad link values give translated messages, never exceptions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rocm_bridge import formulas, i18n
from rocm_bridge.formulas import lab as fl
from rocm_bridge.hardware.measured import SESSION_KEY, HostMeasurement
from rocm_bridge.text import md_escape

PAGE = "views/formula_lab.py"


def _open(app_test, formula: str, lang: str = "en", **query: str):
    at = app_test(PAGE, lang=lang, fl_formula=formula, **query)
    assert not at.exception, [e.value for e in at.exception]
    return at


def _metric(at, key: str, lang: str = "en", **params) -> str:
    label = i18n.t(key, lang, **params)
    values = [m.value for m in at.metric if m.label == label]
    assert values, f"metric {label!r} not shown; have {[m.label for m in at.metric]}"
    return values[0]


def _query(at) -> dict[str, str]:
    return {k: (v[-1] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def _charts(at) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("formula", ["compatible", "per_op_time", "throughput", "coverage", "speedup"])
def test_each_formula_shows_inputs_latex_result_and_a_titled_chart(app_test, formula, lang):
    at = _open(app_test, formula, lang)
    assert at.segmented_control(key="fl_formula").value == formula
    assert len(at.latex) >= 2  # the formula card and the formula with the user's numbers
    assert at.metric
    charts = _charts(at)
    assert charts and all(c["layout"]["title"]["text"] for c in charts)
    source = i18n.t("common.source", lang)
    assert any(c.value.startswith(source) for c in at.caption)
    assert not at.error


def test_speedup_result_equals_the_core_function(app_test):
    at = _open(app_test, "speedup")
    at.number_input(key="fl_sp_before").set_value(20.0).run()
    at.number_input(key="fl_sp_after").set_value(5.0).run()
    at.number_input(key="fl_sp_part").set_value(90.0).run()
    assert not at.exception
    assert _metric(at, "formula_lab.sp.result") == fl.fmt(formulas.speedup(20.0, 5.0)) == "4"
    view = fl.amdahl_view(20.0, 5.0, 0.9)
    assert any(fl.latex_amdahl(view) in x.value for x in at.latex)
    assert _query(at)["fl_sp_before"] == "20.0" and _query(at)["fl_sp_after"] == "5.0"


def test_throughput_toggles_and_preset_follow_the_core(app_test):
    at = _open(app_test, "throughput")
    at.selectbox(key="fl_tp_hw").set_value("a100_40gb").run()
    at.number_input(key="fl_tp_batch").set_value(64).run()
    at.number_input(key="fl_tp_pipeline").set_value(2000.0).run()
    wl_args = dict(gflop_per_sample=fl.WORKLOADS["resnet50"].gflop_per_sample,
                   mb_per_sample=fl.WORKLOADS["resnet50"].mb_per_sample, efficiency=0.5, overhead_ms=2.0,
                   pipeline_us=2000.0)
    hw = fl.hardware_preset("a100_40gb")
    for prefetch, mixed in ((False, False), (True, False), (True, True)):
        at.toggle(key="fl_tp_prefetch").set_value(prefetch).run()
        at.toggle(key="fl_tp_mixed").set_value(mixed).run()
        assert not at.exception
        tc, tt = fl.step_times(64, hw, fl.Workload(**wl_args), mixed)
        expected = fl.step_throughput(64, tc, tt, prefetch)
        assert _metric(at, "formula_lab.tp.result") == fl.fmt(expected)
        assert _metric(at, "formula_lab.tp.t_compute") == fl.fmt(tc * 1e3)
        assert _metric(at, "formula_lab.tp.t_transfer") == fl.fmt(tt * 1e3)
    # transfer-bound at 2 ms per sample of input pipeline: prefetch made a difference
    assert fl.step_throughput(64, tc, tt, True) > fl.step_throughput(64, tc, tt, False)
    curve = next(c for c in _charts(at) if c["layout"]["xaxis"]["type"] == "log")
    assert curve["layout"]["xaxis"]["title"]["text"] == i18n.t("formula_lab.tp.axis_batch", "en")


def test_workload_preset_fills_its_numbers(app_test):
    at = _open(app_test, "throughput")
    at.selectbox(key="fl_tp_workload").set_value("bert_base").run()
    assert at.number_input(key="fl_tp_gflop").value == pytest.approx(84.48)
    assert at.number_input(key="fl_tp_mb").value == pytest.approx(0.001536)


def test_per_op_fusion_saving_equals_the_core(app_test):
    at = _open(app_test, "per_op_time")
    rec = fl.recorded_ops()
    ops = rec.op_lists["mlp_64"].ops
    assert _metric(at, "formula_lab.po.saved") == "0"
    at.toggle(key="fl_po_fusion").set_value(True).run()
    at.selectbox(key="fl_po_op").set_value("Gelu").run()
    assert not at.exception
    plain = fl.op_list_times(ops, rec.dispatch_us, rec.sync_us)
    fused = fl.op_list_times(ops, rec.dispatch_us, rec.sync_us, fusion=True)
    assert _metric(at, "formula_lab.po.saved") == fl.fmt((plain.total_s - fused.total_s) * 1e6)
    assert _metric(at, "formula_lab.po.list_total") == fl.fmt(fused.total_s * 1e6)
    group = next(b for b in fused.bars if "Gelu" in b.members)
    assert group.name == "BiasAdd 1 + Gelu"
    assert _metric(at, "formula_lab.po.op_total", op="Gelu") == fl.fmt(group.time.total_s * 1e6)
    bars = _charts(at)[0]
    assert len(bars["data"]) == 3 and bars["layout"]["barmode"] == "stack"


def test_coverage_model_choice_changes_r(app_test):
    at = _open(app_test, "coverage")
    models, _ = fl.example_models()
    for model in models[:2]:
        at.selectbox(key="fl_cv_model").set_value(model).run()
        assert not at.exception
        result = fl.model_coverage(model, "rocm-2.14")
        assert _metric(at, "formula_lab.cv.result") == fl.fmt(result.ratio)
        assert any(fl.latex_coverage(result) in x.value for x in at.latex)


def test_compatible_shows_which_factor_is_zero_and_why(app_test):
    at = _open(app_test, "compatible")
    assert _metric(at, "formula_lab.cp.result") == "1"
    at.selectbox(key="fl_cp_rocm").set_value("6.3.x").run()
    assert not at.exception
    check = fl.compat_check("6.4", "6.3.x", "2.18.1")
    assert _metric(at, "formula_lab.cp.result") == str(check.result.value) == "0"
    why = i18n.t("formula_lab.cp.why.rocm_fail", "en", installed="6.3.x", minimum="6.4.x")
    assert any(why in e.value for e in at.error)
    assert any(fl.latex_compatible(check) in x.value for x in at.latex)
    # the options are the matrix's own versions
    assert at.selectbox(key="fl_cp_rocm").options == fl.compat_choices()["rocm"]


def test_deep_link_reproduces_the_view(app_test):
    query = dict(fl_tp_hw="h200", fl_tp_batch="512", fl_tp_prefetch="True", fl_tp_mixed="True",
                 fl_tp_eff="40", fl_tp_pipeline="300")
    at = _open(app_test, "throughput", lang="zh", **query)
    assert at.selectbox(key="fl_tp_hw").value == "h200"
    assert at.number_input(key="fl_tp_batch").value == 512
    assert at.toggle(key="fl_tp_prefetch").value is True and at.toggle(key="fl_tp_mixed").value is True
    wl = fl.Workload(fl.WORKLOADS["resnet50"].gflop_per_sample, fl.WORKLOADS["resnet50"].mb_per_sample, 0.4, 2.0,
                     300.0)
    tc, tt = fl.step_times(512, fl.hardware_preset("h200"), wl, mixed=True)
    assert _metric(at, "formula_lab.tp.result", "zh") == fl.fmt(fl.step_throughput(512, tc, tt, prefetch=True))
    # the URL keeps every input, so the link shown reopens the same state
    q = _query(at)
    for key, value in query.items():
        assert float(q[key]) == float(value) if value[0].isdigit() else q[key] == value
    link = at.code[-1].value
    assert "fl_formula=throughput" in link and "fl_tp_batch=512" in link and "lang=zh" in link


def test_a_link_to_another_formula_and_back(app_test):
    at = _open(app_test, "speedup", fl_sp_before="30", fl_sp_after="10")
    assert _metric(at, "formula_lab.sp.result") == "3"
    at.segmented_control(key="fl_formula").set_value("coverage").run()
    assert not at.exception and _query(at)["fl_formula"] == "coverage"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_zero_after_shows_the_translated_zero_message(app_test, lang):
    at = _open(app_test, "speedup", lang, fl_sp_after="0")
    # the message names the field as the learner sees it, never the Python parameter (t_after_s)
    message = i18n.t("errors.zero", lang, name=md_escape(i18n.t("formula_lab.sp.after", lang)))
    assert any(message in e.value for e in at.error)
    assert not at.metric


@pytest.mark.parametrize(
    "query, key, label_key, params",
    [
        ({"fl_sp_before": "-5"}, "errors.negative", "formula_lab.sp.before", {"value": "-5"}),
        ({"fl_sp_after": "nan"}, "errors.not_finite", "formula_lab.sp.after", {"value": "nan"}),
        ({"fl_sp_part": "250"}, "formula_lab.errors.out_of_range", "formula_lab.sp.part",
         {"value": "250", "lo": "0", "hi": "100"}),
        ({"fl_sp_before": "ten"}, "errors.not_a_number", "formula_lab.sp.before", {"value": "ten"}),
    ],
)
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_bad_link_values_fall_back_with_a_translated_message(app_test, query, key, label_key, params, lang):
    at = _open(app_test, "speedup", lang, **query)
    shown = " ".join(w.value for w in at.warning).replace("\\", "")  # Markdown escapes of the quoted text
    assert i18n.t(key, lang, name=i18n.t(label_key, lang), **params) in shown
    assert i18n.t("formula_lab.used_default", lang) in shown
    assert _metric(at, "formula_lab.sp.result", lang) == fl.fmt(formulas.speedup(12.0, 8.0))  # defaults


@pytest.mark.parametrize(
    "formula, query",
    [
        ("throughput", {"fl_tp_batch": "nan", "fl_tp_hw": "<b>x</b>", "fl_tp_prefetch": "perhaps"}),
        ("throughput", {"fl_tp_batch": "0", "fl_tp_eff": "0"}),
        ("per_op_time", {"fl_po_dispatch": "-1", "fl_po_list": "nope", "fl_po_op": "Conv9D"}),
        ("coverage", {"fl_cv_model": "../../etc/passwd", "fl_cv_mb": "inf"}),
        ("compatible", {"fl_cp_rocm": "99.9", "fl_cp_tf": "", "fl_cp_driver": "6.4;drop"}),
        ("nonsense", {}),
    ],
)
def test_garbage_links_never_raise(app_test, formula, query):
    at = app_test(PAGE, lang="zh", fl_formula=formula, **query)
    assert not at.exception, [e.value for e in at.exception]
    for text in [w.value for w in at.warning] + [e.value for e in at.error]:
        assert "Traceback" not in text and "<b>" not in text  # the link's text is shown escaped


def test_zero_efficiency_gives_the_zero_message(app_test):
    at = _open(app_test, "throughput", fl_tp_eff="0")
    label = md_escape(i18n.t("formula_lab.tp.efficiency", "en"))  # the field as shown, not the parameter name
    assert any(i18n.t("errors.zero", "en", name=label) in e.value for e in at.error)


MEASUREMENT = HostMeasurement(
    device_name="AMD Instinct MI210", vendor="AMD", backend="torch", backend_version="2.5",
    measured_at="2026-11-29T10:00:00", matmul_tflops={"fp32": 40.0, "fp16": 150.0}, h2d_pinned_gbs=24.0,
    dispatch_us=6.0,
)


def _open_with_measurement(formula: str, **query: str):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"), default_timeout=30)
    for key, value in dict(lang="en", fl_formula=formula, **query).items():
        at.query_params[key] = value
    at.session_state[SESSION_KEY] = MEASUREMENT
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_your_machine_preset_appears_with_a_measurement():
    at = _open_with_measurement("throughput", fl_tp_hw="host")
    box = at.selectbox(key="fl_tp_hw")
    assert box.options[0].startswith(i18n.t("formula_lab.preset.host_tag", "en"))
    assert box.value == "host"
    host = fl.host_preset(MEASUREMENT)
    wl = fl.Workload(fl.WORKLOADS["resnet50"].gflop_per_sample, fl.WORKLOADS["resnet50"].mb_per_sample, 0.5, 2.0)
    tc, tt = fl.step_times(256, host, wl)
    assert _metric(at, "formula_lab.tp.result") == fl.fmt(fl.step_throughput(256, tc, tt))
    assert any(i18n.t("common.measured_here", "en") in c.value for c in at.caption)


def test_per_op_can_use_the_measured_dispatch():
    at = _open_with_measurement("per_op_time")
    at.button(key="fl_po_use_host").click().run()
    assert not at.exception
    assert at.number_input(key="fl_po_dispatch").value == 6.0 and at.number_input(key="fl_po_sync").value == 0.0
    ops = fl.recorded_ops().op_lists["mlp_64"].ops
    assert _metric(at, "formula_lab.po.list_total") == fl.fmt(fl.op_list_times(ops, 6.0, 0.0).total_s * 1e6)
    assert _query(at)["fl_po_dispatch"] == "6.0"


@pytest.mark.parametrize(
    "page, formula, key",
    [
        ("views/ch2_environment.py", "compatible", "ch2_cp_rocm"),
        ("views/ch3_operators.py", "per_op_time", "ch3_po_list"),
        ("views/ch4_tuning.py", "throughput", "ch4_tp_batch"),
        ("views/ch5_migration.py", "coverage", "ch5_cv_model"),
        ("views/ch6_toolchain.py", "speedup", "ch6_sp_before"),
    ],
)
def test_chapters_embed_the_widgets_under_their_own_prefix(app_test, page, formula, key):
    chapter = key.split("_")[0]
    text = (Path(__file__).resolve().parents[2] / "content" / "en" / f"{chapter}.md").read_text(encoding="utf-8")
    if f"::: widget formula:{formula}" not in text:
        pytest.skip(f"content/en/{chapter}.md no longer embeds the {formula} widget")
    at = app_test(page, lang="en")
    assert not at.exception
    assert key in _query(at), f"{key} not in the URL of {page}"
    assert not any(k.startswith("fl_") for k in _query(at))


def test_embedded_widget_result_equals_the_core(app_test):
    at = app_test("views/ch6_toolchain.py", lang="en")
    at.number_input(key="ch6_sp_after").set_value(3.0).run()
    assert not at.exception
    assert _metric(at, "formula_lab.sp.result") == fl.fmt(formulas.speedup(12.0, 3.0))
    assert _query(at)["ch6_sp_after"] == "3.0"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_typed_value_above_the_maximum_is_used_as_the_maximum_and_said(app_test, lang):
    at = _open(app_test, "speedup", lang)
    at.number_input(key="fl_sp_part").set_value(250.0).run()
    assert not at.exception
    label = i18n.t("formula_lab.sp.part", lang)
    expected = i18n.t("formula_lab.clamped", lang, name=label, typed="250", used="100", lo="0", hi="100")
    assert expected in [w.value for w in at.warning]
    # the Amdahl view really uses 100 %: the whole time is the optimised part, so no ceiling below infinity
    view = fl.amdahl_view(12.0, 8.0, 1.0)
    assert _metric(at, "formula_lab.sp.result", lang) == fl.fmt(formulas.speedup(12.0, 8.0))
    assert any(fl.latex_amdahl(view) in el.value for el in at.latex)


def test_large_numbers_are_shown_in_proper_notation(app_test):
    at = _open(app_test, "throughput", fl_tp_batch="60000", fl_tp_gflop="20000")
    assert not at.exception
    latex = " ".join(el.value for el in at.latex)
    assert "e+" not in latex and "e-" not in latex
    assert "e+" not in " ".join(m.value for m in at.metric)


def test_per_op_legend_follows_the_bars_and_the_launch_line_reads_without_fusion(app_test):
    at = _open(app_test, "per_op_time")
    chart = _charts(at)[0]
    assert [t["name"] for t in chart["data"]] == [i18n.t(f"formula_lab.po.part_{p}", "en")
                                                  for p in ("dispatch", "kernel", "sync")]
    assert chart["layout"]["legend"]["traceorder"] == "normal"
    n = len(fl.recorded_ops().op_lists[next(iter(fl.recorded_ops().op_lists))].ops)
    assert i18n.t("formula_lab.po.launches_plain", "en", n=n) in [c.value for c in at.caption]
    assert not any("HIP None" in c.value for c in at.caption)


def test_compatible_heatmap_marks_every_cell_and_has_a_legend(app_test):
    at = _open(app_test, "compatible")
    heat = next(t for t in _charts(at)[0]["data"] if t["type"] == "heatmap")
    grid = fl.compat_grid("6.4")
    marks = {1: "✓", 0: "✗", None: ""}
    assert heat["text"] == [[marks[v] for v in row] for row in grid.values]
    assert heat.get("showscale", True) and len(heat["colorbar"]["ticktext"]) == 2
    assert heat["colorbar"]["ticktext"][1].startswith("✓")
    picked = next(t for t in _charts(at)[0]["data"] if t["type"] == "scatter")
    assert picked["marker"]["symbol"] != "x"  # a cross on a compatible cell read as "fails"
