"""Extract the rows of HIPIFY's own source maps and complete data/hipify_mappings.csv with them.

HIPIFY's docs tables (the source of data/hipify_mappings.csv, see tools/extract_hipify_tables.py) are generated
from the maps in `src/CUDA2HIP_*.cpp`, but they show the `--roc` column only for the library tables: the rocBLAS
names HIPIFY's maps give to the cuComplex types and to `__half` / `__nv_bfloat16` (runtime / device maps) are in
the source only. This script reads the maps themselves.

Input: a cache directory laid out as `<dir>/<commit>/src/CUDA2HIP_*.cpp` (one folder per HIPIFY revision a file
was read at; keep it out of git). Each `hipCounter` map entry

    {"cuComplex", {"hipComplex", "rocblas_float_complex", CONV_TYPE, API_COMPLEX, 1, FLAGS}},

and each `HIP_*_VER_MAP` entry `{"rocblas_half", {HIP_1050, HIP_0, HIP_0}}` is parsed.

    python3 tools/extract_hipify_source_maps.py CACHE_DIR            # writes data/hipify_source_map.csv
    python3 tools/extract_hipify_source_maps.py CACHE_DIR --merge    # also adds the missing rows to the table

The merge adds, for every source-map row with a ROC name (not ROC_UNSUPPORTED / UNSUPPORTED) that the table lacks,
a `variant=roc` row; its `hip_added` / `hip_deprecated` / `hip_removed` come from the HIP version map of the same
file. Rows it adds name the source file and commit in `source_table` (`src/<file>@<commit>`).
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "hipify_source_map.csv"
TABLE = ROOT / "data" / "hipify_mappings.csv"

ENTRY = re.compile(
    r'\{\s*"(?P<cuda>[^"]+)"\s*,\s*\{\s*"(?P<hip>[^"]*)"\s*,\s*"(?P<roc>[^"]*)"\s*,\s*(?P<conv>CONV_\w+)\s*,'
    r"\s*(?P<api>API_\w+)\s*(?:,\s*(?P<sec>[\w:]+)\s*)?(?:,\s*(?P<flags>[\w |]+?)\s*)?\}\s*\}"
)
HIP_VER = re.compile(r'\{\s*"(?P<name>[^"]+)"\s*,\s*\{\s*(?P<a>HIP_\d+)\s*,\s*(?P<d>HIP_\d+)\s*,\s*(?P<r>HIP_\d+)'
                     r"(?:\s*,\s*(?P<e>HIP_\d+))?\s*\}\s*\}")
MAP_START = re.compile(r"std::map<llvm::StringRef,\s*(\w+)>\s*(\w+)")

# API_* of HIPIFY -> api_group of the table (the runtime group holds HIPIFY's device types as "device")
API_GROUP = {
    "API_RUNTIME": "runtime", "API_DRIVER": "driver", "API_COMPLEX": "complex", "API_BLAS": "blas",
    "API_SPARSE": "sparse", "API_SOLVER": "solver", "API_RAND": "rand", "API_FFT": "fft", "API_DNN": "dnn",
    "API_CUB": "cub", "API_RTC": "rtc",
}
KIND = {"CONV_TYPE": "type", "CONV_DEVICE_TYPE": "type", "CONV_NUMERIC_LITERAL": "enum", "CONV_DEFINE": "define",
        "CONV_LIB_FUNC": "function", "CONV_DEVICE_FUNC": "device_function"}
COLUMNS = ["file", "commit", "map", "cuda_name", "hip_name", "roc_name", "conv", "api", "flags"]


def hip_version(token: str | None) -> str:
    """HIP_5070 -> 5.7.0; HIP_0 -> ''."""
    digits = (token or "").removeprefix("HIP_")
    if not digits or digits == "0":
        return ""
    digits = digits.rjust(4, "0")
    return f"{int(digits[:-3])}.{int(digits[-3:-1])}.{int(digits[-1])}"


def parse_cpp(text: str) -> tuple[list[dict[str, str]], dict[str, tuple[str, str, str, str]]]:
    """(hipCounter rows, {hip or roc name: (added, deprecated, removed, experimental)}) of one map file."""
    rows: list[dict[str, str]] = []
    versions: dict[str, tuple[str, str, str, str]] = {}
    current = ""
    for line in text.splitlines():
        code = line.split("//", 1)[0]
        start = MAP_START.search(code)
        if start:
            current = start.group(2)
            continue
        if current.startswith("HIP_") and current.endswith("VER_MAP"):
            m = HIP_VER.search(code)
            if m:
                versions[m["name"]] = tuple(hip_version(m[k]) for k in "adre")  # type: ignore[assignment]
            continue
        if current.endswith("VER_MAP"):
            continue
        m = ENTRY.search(code)
        if m:
            sec, flags = m["sec"] or "", m["flags"] or ""
            if sec and not sec.isdigit() and not sec.startswith("SEC::"):
                sec, flags = "", " | ".join(x for x in (sec, flags) if x)  # no section number: that was a flag
            rows.append({"map": current, "cuda_name": m["cuda"], "hip_name": m["hip"], "roc_name": m["roc"],
                         "conv": m["conv"], "api": m["api"], "flags": " ".join(flags.replace("|", " ").split())})
    return rows, versions


def read_cache(cache: Path) -> tuple[list[dict[str, str]], dict[tuple[str, str], tuple[str, str, str, str]]]:
    rows: list[dict[str, str]] = []
    versions: dict[tuple[str, str], tuple[str, str, str, str]] = {}
    for path in sorted(cache.glob("*/src/CUDA2HIP_*.cpp")):
        commit = path.parent.parent.name
        file_rows, file_versions = parse_cpp(path.read_text(encoding="utf-8"))
        for row in file_rows:
            rows.append({"file": f"src/{path.name}", "commit": commit, **row})
        for name, ver in file_versions.items():
            versions[(path.name, name)] = ver
    return rows, versions


def write_extract(rows: list[dict[str, str]], out: Path = OUT) -> None:
    with out.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def roc_translates(row: dict[str, str]) -> bool:
    flags = row["flags"].split()
    return bool(row["roc_name"]) and "ROC_UNSUPPORTED" not in flags and "UNSUPPORTED" not in flags


def hip_translates(row: dict[str, str]) -> bool:
    flags = row["flags"].split()
    return bool(row["hip_name"]) and "HIP_UNSUPPORTED" not in flags and "UNSUPPORTED" not in flags


def group_of(row: dict[str, str]) -> str:
    if row["file"].startswith("src/CUDA2HIP_Device_"):
        return "device"
    return API_GROUP.get(row["api"], row["api"].removeprefix("API_").lower())


def merge(rows, versions, table: Path = TABLE) -> int:
    """Add a variant=roc row for every ROC name of the source maps the table lacks; returns how many."""
    with table.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        header = list(reader.fieldnames or [])
        existing = list(reader)
    have = {(r["cuda_name"], r["variant"], r["hip_name"]) for r in existing}
    hip_rows = {(r["cuda_name"], r["api_group"]): r for r in existing if r["variant"] == "hip"}
    added = []
    for row in rows:
        if not roc_translates(row) or (row["cuda_name"], "roc", row["roc_name"]) in have:
            continue
        group = group_of(row)
        base = hip_rows.get((row["cuda_name"], group), {})
        ver = versions.get((row["file"].removeprefix("src/"), row["roc_name"]), ("", "", "", ""))
        new = {col: "" for col in header}
        new.update({
            "cuda_name": row["cuda_name"], "hip_name": row["roc_name"], "target_library": "rocBLAS"
            if row["roc_name"].startswith("rocblas") else "MIOpen" if row["roc_name"].startswith("miopen")
            else "rocSPARSE" if row["roc_name"].startswith("rocsparse") else "HIP runtime",
            "variant": "roc", "api_group": group, "section": base.get("section", ""),
            "kind": KIND.get(row["conv"], base.get("kind", "")),
            "cuda_added": base.get("cuda_added", ""), "cuda_deprecated": base.get("cuda_deprecated", ""),
            "cuda_changed": base.get("cuda_changed", ""), "cuda_removed": base.get("cuda_removed", ""),
            "hip_added": ver[0], "hip_deprecated": ver[1], "hip_removed": ver[2], "hip_experimental": ver[3],
            "source_table": f"{row['file']}@{row['commit']}",
        })
        have.add((row["cuda_name"], "roc", row["roc_name"]))
        added.append(new)
    if added:
        with table.open("a", newline="", encoding="utf-8") as fh:
            csv.DictWriter(fh, header, lineterminator="\n").writerows(added)
    return len(added)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cache", type=Path, help="directory of <commit>/src/CUDA2HIP_*.cpp files")
    parser.add_argument("--merge", action="store_true", help="add missing ROC rows to data/hipify_mappings.csv")
    args = parser.parse_args(argv)
    rows, versions = read_cache(args.cache)
    if not rows:
        print(f"no map entries under {args.cache}", file=sys.stderr)
        return 1
    write_extract(rows)
    print(f"{len(rows)} source-map rows -> {OUT.relative_to(ROOT)}")
    if args.merge:
        print(f"{merge(rows, versions)} rows added to {TABLE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
