"""The Formula lab's models: presets from data, fusion, prefetch, mixed precision, coverage cost, Amdahl,
Compatible from the matrix. Expected numbers are worked out by hand from the data files."""

from __future__ import annotations

import csv
import json
import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rocm_bridge import formulas
from rocm_bridge.data import DATA_DIR
from rocm_bridge.errors import InvalidInput
from rocm_bridge.formulas import lab as fl
from rocm_bridge.hardware.measured import HostMeasurement
from rocm_bridge.i18n import LANGS, has

positive = st.floats(min_value=1e-6, max_value=1e4, allow_nan=False, allow_infinity=False)


def _gpu_rows() -> dict[str, dict[str, str]]:
    with (DATA_DIR / "gpu_specs.csv").open(newline="", encoding="utf-8") as fh:
        return {row["model"]: row for row in csv.DictReader(fh)}


# --- query-value parsing ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, key",
    [
        ("nan", "errors.not_finite"),
        ("inf", "errors.not_finite"),
        ("-3", "errors.negative"),
        ("abc", "errors.not_a_number"),
        ("", "errors.not_a_number"),
        ("101", "formula_lab.errors.out_of_range"),
    ],
)
def test_parse_number_rejects_bad_link_values_with_catalog_keys(raw, key):
    with pytest.raises(InvalidInput) as info:
        fl.parse_number(raw, "share", 0, 100)
    assert info.value.key == key and has(key)
    assert all("{" not in info.value.message(lang) for lang in LANGS)


def test_parse_number_choice_and_bool():
    assert fl.parse_number(" 12.5 ", "t", 0, 100) == 12.5
    assert fl.parse_number("-2", "offset", -5, 5) == -2.0  # negative is fine where the range allows it
    assert fl.parse_choice("mi250_gcd", "preset", fl.PRESET_KEYS) == "mi250_gcd"
    with pytest.raises(InvalidInput):
        fl.parse_choice("<script>", "preset", fl.PRESET_KEYS)
    assert fl.parse_bool("True", "x") is True and fl.parse_bool("0", "x") is False
    with pytest.raises(InvalidInput):
        fl.parse_bool("maybe", "x")


# --- hardware presets -------------------------------------------------------------------------------------


def test_presets_take_their_peaks_from_gpu_specs():
    rows = _gpu_rows()
    mi250 = fl.hardware_preset("mi250_gcd")
    assert mi250.fp32_tflops == pytest.approx(float(rows["Instinct MI250"]["fp32_matrix_or_tf32_tflops"]) / 2)
    assert mi250.fp16_tflops == pytest.approx(float(rows["Instinct MI250"]["fp16_tflops"]) / 2)
    a100 = fl.hardware_preset("a100_40gb")
    assert (a100.fp32_tflops, a100.fp16_tflops) == (156.0, 312.0)  # TF32 and FP16 dense, A100 datasheet
    h200 = fl.hardware_preset("h200")
    assert (h200.fp32_tflops, h200.fp16_tflops) == (494.7, 989.4)
    assert fl.hardware_preset("mi250x_frontier").fp16_tflops == pytest.approx(383.0 / 2)


def test_every_link_figure_is_quoted_from_the_interconnect_column():
    rows = _gpu_rows()
    for key in fl.PRESET_KEYS:
        preset = fl.hardware_preset(key)
        quoted = fl.link_quotes(key)
        assert quoted, key
        for model, quote in quoted:
            assert quote in rows[model]["interconnect"], (key, model, quote)
        # the figure follows from the last quote: "X+Y GB/s" is X per direction, a bare "Z GB/s" both ways, and a
        # bare "PCIe GenN xW" is the PCIe signalling rate (GT/s per lane: Gen3 8, Gen4 16, Gen5 32) x W lanes / 8
        text = quoted[-1][1]
        pair = re.search(r"(\d+)\+(\d+) GB/s", text)
        bare = re.search(r"(\d+) GB/s", text)
        pcie = re.search(r"PCIe Gen(\d) x(\d+)", text)
        if pair:
            per_direction = float(pair.group(1))
        elif bare:
            per_direction = float(bare.group(1)) / 2
        else:
            per_direction = {3: 8, 4: 16, 5: 32}[int(pcie.group(1))] * int(pcie.group(2)) / 8
        assert preset.link_gbs == per_direction, key
        # a preset's link is sourced from its own GPU's row (or says why not), never from another vendor's part
        assert all(model.split()[0] in (preset.label.split()[1], "H100") for model, _ in quoted), (key, quoted)
        assert preset.sources and all(preset.sources)
        assert not preset.note_key or has(preset.note_key)


def test_unknown_preset_is_an_invalid_input():
    with pytest.raises(InvalidInput):
        fl.hardware_preset("gtx-9000")


def _measurement(**changes) -> HostMeasurement:
    base = dict(
        device_name="AMD Instinct MI210", vendor="AMD", backend="torch", backend_version="2.5",
        measured_at="2026-11-29T10:00:00", matmul_tflops={"fp32": 40.0, "fp16": 150.0},
        h2d_pinned_gbs=24.0, dispatch_us=6.0,
    )
    base.update(changes)
    return HostMeasurement(**base)


def test_host_preset_from_a_measurement():
    host = fl.host_preset(_measurement())
    assert host is not None and host.key == fl.HOST_PRESET
    assert (host.fp32_tflops, host.fp16_tflops, host.link_gbs) == (40.0, 150.0, 24.0)
    assert host.measured and not host.recorded
    assert list(fl.presets(_measurement())) == [fl.HOST_PRESET, *fl.PRESET_KEYS]
    assert fl.host_preset(_measurement(recorded=True)).recorded
    # bf16 stands in for fp16, pageable for pinned
    alt = fl.host_preset(_measurement(matmul_tflops={"tf32": 80.0, "bf16": 160.0}, h2d_pinned_gbs=None,
                                      h2d_pageable_gbs=6.5))
    assert (alt.fp32_tflops, alt.fp16_tflops, alt.link_gbs) == (80.0, 160.0, 6.5)


@pytest.mark.parametrize(
    "changes", [{"matmul_tflops": {}}, {"matmul_tflops": {"fp32": 40.0}}, {"h2d_pinned_gbs": None}]
)
def test_host_preset_needs_rates_and_a_link(changes):
    assert fl.host_preset(_measurement(**changes)) is None
    assert fl.host_preset(None) is None
    assert list(fl.presets(_measurement(**changes))) == list(fl.PRESET_KEYS)


# --- per-op time and fusion -------------------------------------------------------------------------------


def test_recorded_op_times_file():
    raw = json.loads((DATA_DIR / "formula_lab_recorded.json").read_text(encoding="utf-8"))
    assert raw["source"] and raw["device"] and raw["measured_at"]
    rec = fl.recorded_ops()
    assert rec.dispatch_us > 0 and rec.sync_us >= 0
    for op_list in rec.op_lists.values():
        assert op_list.ops and all(op.kernel_us > 0 for op in op_list.ops)
        fused = fl.op_list_times(op_list.ops, rec.dispatch_us, rec.sync_us, fusion=True)
        # every measured fused kernel corresponds to a group the model forms
        names = {b.name for b in fused.bars if b.fused}
        assert set(op_list.fused_kernel_us) == names
        assert len(fl.measured_fusion_kernels(op_list, fused)) == len(names)
    # launch-bound small list: dispatch + sync exceed every element-wise kernel
    small = rec.op_lists["mlp_64"]
    assert all(op.kernel_us < rec.dispatch_us + rec.sync_us for op in small.ops if op.fusible)


def test_fusion_merges_runs_of_fusible_ops():
    ops = [
        fl.Op("MatMul", 20.0), fl.Op("BiasAdd", 2.0, True), fl.Op("Gelu", 1.5, True),
        fl.Op("MatMul2", 18.0), fl.Op("Add", 1.0, True), fl.Op("LayerNorm", 3.0, True), fl.Op("Mul", 1.0, True),
    ]
    plain = fl.op_list_times(ops, dispatch_us=10.0, sync_us=5.0)
    fused = fl.op_list_times(ops, dispatch_us=10.0, sync_us=5.0, fusion=True)
    assert plain.launches == 7 and fused.launches == 4
    assert [b.name for b in fused.bars] == ["MatMul", "BiasAdd + Gelu", "MatMul2", "Add + LayerNorm + Mul"]
    # 7 launches x 15 us + 46.5 us kernels = 151.5; fused saves 3 x 15 = 45
    assert plain.total_s == pytest.approx(151.5e-6)
    assert fused.saved_s == pytest.approx(45e-6)
    assert fused.total_s == pytest.approx(106.5e-6)
    assert not plain.saved_s


@given(
    kernels=st.lists(st.tuples(st.floats(0, 1e4), st.booleans()), min_size=1, max_size=20),
    d=st.floats(0, 100), s=st.floats(0, 100),
)
def test_fusion_saves_exactly_the_merged_launches(kernels, d, s):
    ops = [fl.Op(f"op{i}", k, f) for i, (k, f) in enumerate(kernels)]
    plain = fl.op_list_times(ops, d, s)
    fused = fl.op_list_times(ops, d, s, fusion=True)
    kernel_sum = sum(k for k, _ in kernels) * 1e-6
    assert sum(b.time.kernel_s for b in fused.bars) == pytest.approx(kernel_sum, abs=1e-12)
    assert fused.saved_s == pytest.approx((len(ops) - fused.launches) * (d + s) * 1e-6, abs=1e-12)
    assert fused.total_s <= plain.total_s + 1e-15


def test_op_list_errors():
    with pytest.raises(InvalidInput):
        fl.op_list_times([], 1.0, 1.0)
    with pytest.raises(InvalidInput):
        fl.op_list_times([fl.Op("x", 1.0)], -1.0, 1.0)
    with pytest.raises(InvalidInput):
        fl.op_list_times([fl.Op("x", float("nan"))], 1.0, 1.0)


# --- throughput -----------------------------------------------------------------------------------------


HW = fl.HardwarePreset("t", "test GPU", "AMD", 50.0, 200.0, "link", 25.0, ("test",))


def test_step_times_worked_example():
    # 128 samples x 20 GFLOP / (50 TFLOP/s x 0.5) = 102.4 ms + 1 ms overhead;
    # 128 x 2 MB / 25 GB/s = 10.24 ms + 128 x 100 us pipeline = 12.8 ms -> 23.04 ms
    wl = fl.Workload(gflop_per_sample=20.0, mb_per_sample=2.0, efficiency=0.5, overhead_ms=1.0, pipeline_us=100.0)
    tc, tt = fl.step_times(128, HW, wl)
    assert tc == pytest.approx(0.1034) and tt == pytest.approx(0.02304)
    tc16, tt16 = fl.step_times(128, HW, wl, mixed=True)
    assert tc16 == pytest.approx(0.001 + 0.1024 / 4) and tt16 == tt  # FP16 peak is 4x; transfer unchanged
    assert fl.step_throughput(128, tc, tt) == pytest.approx(128 / (0.1034 + 0.02304))
    assert fl.step_throughput(128, tc, tt, prefetch=True) == pytest.approx(128 / 0.1034)
    assert fl.bound_by(tc, tt) == "compute" and fl.bound_by(0.01, 0.02) == "transfer"


@given(batch=positive, tc=positive, tt=positive)
def test_prefetch_never_hurts_and_respects_both_bounds(batch, tc, tt):
    plain = fl.step_throughput(batch, tc, tt)
    overlapped = fl.step_throughput(batch, tc, tt, prefetch=True)
    assert plain <= overlapped * (1 + 1e-12)
    assert overlapped <= batch / tc * (1 + 1e-12) and overlapped <= batch / tt * (1 + 1e-12)
    assert overlapped <= 2 * plain * (1 + 1e-12)  # overlap at best halves the step


@given(gflop=positive, mb=positive, eff=st.floats(0.01, 1.0), overhead=st.floats(0.001, 100.0),
       mixed=st.booleans(), prefetch=st.booleans())
def test_curve_rises_with_batch_and_stays_under_its_ceiling(gflop, mb, eff, overhead, mixed, prefetch):
    wl = fl.Workload(gflop, mb, eff, overhead)
    curve = fl.throughput_curve(HW, wl, mixed=mixed, prefetch=prefetch)
    values = [p.throughput for p in curve]
    assert all(b >= a * (1 - 1e-9) for a, b in zip(values, values[1:], strict=False))
    ceiling = fl.throughput_ceiling(HW, wl, mixed=mixed, prefetch=prefetch)
    assert all(v <= ceiling * (1 + 1e-9) for v in values)
    for p in curve:
        assert p.throughput <= p.batch / p.t_compute_s * (1 + 1e-9)


def test_mixed_precision_speeds_up_compute_by_the_preset_ratio():
    wl = fl.Workload(22.8, 0.150528, 0.5, 0.0)
    for key in fl.PRESET_KEYS:
        hw = fl.hardware_preset(key)
        tc, _ = fl.step_times(256, hw, wl)
        tc16, _ = fl.step_times(256, hw, wl, mixed=True)
        assert tc / tc16 == pytest.approx(hw.mixed_factor)
    assert fl.hardware_preset("mi250_gcd").mixed_factor == pytest.approx(362.1 / 90.5)
    assert fl.hardware_preset("a100_40gb").mixed_factor == pytest.approx(2.0)


def test_workload_presets_match_their_stated_derivations():
    assert fl.WORKLOADS["resnet50"].gflop_per_sample == pytest.approx(22.8)
    assert fl.WORKLOADS["resnet50"].mb_per_sample == pytest.approx(0.150528)
    assert fl.WORKLOADS["bert_base"].gflop_per_sample == pytest.approx(84.48)
    assert fl.WORKLOADS["bert_base"].mb_per_sample == pytest.approx(0.001536)
    assert all(has(w.source_key) for w in fl.WORKLOADS.values())


@pytest.mark.parametrize(
    "wl, batch",
    [
        (fl.Workload(1.0, 1.0, 0.0, 0.0), 8),  # zero efficiency
        (fl.Workload(1.0, 1.0, 1.5, 0.0), 8),  # above 100 %
        (fl.Workload(-1.0, 1.0, 0.5, 0.0), 8),
        (fl.Workload(1.0, float("nan"), 0.5, 0.0), 8),
        (fl.Workload(1.0, 1.0, 0.5, 0.0), 0),
    ],
)
def test_step_times_reject_bad_inputs(wl, batch):
    with pytest.raises(InvalidInput):
        fl.step_times(batch, HW, wl)


def test_zero_step_time_is_an_error_not_infinity():
    with pytest.raises(InvalidInput):
        fl.step_throughput(8, 0.0, 0.0, prefetch=True)
    with pytest.raises(InvalidInput):
        fl.step_throughput(8, 0.0, 0.0)


# --- coverage -------------------------------------------------------------------------------------------


def test_coverage_of_counts_distinct_types():
    r = fl.coverage_of(["A", "B", "A", "C"], {"A", "C"}, calls={"A": 2, "B": 3, "C": 1})
    assert (r.n_supported, r.n_total, r.uncovered, r.uncovered_calls) == (2, 3, ("B",), 3)
    assert r.ratio == pytest.approx(2 / 3)
    with pytest.raises(InvalidInput):
        fl.coverage_of([], set())


def test_bf16_model_has_relu_gaps_on_rocm_but_not_on_cuda():
    """The ROCm 2.14 build has no bfloat16 GPU kernel for Relu (data/tf_kernel_registry/README.md)."""
    models, source = fl.example_models()
    if "cnn_mixed_bf16" not in models:
        pytest.skip("rocm_bridge.coverage's example op lists are not available: the fallback list is tested below")
    rocm = fl.model_coverage("cnn_mixed_bf16", "rocm-2.14")
    assert {"Relu", "ReluGrad"} <= set(rocm.uncovered)
    assert all(rocm.statuses[o] == "dtype_gap" for o in ("Relu", "ReluGrad"))
    assert 0 < rocm.ratio < 1 and rocm.uncovered_calls >= 2
    assert "Relu" not in fl.model_coverage("cnn_mixed_bf16", "cuda-2.14").uncovered
    assert "example_model_ops.json" in source


def test_fallback_op_lists_against_the_rocm_snapshot(monkeypatch):
    monkeypatch.setattr(fl, "_coverage_package", lambda: None)
    fl.model_coverage.cache_clear()
    try:
        models, source = fl.example_models()
        assert models == tuple(fl.FALLBACK_OP_LISTS) and source == fl.FALLBACK_SOURCE
        text = fl.model_coverage("text_pipeline")
        # string ops run on the CPU only in TensorFlow; MatMul and Softmax have GPU kernels
        assert set(text.uncovered) == {"StringSplit", "StringToHashBucketFast"}
        assert text.ratio == pytest.approx(3 / 5)
        assert fl.model_coverage("small_cnn").ratio == 1.0
        with pytest.raises(InvalidInput):
            fl.model_coverage("nope")
    finally:
        fl.model_coverage.cache_clear()


def test_unknown_target_is_rejected():
    with pytest.raises(InvalidInput):
        fl.model_coverage("small_cnn", "rocm-9.99")


def test_fallback_cost_worked_example():
    # 2 x 64 MB over 32 GB/s = 4 ms per call, + 8 us sync; 5 calls = 20.04 ms
    cost = fl.fallback_cost(tensor_mb=64, link_gbs=32, sync_us=8, calls=5)
    assert cost.copy_s == pytest.approx(4e-3)
    assert cost.per_call_s == pytest.approx(4.008e-3)
    assert cost.per_step_s == pytest.approx(20.04e-3)
    with pytest.raises(InvalidInput):
        fl.fallback_cost(1, 0, 1, 1)


# --- speedup and Amdahl ----------------------------------------------------------------------------------


def test_amdahl_view_worked_example():
    # 20 s before, 80 % optimised -> 4 s untouched; 10 s after -> part went 16 s -> 6 s: 2.667x; ceiling 5x
    v = fl.amdahl_view(20.0, 10.0, 0.8)
    assert v.speedup == pytest.approx(2.0)
    assert (v.untouched_s, v.part_before_s, v.part_after_s) == pytest.approx((4.0, 16.0, 6.0))
    assert v.local_speedup == pytest.approx(16 / 6)
    assert v.ceiling == pytest.approx(5.0)
    assert fl.amdahl_view(10.0, 5.0, 1.0).ceiling == math.inf


@pytest.mark.parametrize("before, after, p", [(10.0, 3.0, 0.5), (10.0, 5.0, 0.0), (10.0, 2.0, 0.8)])
def test_amdahl_view_rejects_an_after_below_the_untouched_part(before, after, p):
    with pytest.raises(InvalidInput) as info:
        fl.amdahl_view(before, after, p)
    assert info.value.key == "formula_lab.errors.after_below_untouched"


@given(p=st.floats(0.01, 0.99), s=st.floats(1.0, 1e4), before=st.floats(0.01, 1e4))
def test_amdahl_view_inverts_amdahls_law(p, s, before):
    after = before * ((1 - p) + p / s)
    v = fl.amdahl_view(before, after, p)
    assert v.local_speedup == pytest.approx(s, rel=1e-6)
    assert v.speedup == pytest.approx(formulas.amdahl_speedup(p, s), rel=1e-9)
    assert v.speedup <= v.ceiling * (1 + 1e-9)


def test_amdahl_curve():
    curve = fl.amdahl_curve(0.5, fl.LOCAL_SPEEDUPS)
    assert curve[0] == (1.0, 1.0)
    assert all(b[1] >= a[1] for a, b in zip(curve, curve[1:], strict=False))
    assert curve[-1][1] < 2.0


# --- compatible from the matrix ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "driver, rocm, tf, failing, minimums",
    [
        # ROCm 6.4.x lists TF 2.18.1, 2.17.1, 2.16.2 and drivers 6.4.x ... 6.1.x
        ("6.4", "6.4.x", "2.18.1", [], {"driver": "6.1", "rocm": "6.4.x", "tensorflow": "2.16.2"}),
        # TF 2.18.1 first appears with ROCm 6.4.x
        ("6.4", "6.3.x", "2.18.1", ["rocm"], {"rocm": "6.4.x", "tensorflow": "2.15.1"}),
        # ROCm 7.2.x lists TF 2.20.0, 2.19.1, 2.18.1 and drivers 30.30.x ... 6.4.x
        ("30.10", "7.2.x", "2.16.2", ["tensorflow"], {"driver": "6.4", "tensorflow": "2.18.1"}),
        ("6.3", "7.2.x", "2.19.1", ["driver"], {"driver": "6.4", "rocm": "7.0.x"}),
    ],
)
def test_compat_check_takes_minimums_from_the_matrix(driver, rocm, tf, failing, minimums):
    check = fl.compat_check(driver, rocm, tf)
    assert [i.name for i in check.result.failing] == failing
    assert check.result.value == int(not failing)
    for name, value in minimums.items():
        assert check.minimums[name] == value, name
    assert all(check.sources[n] for n in ("rocm",))


def test_compat_check_leaves_out_unsourced_minimums():
    check = fl.compat_check("6.4", "5.7.x", "2.13")  # the 5.x rows list no amdgpu driver
    assert check.unsourced == ("driver",)
    assert [i.name for i in check.result.indicators] == ["rocm", "tensorflow"]


@pytest.mark.parametrize("args", [("", "6.4.x", "2.18.1"), ("6.4", "six", "2.18.1"), ("6.4", "6.4.x", "9.99")])
def test_compat_check_bad_versions(args):
    with pytest.raises(InvalidInput):
        fl.compat_check(*args)


def test_compat_choices_are_real_versions_and_the_grid_agrees_with_the_check():
    choices = fl.compat_choices()
    assert "6.4.x" in choices["rocm"] and "2.18.1" in choices["tensorflow"] and "6.4" in choices["driver"]
    grid = fl.compat_grid("6.4")
    assert len(grid.values) == len(grid.rocm) and all(len(r) == len(grid.tensorflow) for r in grid.values)
    i, j = grid.rocm.index("6.4.x"), grid.tensorflow.index("2.18.1")
    assert grid.values[i][j] == 1
    assert grid.values[grid.rocm.index("6.3.x")][j] == 0
    for r_i, rocm in enumerate(grid.rocm[:6]):
        for t_j, tf in enumerate(grid.tensorflow[-8:], start=len(grid.tensorflow) - 8):
            assert grid.values[r_i][t_j] == fl.compat_check("6.4", rocm, tf).result.value


# --- LaTeX with the numbers substituted -------------------------------------------------------------------


def test_latex_shows_the_numbers_and_the_result():
    t_op = formulas.per_op_time(9.5e-6, 19.05e-6, 7.57e-6)
    assert fl.latex_per_op(t_op).endswith(r"= 36.12\ \mu\mathrm{s}")
    assert r"\frac{256}{(100 + 20)\ \mathrm{ms}} = 2133" in fl.latex_throughput(256, 0.1, 0.02, False, 2133.3)
    assert r"\max(100,\ 20)" in fl.latex_throughput(256, 0.1, 0.02, True, 2560.0)
    assert fl.latex_coverage(fl.coverage_of("ABC", "AB")).endswith(r"\frac{2}{3} = 0.6667")
    assert fl.latex_speedup(12.0, 8.0, 1.5).endswith("= 1.5")
    check = fl.compat_check("6.4", "6.3.x", "2.18.1")
    assert fl.latex_compatible(check).endswith("= 0")
    assert r"\texttt{6.3.x} \ge \texttt{6.4.x}" in fl.latex_compatible(check)


def test_fmt():
    assert fl.fmt(2560.0) == "2560" and fl.fmt(0.1505) == "0.1505" and fl.fmt(1234567.0) == "1.235 × 10⁶" and fl._g(1234567.0) == r"1.235 \times 10^{6}"
    assert fl.fmt(0) == "0" and fl.fmt(math.inf) == "∞" and fl._g(math.inf) == r"\infty"
