"""data/hipify_mappings.csv against HIPIFY's own source maps (data/hipify_source_map.csv, extracted from
src/CUDA2HIP_*.cpp by tools/extract_hipify_source_maps.py): every translation a map row gives is in the table, the
documented corrections are applied, and the engine uses a ROC name when hipify-clang does (Statistics::isToRoc)."""

from __future__ import annotations

import csv
import importlib.util
import re
from pathlib import Path

from rocm_bridge.hipify import index
from rocm_bridge.hipify.translator import Options, translate

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("extract_maps", ROOT / "tools" / "extract_hipify_source_maps.py")
extract = importlib.util.module_from_spec(spec)
spec.loader.exec_module(extract)


def _read(name: str) -> list[dict[str, str]]:
    with (ROOT / "data" / name).open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_every_source_map_translation_is_in_the_table():
    source = _read("hipify_source_map.csv")
    assert len(source) > 150
    corrections = extract.read_corrections()
    table = {(r["cuda_name"], r["variant"], r["hip_name"]) for r in _read("hipify_mappings.csv")}
    missing = []
    for row in source:
        hip_fixed = any(c["cuda_name"] == row["cuda_name"] and c["variant"] == "hip"
                        and c["hipify_name"] == row["hip_name"] for c in corrections)  # e.g. __nv_bfloat16
        if extract.hip_translates(row) and not hip_fixed and (row["cuda_name"], "hip", row["hip_name"]) not in table:
            missing.append(("hip", row["cuda_name"], row["hip_name"], row["file"]))
        if extract.corrected(row, corrections):
            continue
        variant = extract.roc_variant(row)
        if extract.roc_translates(row) and (row["cuda_name"], variant, row["roc_name"]) not in table:
            missing.append((variant, row["cuda_name"], row["roc_name"], row["file"]))
    assert missing == []
    # the maps read since the first extract are in it
    files = {r["file"] for r in source}
    assert {"src/CUDA2HIP_Runtime_API_types.cpp", "src/CUDA2HIP_Complex_API_types.cpp"} <= files


def test_every_extracted_file_is_listed_with_its_commit_and_coverage_in_source_md():
    """The extract is honest about what it covers: each file and commit it holds is in the SOURCE.md table, and
    the reduced copies are marked as such in the extract."""
    doc = (ROOT / "data" / "hipify_mappings.SOURCE.md").read_text(encoding="utf-8")
    for row in _read("hipify_source_map.csv"):
        assert f"`{row['file']}`" in doc and row["commit"] in doc, (row["file"], row["commit"])
    assert any(r["reduced"] for r in _read("hipify_source_map.csv"))


def test_rows_added_from_the_source_maps_name_their_file_and_commit():
    added = [r for r in _read("hipify_mappings.csv") if r["source_table"].startswith("src/")]
    assert {r["cuda_name"] for r in added} >= {"cuComplex", "cuFloatComplex", "cuDoubleComplex", "__half",
                                               "__nv_bfloat16", "cudaStream_t"}
    for row in added:
        path, _, commit = row["source_table"].partition("@")
        assert path.startswith("src/CUDA2HIP_") and re.fullmatch(r"[0-9a-f]{40}", commit)
        assert row["variant"] in ("hip", "roc", "miopen")
    stream = next(r for r in added if r["cuda_name"] == "cudaStream_t")
    assert (stream["variant"], stream["hip_name"], stream["target_library"]) == (
        "miopen", "miopenAcceleratorQueue_t", "MIOpen")


def test_corrections_are_applied_and_say_so():
    corrections = extract.read_corrections()
    assert {c["cuda_name"] for c in corrections} >= {"csrsv2Info", "csrsv2Info_t"}
    rows = _read("hipify_mappings.csv")
    for c in corrections:
        mine = [r for r in rows if (r["cuda_name"], r["variant"], r["api_group"]) ==
                (c["cuda_name"], c["variant"], c["api_group"])]
        assert [r["hip_name"] for r in mine] == [c["corrected_name"]]
        assert mine[0]["source_table"] == "data/hipify_corrections.csv" and c["evidence"]


def test_parser_reads_counter_entries_flags_and_versions_in_both_spellings():
    text = """
// reduced: roc-names-only
const std::map<llvm::StringRef, hipCounter> CUDA_X_TYPE_NAME_MAP {
  {"cuA",   {"hipA", "rocA", CONV_TYPE, API_BLAS, 2}},  // note
  {"cuB",   {"hipB", "",     CONV_NUMERIC_LITERAL, API_BLAS, 2, UNSUPPORTED | CUDA_DEPRECATED}},
  {"cuC",   {"hipC", "rocC", CONV_TYPE, API_COMPLEX, 1, ROC_UNSUPPORTED}},
  {"cuD",   {"hipD", "", CONV_TYPE, API_RUNTIME, SEC::DATA_TYPES, HIP_UNSUPPORTED}},
  {"cuE",   {"hipE", "miopenE", CONV_TYPE, API_RUNTIME, SEC::DATA_TYPES, ROC_MIOPEN_ONLY}},
};
const std::map<llvm::StringRef, hipCounter> CUDA_Y_TYPE_NAME_MAP = [] {
  std::map<llvm::StringRef, hipCounter> m;
  m["cuF"] = {"hipF", "rocF", CONV_TYPE, API_SPARSE, 4, CUDA_REMOVED};
  return m;
}();
const std::map<llvm::StringRef, cudaAPIversions> CUDA_X_TYPE_NAME_VER_MAP {
  {"cuA", {CUDA_110, CUDA_0, CUDA_0}},
  {"cuE", {CUDNN_897, CUDNN_0, CUDNN_0}},
};
const std::map<llvm::StringRef, hipAPIversions> HIP_X_TYPE_NAME_VER_MAP {
  {"rocA", {HIP_5070, HIP_6010, HIP_0}},
  {"hipC", {HIP_1060, HIP_0, HIP_0, HIP_6020}},
  {"hipD", {HIP_6010, HIP_0, HIP_0, HIP_LATEST}},
};
"""
    rows, versions, cuda = extract.parse_maps(text)
    assert [(r["map"], r["cuda_name"], r["hip_name"], r["roc_name"], r["flags"]) for r in rows] == [
        ("CUDA_X_TYPE_NAME_MAP", "cuA", "hipA", "rocA", ""),
        ("CUDA_X_TYPE_NAME_MAP", "cuB", "hipB", "", "UNSUPPORTED CUDA_DEPRECATED"),
        ("CUDA_X_TYPE_NAME_MAP", "cuC", "hipC", "rocC", "ROC_UNSUPPORTED"),
        ("CUDA_X_TYPE_NAME_MAP", "cuD", "hipD", "", "HIP_UNSUPPORTED"),
        ("CUDA_X_TYPE_NAME_MAP", "cuE", "hipE", "miopenE", "ROC_MIOPEN_ONLY"),
        ("CUDA_Y_TYPE_NAME_MAP", "cuF", "hipF", "rocF", "CUDA_REMOVED"),
    ]
    assert versions == {"rocA": ("5.7.0", "6.1.0", "", ""), "hipC": ("1.6.0", "", "", "6.2.0"),
                        "hipD": ("6.1.0", "", "", "latest")}
    assert cuda == {"cuA": ("11.0", "", ""), "cuE": ("8.9.7", "", "")}
    assert [extract.roc_translates(r) for r in rows] == [True, False, False, False, True, True]
    assert [extract.hip_translates(r) for r in rows] == [True, False, True, False, True, True]
    assert [extract.roc_variant(r) for r in rows if extract.roc_translates(r)] == ["roc", "miopen", "roc"]
    assert extract.REDUCED.search(text)["note"] == "roc-names-only"


def test_merge_adds_roc_miopen_and_missing_hip_rows_then_applies_corrections(tmp_path):
    header = ("cuda_name,hip_name,target_library,variant,api_group,section,kind,cuda_added,cuda_deprecated,"
              "cuda_changed,cuda_removed,hip_added,hip_deprecated,hip_changed,hip_removed,hip_experimental,"
              "source_table\n")
    table = tmp_path / "table.csv"
    table.write_text(header + "cuS,hipS,HIP runtime,hip,runtime,Types,type,,,,,1.5.0,,,,,docs/x.md\n"
                     "cuI,,hipSPARSE,hip,sparse,Types,type,,,,,,,,,,docs/y.md\n"
                     "cuI,roc_wrong,rocSPARSE,roc,sparse,Types,type,,,,,1.9.0,,,,,docs/y.md\n", encoding="utf-8")
    commit = "0" * 40
    rows = [
        {"file": "src/CUDA2HIP_Runtime_API_types.cpp", "commit": commit, "map": "M", "cuda_name": "cuS",
         "hip_name": "hipS", "roc_name": "miopenS", "conv": "CONV_TYPE", "api": "API_RUNTIME",
         "flags": "ROC_MIOPEN_ONLY", "reduced": "x"},
        {"file": "src/CUDA2HIP_Runtime_API_types.cpp", "commit": commit, "map": "M", "cuda_name": "cuNew",
         "hip_name": "hipNew", "roc_name": "", "conv": "CONV_NUMERIC_LITERAL", "api": "API_RUNTIME", "flags": "",
         "reduced": "x"},
        {"file": "src/CUDA2HIP_SPARSE_API_types.cpp", "commit": commit, "map": "M", "cuda_name": "cuI",
         "hip_name": "", "roc_name": "roc_wrong", "conv": "CONV_TYPE", "api": "API_SPARSE", "flags": "",
         "reduced": "x"},
    ]
    versions = {("CUDA2HIP_Runtime_API_types.cpp", "hipNew"): ("6.2.0", "", "", "")}
    cuda = {("CUDA2HIP_Runtime_API_types.cpp", "cuNew"): ("12.4", "", "")}
    corrections = [{"cuda_name": "cuI", "variant": "roc", "api_group": "sparse", "hipify_name": "roc_wrong",
                    "corrected_name": "roc_right", "evidence": "header"}]
    assert extract.merge(rows, versions, table, cuda, corrections) == 3
    with table.open(newline="", encoding="utf-8") as fh:
        got = {(r["cuda_name"], r["variant"]): r for r in csv.DictReader(fh)}
    assert got[("cuS", "miopen")]["hip_name"] == "miopenS" and got[("cuS", "miopen")]["target_library"] == "MIOpen"
    new = got[("cuNew", "hip")]
    assert (new["hip_name"], new["kind"], new["hip_added"], new["cuda_added"], new["source_table"]) == (
        "hipNew", "enum", "6.2.0", "12.4", f"src/CUDA2HIP_Runtime_API_types.cpp@{commit}")
    assert got[("cuI", "roc")]["hip_name"] == "roc_right"
    assert got[("cuI", "roc")]["source_table"] == "data/hipify_corrections.csv"
    assert extract.merge(rows, versions, table, cuda, corrections) == 0  # a second run adds nothing


def test_roc_names_of_complex_and_half_types_apply_with_roc_only():
    src = "cuComplex a; cuDoubleComplex b; __half h; __nv_bfloat16 bf;\n"
    assert translate(src, Options(roc=True)).output.splitlines()[-1] == (
        "rocblas_float_complex a; rocblas_double_complex b; rocblas_half h; rocblas_bfloat16 bf;")
    assert translate(src, Options()).output.splitlines()[-1] == "hipComplex a; hipDoubleComplex b; __half h; __hip_bfloat16 bf;"


def test_stream_type_follows_hipify_clang_is_to_roc():
    """cudaStream_t is ROC_MIOPEN_ONLY in HIPIFY's runtime type map: its MIOpen name needs --miopen."""
    def out(**opts) -> str:  # the declaration (a hip_runtime.h include may come before it)
        return translate("cudaStream_t s;\n", Options(**opts)).output.splitlines()[-1]

    assert out() == out(roc=True) == "hipStream_t s;"
    assert out(miopen=True) == out(roc=True, miopen=True) == "miopenAcceleratorQueue_t s;"


def test_the_groups_whose_roc_names_apply():
    # --roc: every API type of Statistics::isToRoc except DNN (MIOpen needs --miopen here, see index.py)
    assert set(index.target_groups(roc=True)) == {"blas", "sparse", "solver", "rand", "complex", "device", "runtime"}
    # --miopen: all of them and DNN; never the driver, RTC, FFT or CUB maps (not in isToRoc)
    assert set(index.target_groups(miopen=True)) == set(index.target_groups(roc=True)) | {"dnn"}
    assert not {"driver", "rtc", "fft", "cub"} & set(index.target_groups(roc=True, miopen=True))
    assert index.target_groups() == ()
    # --miopen alone gives the ROC names of the library maps too, as isToRoc does
    assert translate("cublasHandle_t h; cuComplex c;\n", Options(miopen=True)).output.splitlines()[-1] == (
        "rocblas_handle h; rocblas_float_complex c;")
