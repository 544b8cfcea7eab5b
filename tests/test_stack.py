"""The stack explorer's core: components from data/stack_equivalents.csv, twins, traces and API counts."""

from __future__ import annotations

import csv
import re
import subprocess
import sys

import pytest

from rocm_bridge import i18n, stack
from rocm_bridge.data import data_path, read_csv
from rocm_bridge.errors import InvalidInput


def _rows(category: str) -> list[dict[str, str]]:
    with data_path("stack_equivalents.csv").open(encoding="utf-8") as fh:
        return [r for r in csv.DictReader(fh) if r["category"] == category]


def test_every_layer_row_becomes_a_layer_in_tier_order():
    rows = _rows("layer")
    got = stack.layers()
    assert sorted(layer.name for layer in got) == sorted(r["layer"] for r in rows)
    tiers = [stack.TIERS.index(layer.tier) for layer in got]
    assert tiers == sorted(tiers), "layers must run bottom (hardware) to top"
    assert got[0].slug == "hardware"


def test_cublas_twin_is_rocblas_with_hipblas_portable_layer():
    cublas = stack.find("cuBLAS")
    assert cublas.id == "cuda.math-blas"
    assert stack.twin(cublas.id).name == "rocBLAS"
    assert stack.twin("rocm.math-blas").name == "cuBLAS"
    sides = stack.counterparts(cublas.id)
    assert sides["hip"].name == "hipBLAS"
    assert "portable" in sides["hip"].full
    assert "AMD-native" in sides["rocm"].full


@pytest.mark.parametrize(
    ("cuda", "rocm"),
    [
        ("cuDNN", "MIOpen"),
        ("NCCL", "RCCL"),
        ("nvcc", "amdclang++"),
        ("nvidia-smi", "amd-smi"),
        ("TensorRT", "MIGraphX"),
    ],
)
def test_twins_match_the_data_rows(cuda, rocm):
    comp = stack.find(cuda)
    assert comp.side == "cuda"
    assert stack.twin(comp.id).name == rocm
    row = next(r for r in _rows("layer") if r["layer"] == comp.layer_name)
    assert row["cuda_component"].startswith(cuda) and row["rocm_component"].startswith(rocm)


def test_every_component_keeps_the_row_sources_and_role():
    by_layer = {r["layer"]: r for r in _rows("layer")}
    for comp in stack.components():
        row = by_layer[comp.layer_name]
        assert comp.sources and " | ".join(comp.sources) == row["source"].strip()
        assert comp.role == row["role"]
        assert (
            comp.full
            == row[{"cuda": "cuda_component", "rocm": "rocm_component", "hip": "hip_portable_layer"}[comp.side]]
        )
        assert comp.name and len(comp.name) <= 40


def test_rows_that_say_none_have_no_component():
    # "porting tool": the CUDA side is "(none; source is CUDA)"; "system validation" has no CUDA equivalent.
    assert stack.counterparts("rocm.porting-tool")["cuda"] is None
    assert stack.counterparts("rocm.system-validation")["cuda"] is None
    assert stack.twin("rocm.porting-tool") is None


def test_unknown_component_raises_a_translated_error():
    with pytest.raises(InvalidInput) as err:
        stack.component("cuda.no-such-thing")
    assert "no-such-thing" in err.value.message("en")
    assert err.value.message("zh") != err.value.message("en")
    with pytest.raises(InvalidInput):
        stack.find("definitely-not-a-library")


def test_component_ids_are_url_safe_and_unique():
    ids = [c.id for c in stack.components()]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"(cuda|hip|rocm)\.[a-z0-9-]+", i) for i in ids)


def test_compact_layers_exist():
    slugs = {layer.slug for layer in stack.layers()}
    assert set(stack.COMPACT_LAYERS) <= slugs


@pytest.mark.parametrize(
    ("op", "cuda_lib", "rocm_lib", "raw"),
    [("tf.matmul", "cuBLAS", "rocBLAS", "MatMul"), ("tf.nn.conv2d", "cuDNN", "MIOpen", "Conv2D")],
)
def test_trace_runs_from_framework_to_hardware_on_both_sides(op, cuda_lib, rocm_lib, raw):
    tr = stack.trace(op)
    assert tr.raw_op == raw
    for side, lib in (("cuda", cuda_lib), ("rocm", rocm_lib)):
        ids = tr.component_ids(side)
        assert ids[0] == f"{side}.frameworks-tensorflow"
        assert ids[-1] == f"{side}.hardware"
        assert stack.component(ids[1]).name == lib
        names = [stack.component(i).name for i in ids]
        assert len(names) == 6, names  # op, library, runtime, low-level runtime, driver, hardware
        assert ids.index(f"{side}.runtime-api") < ids.index(f"{side}.kernel-driver")
    assert any("tensorflow-rocm" in s for s in stack.trace_sources(op))


def test_trace_op_has_gpu_kernels_in_both_registry_snapshots():
    for side in ("cuda", "rocm"):
        assert "float32" in stack.gpu_kernel_dtypes("MatMul", side)
        assert "float16" in stack.gpu_kernel_dtypes("Conv2D", side)
    assert stack.gpu_kernel_dtypes("NoSuchOp", "rocm") == ()


def test_unknown_trace_is_an_error():
    with pytest.raises(InvalidInput):
        stack.trace("tf.einsum")


def test_hip_on_nvidia_path_ends_in_the_cuda_stack():
    nv = stack.hip_path(on_nvidia=True)
    amd = stack.hip_path(on_nvidia=False)
    for path, vendor in ((nv, "cuda"), (amd, "rocm")):
        for src, dst in path:
            stack.component(src), stack.component(dst)  # every id exists
        assert ("hip.compiler", f"{vendor}.compiler") in path
        assert path[-1][1] == f"{vendor}.hardware"
    assert not any(dst.startswith("rocm.") for _, dst in nv)
    # the data backs it: hipcc calls nvcc on NVIDIA
    assert "nvcc on NVIDIA" in stack.component("hip.compiler").full


def test_terminology_table_has_the_classic_pairs():
    terms = stack.terminology()
    text = {(t["cuda"].split(" (")[0], t["rocm"].split(" ")[0]) for t in terms}
    assert ("warp = 32 threads", "wavefront") in text
    assert ("Streaming Multiprocessor", "Compute") in text
    by_concept = {t["concept"]: t for t in terms}
    assert (
        "LDS" in by_concept["on-chip scratchpad"]["rocm"]
        and "shared memory" in by_concept["on-chip scratchpad"]["cuda"]
    )
    assert by_concept["compiler"]["cuda"] == "nvcc" and "hipcc" in by_concept["compiler"]["rocm"]
    assert "PTX" in by_concept["ISA / IR"]["cuda"]
    assert "amd-smi" in by_concept["monitoring CLI"]["rocm"]
    assert len(terms) == len(_rows("terminology")) + len(stack.TERMINOLOGY_LAYERS)
    assert all(t["source"] for t in terms)


# Counts published next to the data (data/hipify_mappings.SOURCE.md, "Row counts"): names, with hip translation,
# with roc translation.
SOURCE_MD_COUNTS = {
    "runtime": (1436, 920, None),
    "driver": (2008, 1105, None),
    "blas": (1473, 844, 755),
    "sparse": (859, 684, 612),
    "solver": (746, 342, 32),
    "rand": (151, 117, 107),
    "fft": (147, 87, None),
    "dnn": (1162, 267, 555),
    "cub": (70, 11, None),
}


def test_api_counts_match_the_published_table():
    counts = {c.api_group: c for c in stack.api_counts()}
    # rows completed from HIPIFY's own source maps (source_table "src/...") come on top of the docs tables
    extra: dict[tuple[str, str], set[str]] = {}
    for row in read_csv("hipify_mappings.csv"):
        if row["source_table"].startswith("src/") and row["hip_name"]:
            extra.setdefault((row["api_group"], row["variant"]), set()).add(row["cuda_name"])
    # and the documented corrections (data/hipify_corrections.csv): added names, and HIP names given to names the
    # docs tables list as unsupported
    added_names: dict[str, int] = {}
    added_hip: dict[str, int] = {}
    for c in read_csv("hipify_corrections.csv"):
        if c["variant"] != "hip":
            continue
        if c["change"] == "add":
            added_names[c["api_group"]] = added_names.get(c["api_group"], 0) + 1
        if c["change"] in ("add", "date") and c["corrected_name"] and not c["hipify_name"]:
            added_hip[c["api_group"]] = added_hip.get(c["api_group"], 0) + 1
    for group, (names, hip, roc) in SOURCE_MD_COUNTS.items():
        c = counts[group]
        added_roc = len(extra.get((group, "roc"), ()))
        assert (c.cuda_names, c.with_hip, c.with_roc) == (
            names + added_names.get(group, 0), hip + added_hip.get(group, 0),
            roc + added_roc if roc is not None else None), group
    # distinct (api_group, cuda_name) in SOURCE.md, plus the added names
    assert sum(c.cuda_names for c in counts.values()) == 8932 + sum(added_names.values())
    assert counts["blas"].roc_library == "rocBLAS" and counts["dnn"].roc_library == "MIOpen"
    assert stack.api_count_for_layer("math-blas").cuda_library == "cuBLAS"
    assert stack.api_count_for_layer("hardware") is None


def test_catalog_covers_every_layer_and_tier_in_both_languages():
    for lay in stack.layers():
        for key in (f"stack.layer.{lay.slug}", f"stack.role.{lay.slug}"):
            entry = i18n.catalog()[key]
            assert entry["en"] and entry["zh"] and entry["zh"] != entry["en"], key
        assert i18n.t(f"stack.role.{lay.slug}", "en") == lay.role  # the English role is the data's own
    for tier in stack.TIERS:
        assert i18n.t(f"stack.tier.{tier}", "zh")
    for term in stack.terminology():
        assert i18n.t(term["concept_key"], "zh") and i18n.t(term["role_key"], "zh")
        assert i18n.t(term["role_key"], "en") == term["role"]


def test_module_imports_no_heavy_frameworks():
    code = "import sys, rocm_bridge.stack, rocm_bridge.hardware; print(sorted(m for m in ('streamlit','pandas','tensorflow','torch','jax') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# --- the hero picture and the grouped diagram (rocm_bridge.stack.hero, rocm_bridge.stack.figure) ---------------


def test_hero_groups_hold_every_layer_once_and_a_dozen_at_most():
    from rocm_bridge.stack import hero

    slugs = [la.slug for _, layers in hero.groups() for la in layers]
    assert sorted(slugs) == sorted(la.slug for la in stack.layers())
    assert 10 <= len(hero.groups()) <= 12
    assert all(len(layers) <= 12 for _, layers in hero.groups())


@pytest.mark.parametrize(("op", "group", "cuda", "hip", "roc"), [
    ("tf.matmul", "math", "cublasSgemm", "hipblasSgemm", "rocblas_sgemm"),
    ("tf.nn.conv2d", "dl", "cudnnConvolutionForward", "hipdnnConvolutionForward", "miopenConvolutionForward"),
])
def test_hero_follows_the_op_down_and_draws_the_op_map_from_the_hipify_tables(op, group, cuda, hip, roc):
    from rocm_bridge.stack import hero

    assert hero.path_groups(op) == ("framework", "xla", group, "runtime", "driver", "hardware")
    rows = {(r["cuda_name"], r["variant"]): r["hip_name"] for r in read_csv(stack.HIPIFY_CSV)}
    assert rows[(cuda, "hip")] == hip and rows[(cuda, "roc")] == roc  # the names come from the table
    library = hero.build(3, "en", "light", op).svg  # step 4 of 8: the library, its row open
    for name in (cuda, hip, roc):
        assert name in library, name  # in full (the legend), even where a block clips it
    overview = hero.build(0, "en", "light", op).svg
    assert f">{roc}<" not in overview  # the overview shows components, not the op's calls
    n = len(stack.gpu_kernel_dtypes(stack.trace(op).raw_op, "rocm"))
    assert f": {n} GPU dtypes<" in hero.build(2, "en", "light", op).svg  # kernel selection: the registry count


def test_hero_changes_with_every_step():
    from rocm_bridge.stack import hero

    frames = [hero.build(s, "zh", "dark", "tf.matmul") for s in range(hero.STEPS)]
    assert len({f.svg for f in frames}) == hero.STEPS
    assert len({f.caption for f in frames}) == hero.STEPS


def test_diagram_labels_wrap_to_two_short_lines():
    from rocm_bridge.stack import figure

    for comp in stack.components():
        for lang in i18n.LANGS:
            name = figure.display_name(comp, lang)
            lines = figure.wrap(name).split("<br>")
            assert "".join(lines) == name and len(lines) <= 2
            if len(lines) == 2:
                assert all(len(line.strip()) <= 2 * figure.WRAP_AT for line in lines), name
