"""Extract the rows of HIPIFY's own source maps and complete data/hipify_mappings.csv with them.

HIPIFY's docs tables (the source of data/hipify_mappings.csv, see tools/extract_hipify_tables.py) are generated
from the maps in `src/CUDA2HIP_*.cpp`, but they show the `--roc` column only for the library tables: the rocBLAS
names HIPIFY's maps give to the cuComplex types and to `__half` / `__nv_bfloat16` (runtime / device maps) are in
the source only. This script reads the maps themselves.

Input: a cache directory laid out as `<dir>/<commit>/src/CUDA2HIP_*.cpp` (one folder per HIPIFY revision a file
was read at; keep it out of git). Each `hipCounter` map entry

    {"cuComplex", {"hipComplex", "rocblas_float_complex", CONV_TYPE, API_COMPLEX, 1, FLAGS}},
    m["csrsv2Info_t"] = {"csrsv2Info_t", "rocsparse_mat_descr", CONV_TYPE, API_SPARSE, 4, CUDA_REMOVED};

and each `*_VER_MAP` entry (`{"rocblas_half", {HIP_1050, HIP_0, HIP_0}}`, `{"cuA", {CUDA_110, CUDA_0, CUDA_0}}`,
or the `m["name"] = {...};` form of newer revisions) is parsed.

A cached file may be a reduced copy: the file-read tool returns 16 kB per call, so the large maps were paged
through and only the entries that matter written out (the map-start lines, every entry with a ROC name, entries
the table lacks, their version-map entries). Such a copy says so in a comment line `// reduced: <what was kept>`;
the extract records it in its `reduced` column. Files not in the cache keep their rows of the existing extract,
so the cache can be filled one file at a time.

    python3 tools/extract_hipify_source_maps.py CACHE_DIR            # writes data/hipify_source_map.csv
    python3 tools/extract_hipify_source_maps.py CACHE_DIR --merge    # also adds the missing rows to the table

The merge adds, for every source-map row with a ROC name (not ROC_UNSUPPORTED / UNSUPPORTED) that the table lacks,
a `variant=roc` row (`variant=miopen` when the entry is ROC_MIOPEN_ONLY: hipify-clang uses that ROC name only with
--miopen); its `hip_added` / `hip_deprecated` / `hip_removed` come from the HIP version map of the same file. A CUDA
name the table lacks altogether also gets its `variant=hip` row. Rows it adds name the source file and commit in
`source_table` (`src/<file>@<commit>`). Last, the documented corrections of data/hipify_corrections.csv (HIPIFY
entries that name the wrong ROCm type, checked against the ROCm headers) are applied to the table.
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

# the key: {"name", {...}} or m["name"] = {...}; (newer revisions build the maps in a lambda)
_KEY = r'(?:\{\s*"(?P<cuda>[^"]+)"\s*,\s*|m\[\s*"(?P<mcuda>[^"]+)"\s*\]\s*=\s*)'
ENTRY = re.compile(
    _KEY + r'\{\s*"(?P<hip>[^"]*)"\s*,\s*"(?P<roc>[^"]*)"\s*,\s*(?P<conv>CONV_\w+)\s*,'
    r"\s*(?P<api>API_\w+)\s*(?:,\s*(?P<sec>[\w:]+)\s*)?(?:,\s*(?P<flags>[\w |]+?)\s*)?\}"
)
_VER = r"HIP_(?:\d+|LATEST)"
HIP_VER = re.compile(_KEY.replace("cuda", "name") + rf"\{{\s*(?P<a>{_VER})\s*,\s*(?P<d>{_VER})\s*,\s*(?P<r>{_VER})"
                     rf"(?:\s*,\s*(?P<e>{_VER}))?\s*\}}")
CUDA_VER = re.compile(_KEY.replace("cuda", "name") + r"\{\s*(?P<a>CUDA_\d+|CUDNN_\d+)\s*,\s*(?P<d>CUDA_\d+|CUDNN_\d+)\s*,"
                      r"\s*(?P<r>CUDA_\d+|CUDNN_\d+)")
MAP_START = re.compile(r"std::map<llvm::StringRef,\s*(\w+)>\s*(\w+_MAP)\b")  # not a lambda's local `m`
REDUCED = re.compile(r"^\s*//\s*reduced:\s*(?P<note>.+?)\s*$", re.M)
CORRECTIONS = ROOT / "data" / "hipify_corrections.csv"

# API_* of HIPIFY -> api_group of the table (the runtime group holds HIPIFY's device types as "device")
API_GROUP = {
    "API_RUNTIME": "runtime", "API_DRIVER": "driver", "API_COMPLEX": "complex", "API_BLAS": "blas",
    "API_SPARSE": "sparse", "API_SOLVER": "solver", "API_RAND": "rand", "API_FFT": "fft", "API_DNN": "dnn",
    "API_CUB": "cub", "API_RTC": "rtc",
}
KIND = {"CONV_TYPE": "type", "CONV_DEVICE_TYPE": "type", "CONV_NUMERIC_LITERAL": "enum", "CONV_DEFINE": "define",
        "CONV_LIB_FUNC": "function", "CONV_DEVICE_FUNC": "device_function"}
COLUMNS = ["file", "commit", "map", "cuda_name", "hip_name", "roc_name", "conv", "api", "flags", "reduced"]


def hip_version(token: str | None) -> str:
    """HIP_5070 -> 5.7.0; HIP_0 -> ''; HIP_LATEST (experimental in the latest HIP) -> 'latest'."""
    digits = (token or "").removeprefix("HIP_")
    if not digits or digits == "0":
        return ""
    if digits == "LATEST":
        return "latest"
    digits = digits.rjust(4, "0")
    return f"{int(digits[:-3])}.{int(digits[-3:-1])}.{int(digits[-1])}"


def cuda_version(token: str | None) -> str:
    """CUDA_118 -> 11.8; CUDNN_897 -> 8.9.7; CUDA_0 -> '' (the spelling of the table's cuda_* columns)."""
    kind, _, digits = (token or "").partition("_")
    if not digits or digits == "0":
        return ""
    if kind == "CUDNN":
        return ".".join(digits.ljust(3, "0"))
    return f"{int(digits[:-1])}.{digits[-1]}"


def parse_maps(text: str) -> tuple[list[dict[str, str]], dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """(hipCounter rows, {hip or roc name: (added, deprecated, removed, experimental)} of the HIP version maps,
    {cuda name: (added, deprecated, removed)} of the CUDA version maps) of one map file."""
    rows: list[dict[str, str]] = []
    versions: dict[str, tuple[str, ...]] = {}
    cuda: dict[str, tuple[str, ...]] = {}
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
                versions[m["name"] or m["mname"]] = tuple(hip_version(m[k]) for k in "adre")
            continue
        if current.endswith("VER_MAP"):
            m = CUDA_VER.search(code)
            if m:
                cuda[m["name"] or m["mname"]] = tuple(cuda_version(m[k]) for k in "adr")
            continue
        m = ENTRY.search(code)
        if m:
            sec, flags = m["sec"] or "", m["flags"] or ""
            if sec and not sec.isdigit() and not sec.startswith("SEC::"):
                sec, flags = "", " | ".join(x for x in (sec, flags) if x)  # no section number: that was a flag
            rows.append({"map": current, "cuda_name": m["cuda"] or m["mcuda"], "hip_name": m["hip"],
                         "roc_name": m["roc"], "conv": m["conv"], "api": m["api"],
                         "flags": " ".join(flags.replace("|", " ").split())})
    return rows, versions, cuda


def read_cache(cache: Path):
    """(rows, {(file name, hip name): versions}, {(file name, cuda name): (added, deprecated, removed)}) of every
    cached map file."""
    rows: list[dict[str, str]] = []
    versions: dict[tuple[str, str], tuple[str, ...]] = {}
    cuda_versions: dict[tuple[str, str], tuple[str, ...]] = {}
    for path in sorted(cache.glob("*/src/CUDA2HIP_*.cpp")):
        commit = path.parent.parent.name
        text = path.read_text(encoding="utf-8")
        reduced = REDUCED.search(text)
        file_rows, file_versions, file_cuda = parse_maps(text)
        for row in file_rows:
            rows.append({"file": f"src/{path.name}", "commit": commit, **row,
                         "reduced": reduced["note"] if reduced else ""})
        for name, ver in file_versions.items():
            versions[(path.name, name)] = ver
        for name, ver in file_cuda.items():
            cuda_versions[(path.name, name)] = ver
    return rows, versions, cuda_versions


def with_kept_rows(rows: list[dict[str, str]], out: Path = OUT) -> list[dict[str, str]]:
    """The new rows plus the existing extract's rows of every file the cache does not hold."""
    if not out.exists():
        return rows
    files = {r["file"] for r in rows}
    with out.open(newline="", encoding="utf-8") as fh:
        kept = [{c: r.get(c) or "" for c in COLUMNS} for r in csv.DictReader(fh) if r["file"] not in files]
    return sorted(kept + rows, key=lambda r: r["file"])


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


def roc_variant(row: dict[str, str]) -> str:
    """'miopen' for a ROC name hipify-clang uses only with --miopen (ROC_MIOPEN_ONLY), else 'roc'."""
    return "miopen" if "ROC_MIOPEN_ONLY" in row["flags"].split() else "roc"


def library_of(name: str) -> str:
    for prefix, lib in (("rocblas", "rocBLAS"), ("miopen", "MIOpen"), ("rocsparse", "rocSPARSE"),
                        ("_rocsparse", "rocSPARSE"), ("rocsolver", "rocSOLVER"), ("rocrand", "rocRAND"),
                        ("ROCRAND", "rocRAND")):
        if name.startswith(prefix):
            return lib
    return "HIP runtime"


def read_corrections(path: Path = CORRECTIONS) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def corrected(row: dict[str, str], corrections: list[dict[str, str]]) -> bool:
    """True when a correction replaces the ROC name this source-map row gives."""
    return any(c["cuda_name"] == row["cuda_name"] and c["variant"] == roc_variant(row)
               and c["hipify_name"] == row["roc_name"] for c in corrections)


def merge(rows, versions, table: Path = TABLE, cuda_versions: dict | None = None,
          corrections: list[dict[str, str]] | None = None) -> int:
    """Add the rows the table lacks (a variant=roc / miopen row for every ROC name, a variant=hip row for a CUDA
    name the table does not have) and apply the corrections; returns how many rows were added or changed."""
    with table.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        header = list(reader.fieldnames or [])
        existing = list(reader)
    corrections = read_corrections() if corrections is None else corrections
    cuda_versions = cuda_versions or {}
    have = {(r["cuda_name"], r["variant"], r["hip_name"]) for r in existing}
    hip_rows = {(r["cuda_name"], r["api_group"]): r for r in existing if r["variant"] == "hip"}
    added = []

    def new_row(row, variant, name, group, base, ver):
        file = row["file"].removeprefix("src/")
        cver = cuda_versions.get((file, row["cuda_name"]), ("", "", ""))
        new = {col: "" for col in header}
        new.update({
            "cuda_name": row["cuda_name"], "hip_name": name,
            "target_library": "HIP runtime" if variant == "hip" else library_of(name),
            "variant": variant, "api_group": group, "section": base.get("section", ""),
            "kind": KIND.get(row["conv"], base.get("kind", "")),
            "cuda_added": base.get("cuda_added", cver[0]), "cuda_deprecated": base.get("cuda_deprecated", cver[1]),
            "cuda_changed": base.get("cuda_changed", ""), "cuda_removed": base.get("cuda_removed", cver[2]),
            "hip_added": ver[0], "hip_deprecated": ver[1], "hip_removed": ver[2],
            "hip_experimental": ver[3] if "HIP_EXPERIMENTAL" in row["flags"].split() else "",
            "source_table": f"{row['file']}@{row['commit']}",
        })
        return new

    for row in rows:
        group = group_of(row)
        file = row["file"].removeprefix("src/")
        if (row["cuda_name"], group) not in hip_rows:  # a CUDA name the docs tables lack: its HIP row first
            name = row["hip_name"] if hip_translates(row) else ""
            ver = versions.get((file, name), ("", "", "", "")) if name else ("", "", "", "")
            base_row = new_row(row, "hip", name, group, {}, ver)
            hip_rows[(row["cuda_name"], group)] = base_row
            have.add((row["cuda_name"], "hip", name))
            added.append(base_row)
        variant = roc_variant(row)
        if not roc_translates(row) or (row["cuda_name"], variant, row["roc_name"]) in have \
                or corrected(row, corrections):
            continue
        ver = versions.get((file, row["roc_name"]), ("", "", "", ""))
        have.add((row["cuda_name"], variant, row["roc_name"]))
        added.append(new_row(row, variant, row["roc_name"], group, hip_rows[(row["cuda_name"], group)], ver))
    changed = apply_corrections(existing, corrections)
    if changed:
        with table.open("w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, header, lineterminator="\n")
            writer.writeheader()
            writer.writerows(existing)
    if added:
        with table.open("a", newline="", encoding="utf-8") as fh:
            csv.DictWriter(fh, header, lineterminator="\n").writerows(added)
    return len(added) + changed


def apply_corrections(table_rows: list[dict[str, str]], corrections: list[dict[str, str]]) -> int:
    """Give the corrected name (and versions, where the correction has them) to each table row a correction
    names, or add the row when the table has none for that CUDA name; returns how many rows changed."""
    changed = 0
    source = CORRECTIONS.relative_to(ROOT).as_posix()
    for c in corrections:
        key = (c["cuda_name"], c["variant"], c["api_group"])
        mine = [r for r in table_rows if (r["cuda_name"], r["variant"], r["api_group"]) == key]
        targets = [r for r in mine if r["hip_name"] in (c["hipify_name"], c["corrected_name"])]
        if not mine:  # a name HIPIFY does not list at all
            header = table_rows[0].keys() if table_rows else ()
            new = dict.fromkeys(header, "")
            new.update({"cuda_name": c["cuda_name"], "variant": c["variant"], "api_group": c["api_group"],
                        "target_library": "HIP runtime", "kind": c.get("kind", ""), "section": c.get("section", "")})
            table_rows.append(new)
            targets = [new]
        for r in targets:
            before = dict(r)
            r["hip_name"] = c["corrected_name"]
            for col in ("hip_added", "hip_changed"):
                if c.get(col):
                    r[col] = c[col]
            r["source_table"] = source
            changed += r != before
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cache", type=Path, help="directory of <commit>/src/CUDA2HIP_*.cpp files")
    parser.add_argument("--merge", action="store_true", help="add missing rows to data/hipify_mappings.csv")
    args = parser.parse_args(argv)
    rows, versions, cuda_versions = read_cache(args.cache)
    if not rows:
        print(f"no map entries under {args.cache}", file=sys.stderr)
        return 1
    rows = with_kept_rows(rows)
    write_extract(rows)
    print(f"{len(rows)} source-map rows -> {OUT.relative_to(ROOT)}")
    if args.merge:
        n = merge(rows, versions, cuda_versions=cuda_versions)
        print(f"{n} rows added to or corrected in {TABLE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
