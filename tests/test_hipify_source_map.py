"""data/hipify_mappings.csv against HIPIFY's own source maps (data/hipify_source_map.csv, extracted from
src/CUDA2HIP_*.cpp by tools/extract_hipify_source_maps.py): every translation a map row gives is in the table."""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path

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
    assert len(source) > 100
    table = {(r["cuda_name"], r["variant"], r["hip_name"]) for r in _read("hipify_mappings.csv")}
    missing = []
    for row in source:
        if extract.hip_translates(row) and (row["cuda_name"], "hip", row["hip_name"]) not in table:
            missing.append(("hip", row["cuda_name"], row["hip_name"], row["file"]))
        if extract.roc_translates(row) and (row["cuda_name"], "roc", row["roc_name"]) not in table:
            missing.append(("roc", row["cuda_name"], row["roc_name"], row["file"]))
    assert missing == []


def test_rows_added_from_the_source_maps_name_their_file_and_commit():
    added = [r for r in _read("hipify_mappings.csv") if r["source_table"].startswith("src/")]
    assert {r["cuda_name"] for r in added} >= {"cuComplex", "cuFloatComplex", "cuDoubleComplex", "__half",
                                               "__nv_bfloat16"}
    for row in added:
        path, _, commit = row["source_table"].partition("@")
        assert path.startswith("src/CUDA2HIP_") and len(commit) == 40 and row["variant"] == "roc"


def test_parser_reads_counter_entries_flags_and_hip_versions():
    text = """
const std::map<llvm::StringRef, hipCounter> CUDA_X_TYPE_NAME_MAP {
  {"cuA",   {"hipA", "rocA", CONV_TYPE, API_BLAS, 2}},  // note
  {"cuB",   {"hipB", "",     CONV_NUMERIC_LITERAL, API_BLAS, 2, UNSUPPORTED | CUDA_DEPRECATED}},
  {"cuC",   {"hipC", "rocC", CONV_TYPE, API_COMPLEX, 1, ROC_UNSUPPORTED}},
  {"cuD",   {"hipD", "", CONV_TYPE, API_RUNTIME, SEC::DATA_TYPES, HIP_UNSUPPORTED}},
};
const std::map<llvm::StringRef, cudaAPIversions> CUDA_X_TYPE_NAME_VER_MAP {
  {"cuA", {CUDA_110, CUDA_0, CUDA_0}},
};
const std::map<llvm::StringRef, hipAPIversions> HIP_X_TYPE_NAME_VER_MAP {
  {"rocA", {HIP_5070, HIP_6010, HIP_0}},
  {"hipC", {HIP_1060, HIP_0, HIP_0, HIP_6020}},
};
"""
    rows, versions = extract.parse_cpp(text)
    assert [(r["cuda_name"], r["hip_name"], r["roc_name"], r["flags"]) for r in rows] == [
        ("cuA", "hipA", "rocA", ""), ("cuB", "hipB", "", "UNSUPPORTED CUDA_DEPRECATED"),
        ("cuC", "hipC", "rocC", "ROC_UNSUPPORTED"), ("cuD", "hipD", "", "HIP_UNSUPPORTED"),
    ]
    assert versions == {"rocA": ("5.7.0", "6.1.0", "", ""), "hipC": ("1.6.0", "", "", "6.2.0")}
    assert [extract.roc_translates(r) for r in rows] == [True, False, False, False]
    assert [extract.hip_translates(r) for r in rows] == [True, False, True, False]


def test_roc_names_of_complex_and_half_types_apply_with_roc_only():
    src = "cuComplex a; cuDoubleComplex b; __half h; __nv_bfloat16 bf;\n"
    assert translate(src, Options(roc=True)).output == (
        "rocblas_float_complex a; rocblas_double_complex b; rocblas_half h; rocblas_bfloat16 bf;\n")
    assert translate(src, Options()).output == "hipComplex a; hipDoubleComplex b; __half h; hip_bfloat16 bf;\n"
