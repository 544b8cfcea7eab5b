"""The stack explorer in AppTest: diagram from the CSV, selection and twin, trace, HIP on NVIDIA, API counts."""

from __future__ import annotations

import csv

import pytest

from rocm_bridge import i18n, stack
from rocm_bridge.data import data_path
from rocm_bridge.stack import hero
from rocm_bridge.text import md_escape
from tests.app import plotly_spec as ps

PAGE = "views/stack.py"


def _diagram(at) -> dict:
    return ps.figures(at)[0]


def _layer_rows() -> list[dict[str, str]]:
    with data_path("stack_equivalents.csv").open(encoding="utf-8") as fh:
        return [r for r in csv.DictReader(fh) if r["category"] == "layer"]


def _blocks(fig: dict) -> dict[str, dict]:
    """component id -> {'name', 'opacity', 'line'} from the three bar traces."""
    out = {}
    for trace in fig["data"]:
        if trace["type"] != "bar":
            continue
        marker = trace["marker"]
        for i, cd in enumerate(trace["customdata"]):
            out[cd[0]] = {
                "name": trace["text"][i].replace("<br>", ""),  # long names wrap onto two lines
                "opacity": marker["opacity"],
                "line": marker["line"]["width"],
                "y": ps.decode(trace["y"])[i],
            }
    return out


def test_diagram_has_every_layer_side_by_side(app_test):
    """The overview shows the op's path and everyday tools; the layer groups together show every row of the table,
    each group a dozen rows at most (readable in presenter mode)."""
    at = app_test(PAGE)
    assert not at.exception
    fig = _diagram(at)
    assert ps.titles(fig) == i18n.t("stack.chart_title", "en")
    assert len(fig["layout"]["yaxis"]["ticktext"]) == len(stack.COMPACT_LAYERS)
    rows = _layer_rows()
    ticks, blocks = [], {}
    for gid, _ in hero.groups():
        at.pills(key="st_view").set_value(gid).run()
        assert not at.exception
        fig = _diagram(at)
        assert 1 <= len(fig["layout"]["yaxis"]["ticktext"]) <= 12, gid
        ticks += fig["layout"]["yaxis"]["ticktext"]
        blocks.update(_blocks(fig))
    assert sorted(ticks) == sorted(i18n.t(f"stack.layer.{la.slug}", "en") for la in stack.layers())
    assert len(ticks) == len(rows)
    assert at.query_params["st_view"] in (gid, [gid])
    for row in rows:
        s = stack.slug(row["layer"])
        if not row["cuda_component"].startswith("(no"):
            assert row["cuda_component"].startswith(blocks[f"cuda.{s}"]["name"].split(" / ")[0]) or blocks[f"cuda.{s}"][
                "name"
            ] in {"NVIDIA driver", "PTX / SASS", "deviceQuery / nvidia-smi -L", "tensorflow[and-cuda]"}
        assert f"rocm.{s}" in blocks
    assert blocks["cuda.math-blas"]["name"] == "cuBLAS" and blocks["rocm.math-blas"]["name"] == "rocBLAS"
    assert blocks["hip.math-blas"]["name"] == "hipBLAS"
    at.pills(key="st_view").set_value("hardware").run()
    assert _blocks(_diagram(at))["cuda.hardware"]["y"] == 0  # bottom
    captions = [c.value for c in at.caption]
    assert f"{i18n.t('common.source', 'en')}: {md_escape('data/stack_equivalents.csv')}" in captions


def test_selecting_a_component_shows_its_twin_portable_layer_and_sources(app_test):
    at = app_test(PAGE)
    at.selectbox(key="st_comp").set_value("cuda.dl-primitives").run()
    assert not at.exception
    text = "\n".join(m.value for m in at.markdown)
    assert "#### `cuDNN`" in text and "#### `MIOpen`" in text
    assert "github\\.com/ROCm/HIPIFY" in text  # sources listed (escaped Markdown)
    assert "1162 cuDNN API names" in text and "555 have a MIOpen equivalent" in text
    assert at.query_params["st_comp"] in ("cuda.dl-primitives", ["cuda.dl-primitives"])
    blocks = _blocks(_diagram(at))
    assert blocks["cuda.dl-primitives"]["line"] == 4  # outlined
    assert blocks["cuda.math-blas"]["line"] < 4


def test_default_shows_cublas_rocblas_hipblas(app_test):
    at = app_test(PAGE, lang="zh")
    text = "\n".join(m.value for m in at.markdown)
    assert "#### `cuBLAS`" in text and "#### `rocBLAS`" in text
    assert "hipBLAS" in text and "AMD 原生" in text


def test_deep_link_selects_and_bad_link_falls_back(app_test):
    at = app_test(PAGE, st_comp="rocm.communication")
    assert at.selectbox(key="st_comp").value == "rocm.communication"
    assert "#### `NCCL`" in "\n".join(m.value for m in at.markdown)
    at = app_test(PAGE, st_comp="rocm.<script>")
    assert not at.exception
    assert at.selectbox(key="st_comp").value == "cuda.math-blas"
    assert any("st_comp" in t.value for t in at.toast)


def test_bad_flag_and_trace_in_link_fall_back(app_test):
    at = app_test(PAGE, st_hipnv="maybe", st_trace="tf.einsum")
    assert not at.exception
    assert at.toggle(key="st_hipnv").value is False
    assert at.selectbox(key="st_trace").value == "none"
    assert len(at.toast) == 2


def test_click_on_the_diagram_selects_the_component(app_test):
    at = app_test(PAGE)
    # What st.plotly_chart(on_select="rerun") stores after a click on the MIOpen block
    at.session_state["st_chart"] = {
        "selection": {"points": [{"curve_number": 2, "customdata": ["rocm.dl-primitives", "", ""]}]}
    }
    at.run()
    assert not at.exception
    assert at.selectbox(key="st_comp").value == "rocm.dl-primitives"
    assert "#### `cuDNN`" in "\n".join(m.value for m in at.markdown)


@pytest.mark.parametrize(
    ("op", "cuda_lib", "rocm_lib"), [("tf.matmul", "cuBLAS", "rocBLAS"), ("tf.nn.conv2d", "cuDNN", "MIOpen")]
)
def test_trace_highlights_the_path_on_both_sides(app_test, op, cuda_lib, rocm_lib):
    at = app_test(PAGE)
    at.selectbox(key="st_trace").set_value(op).run()
    assert not at.exception
    fig = _diagram(at)
    assert op in ps.titles(fig)
    blocks = _blocks(fig)
    tr_ = stack.trace(op)
    for side in ("cuda", "rocm"):
        for cid in tr_.component_ids(side):
            assert blocks[cid]["opacity"] == 1.0, cid
    assert blocks["cuda.communication"]["opacity"] < 1.0
    assert len(fig["layout"]["annotations"]) == 10  # 5 arrows down each stack
    steps = at.dataframe[0].value
    assert list(steps["CUDA (NVIDIA)"])[1] == cuda_lib and list(steps["ROCm (AMD)"])[1] == rocm_lib
    assert list(steps["ROCm (AMD)"])[-1] == "AMD Instinct GPU"
    assert any("tensorflow-rocm-2.14.0.600" in c.value for c in at.caption)


def test_hip_on_nvidia_draws_arrows_into_the_cuda_stack(app_test):
    at = app_test(PAGE)
    assert "annotations" not in _diagram(at)["layout"] or not _diagram(at)["layout"]["annotations"]
    at.toggle(key="st_hipnv").set_value(True).run()
    assert not at.exception
    fig = _diagram(at)
    arrows = fig["layout"]["annotations"]
    assert len(arrows) == len(stack.HIP_ON_NVIDIA_PATH)
    # every arrow ends in the CUDA column (x <= 1) or stays in the HIP column; none reaches ROCm (x >= 2)
    into_cuda = sum(1 for _, dst in stack.HIP_ON_NVIDIA_PATH if dst.startswith("cuda."))
    assert sum(1 for a in arrows if a["x"] <= 1.0) == into_cuda
    assert all(a["x"] < 2.0 for a in arrows)
    assert at.query_params["st_hipnv"] in ("1", ["1"])
    assert i18n.t("stack.hip_path_on", "en") in [c.value for c in at.caption]


def test_terminology_table_and_api_count_chart(app_test):
    at = app_test(PAGE, lang="zh")
    terms = at.table[-1].value  # a table that wraps its cells
    assert i18n.t("stack.terms_concept", "zh") in terms.columns
    assert "波前（wavefront）" not in set(terms["ROCm（AMD）"])  # data cells stay as sourced
    assert any("wavefront = 64" in v for v in terms["ROCm（AMD）"])
    fig = ps.by_title(at, i18n.t("stack.api_title", "zh"))
    counts = {c.cuda_library: c for c in stack.api_counts()}
    cuda, hip, roc = fig["data"]
    labels = cuda["y"]
    for name, n_cuda, n_hip, n_roc in zip(
        labels, ps.decode(cuda["x"]), ps.decode(hip["x"]), ps.decode(roc["x"]), strict=True
    ):
        c = counts[name.split(" (")[0]]
        assert (n_cuda, n_hip, n_roc) == (c.cuda_names, c.with_hip, c.with_roc)
    assert ps.decode(cuda["x"])[labels.index("cuBLAS (blas)")] == 1473  # hipify_mappings.SOURCE.md
    assert any(md_escape(stack.API_COUNT_SOURCE) in c.value for c in at.caption)


def test_chapter_one_embeds_the_compact_explorer(app_test):
    at = app_test("views/ch1_rocm_basics.py")
    assert not at.exception
    figs = [f for f in ps.figures(at) if ps.titles(f) == i18n.t("stack.chart_title", "en")]
    if not figs:
        pytest.skip("chapter 1 content has no '::: widget stack' line yet")
    ticks = figs[0]["layout"]["yaxis"]["ticktext"]
    assert len(ticks) == len(stack.COMPACT_LAYERS) < len(stack.layers())


def test_chinese_diagram_translates_descriptions_and_keeps_product_names(app_test):
    at = app_test(PAGE, lang="zh")
    assert not at.exception
    blocks = _blocks(_diagram(at))
    assert blocks["cuda.kernel-driver"]["name"] == i18n.t("stack.short.kernel-driver.cuda", "zh") != "NVIDIA driver"
    assert blocks["rocm.hardware"]["name"] == i18n.t("stack.short.hardware.rocm", "zh")
    assert blocks["cuda.math-blas"]["name"] == "cuBLAS" and blocks["rocm.math-blas"]["name"] == "rocBLAS"
    english_words = {"driver", "runtime", "backend", "tables", "code objects", "data-center", "also read by", "via "}
    for cid, block in blocks.items():
        assert not any(w in block["name"] for w in english_words), (cid, block["name"])


def test_detail_panel_does_not_repeat_its_heading(app_test):
    at = app_test(PAGE, st_comp="cuda.math-blas")
    full = i18n.t("stack.detail.full", "en")
    # cuBLAS's data cell is just "cuBLAS": no "As in the data: cuBLAS" line under the "cuBLAS" heading
    assert not any(m.value.startswith(f"**{full}:** cuBLAS") and m.value.endswith("cuBLAS") for m in at.markdown)
    # rocBLAS's cell says more ("rocBLAS (AMD-native)"), so it is shown
    assert any(m.value.startswith(f"**{full}:**") and "AMD" in m.value for m in at.markdown)
