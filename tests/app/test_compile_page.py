"""AppTest of the compile lab: compile an example and see diagnostics on the line with explanations, resources
and occupancy; without a compiler (ROCM_BRIDGE_COMPILE=off) the recorded result is shown, labelled; the hipify
page's expander compiles its HIP output; the chapter widget name is registered."""

from __future__ import annotations

import pytest

from rocm_bridge import i18n
from rocm_bridge.compile import examples, toolchain

PAGE = "views/compile.py"
needs_hipcc = pytest.mark.skipif(toolchain.hipcc() is None, reason="hipcc not installed (.ci/run installs it)")


def _click(at, key):
    next(b for b in at.button if b.key == key).click().run()
    assert not at.exception, [e.value for e in at.exception]


@needs_hipcc
def test_compile_broken_example_shows_diagnostics_on_the_line(app_test):
    at = app_test(PAGE, cl_ex="broken_lane_mask")
    _click(at, "cl_go")
    annotated = next(c.value for c in at.code if "^ warning" in c.value)
    lines = annotated.splitlines()
    i = next(n for n, ln in enumerate(lines) if "__ballot(" in ln)
    assert lines[i + 1].lstrip().startswith("^ warning: implicit conversion loses integer precision")
    labels = [e.label for e in at.expander]
    assert any(i18n.t("compile.explain.lane_mask_32.title", "en") in lb for lb in labels)
    body = i18n.t("compile.explain.lane_mask_32.body", "en")
    assert body in [m.value for m in at.markdown]


@needs_hipcc
def test_compile_in_chinese_shows_resources_and_occupancy(app_test):
    at = app_test(PAGE, lang="zh", cl_ex="register_heavy", cl_target="gfx90a")
    _click(at, "cl_go")
    frames = [df.value for df in at.dataframe]
    res = next(f for f in frames if i18n.t("compile.col.vgprs", "zh") in f.columns)
    row = res.iloc[0]
    assert row[i18n.t("compile.col.kernel", "zh")] == "polynomial"
    assert row[i18n.t("compile.col.occupancy", "zh")] == row[i18n.t("compile.col.clang", "zh")] == 3
    assert row[i18n.t("compile.col.binds", "zh")] == i18n.t("compile.limit.vgprs", "zh")


def test_without_a_compiler_the_recorded_result_is_labelled(app_test, monkeypatch):
    monkeypatch.setenv("ROCM_BRIDGE_COMPILE", "off")
    at = app_test(PAGE, cl_ex="saxpy_bounds")
    _click(at, "cl_go")
    assert any("apt-get install hipcc" in i.value for i in at.info)
    warn = [w.value for w in at.warning]
    assert any("Recorded result" in w and "clang version 15" in w for w in warn), warn
    frames = [df.value for df in at.dataframe]
    assert any("saxpy_lds" in f.to_string() for f in frames)


@needs_hipcc
def test_hipify_page_compiles_its_hip_output(app_test):
    at = app_test("views/hipify.py", hp_ex="vector_add")
    assert any(e.label == i18n.t("compile.page.hipify_expander", "en") for e in at.expander)
    _click(at, "hp_cl_go")
    frames = [df.value for df in at.dataframe]
    assert any("vector_add" in f.to_string() for f in frames if i18n.t("compile.col.vgprs", "en") in f.columns)


def test_occupancy_widget_moves_with_vgprs(app_test):
    at = app_test(PAGE)
    metric = next(m for m in at.metric if m.label == i18n.t("compile.occ.result", "en"))
    assert metric.value == "8 / 8"
    next(s for s in at.slider if s.key == "cl_occ_v").set_value(130).run()
    metric = next(m for m in at.metric if m.label == i18n.t("compile.occ.result", "en"))
    assert metric.value == "3 / 8"  # 130 VGPRs -> 136 allocated (granule 8); 512 // 136 = 3
    assert examples.all_keys()[0] == "saxpy_bounds"


# --- issue 24: clang 22, Triton, the NVIDIA twin ---------------------------------------------------------------

def _clang22():
    from rocm_bridge.compile import clang22
    return clang22.available()


@pytest.mark.skipif(not _clang22(), reason="ziglang wheel missing (requirements.txt pins it)")
def test_clang22_compiles_for_gfx942_and_says_which_compiler(app_test):
    at = app_test(PAGE, cl_ex="register_heavy", cl_cc="clang22", cl_target="gfx942")
    assert any(i18n.t("compile.page.level_clang22", "en")[:40] in c.value for c in at.caption)
    _click(at, "cl_go")
    frames = [df.value for df in at.dataframe]
    res = next(f for f in frames if i18n.t("compile.col.vgprs", "en") in f.columns)
    row = res.iloc[0]
    assert row[i18n.t("compile.col.kernel", "en")] == "polynomial"
    assert row[i18n.t("compile.col.occupancy", "en")] == row[i18n.t("compile.col.clang", "en")]
    assert any("clang 22." in c.value and i18n.t("compile.page.level_isa", "en") in c.value for c in at.caption)


def test_triton_tab_without_triton_shows_the_recorded_result(app_test, monkeypatch):
    monkeypatch.setenv("ROCM_BRIDGE_COMPILE", "off")
    at = app_test(PAGE, tr_ex="matmul_bf16")
    _click(at, "tr_go")
    warn = [w.value for w in at.warning]
    assert any("Recorded result" in w and "Triton 3.9" in w for w in warn), warn
    frames = [df.value.to_string() for df in at.dataframe]
    assert any("v_mfma_f32_32x32x8_bf16" in f for f in frames) and any("wgmma" in f for f in frames)
    assert any(c.value.startswith("▶ ") or "\n▶ " in c.value for c in at.code)  # matrix lines marked


def test_twin_tab_in_chinese_from_the_recording(app_test, monkeypatch):
    monkeypatch.setenv("ROCM_BRIDGE_COMPILE", "off")
    at = app_test(PAGE, lang="zh", tw_ex="hipify_tiled_gemm")
    _click(at, "tw_go")
    frames = [df.value for df in at.dataframe]
    t = next(f for f in frames if i18n.t("compile.twin.metric", "zh") in f.columns)
    text = t.to_string()
    assert "AMD gfx942" in " ".join(t.columns) and "NVIDIA sm_90" in " ".join(t.columns)
    assert "2048" in text and i18n.t("compile.twin.m.registers", "zh") in text


def test_the_cases_table_tells_one_story(app_test):
    at = app_test(PAGE, cl_ex="broken_warp_size")
    assert any(e.label == i18n.t("compile.cases.title", "en") for e in at.expander)
    table = next(df.value for df in at.dataframe if i18n.t("compile.cases.rocm7_col", "en") in df.value.columns)
    row = table.iloc[0]
    assert row[i18n.t("compile.cases.line", "en")] == 4
    assert row[i18n.t("compile.cases.clang22", "en")].endswith("/ " + i18n.t("compile.cases.ok", "en"))
    assert row[i18n.t("compile.cases.rocm7_col", "en")] == i18n.t("compile.cases.r7.warp_size_const", "en")
