"""The mapping index: data/hipify_mappings.csv turned into fast look-up tables.

The CSV (13k rows, 2 MB) stays the single source of truth. Parsing it costs ~60 ms, which is a fifth of the
command-line budget, so the parsed index is kept in small marshal files in the user's cache directory, keyed
by the CSV's content hash (BLAKE2b) and by FORMAT: any change to the table's content rebuilds them on the next
run. Hashing 2 MB on every start would cost a few ms, so a stamp file remembers the hash for the CSV's size and
modification time; a touched but unchanged CSV (a git checkout) is hashed once and not rebuilt.
If the cache directory is not writable the index is simply built in memory every time.
"""

from __future__ import annotations

import marshal
import os
from functools import lru_cache

from rocm_bridge.hipify.records import record

CSV_NAME = "hipify_mappings.csv"
# paths are strings (os.path): pathlib costs ~10 ms of a one-line command-line run; PathLike arguments work too
DATA_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..", "data"))
FORMAT = 8  # bump when the record layout below changes

# Record layout: one tab-joined string per name (13k short strings load from marshal in a few ms; tuples of
# strings take several times longer), split on use by fields():
#   0 cuda_name  1 hip_name  2 target_library  3 api_group  4 section  5 kind
#   6 cuda_added 7 cuda_deprecated 8 cuda_removed  9 hip_added 10 hip_deprecated 11 hip_removed
#   12 hip_experimental
NAME, HIP, LIB, GROUP, SECTION, KIND = range(6)
CUDA_ADDED, CUDA_DEPRECATED, CUDA_REMOVED, HIP_ADDED, HIP_DEPRECATED, HIP_REMOVED, EXPERIMENTAL = range(6, 13)

API_GROUPS = ("runtime", "driver", "complex", "device", "rtc", "blas", "sparse", "solver", "rand", "fft", "dnn", "cub")
# When a ROC name replaces the HIP one, as hipify-clang decides it (src/Statistics.cpp, Statistics::isToRoc, read
# at ROCm/HIPIFY e3f1bd8b): the entry's API type is BLAS, DNN, SPARSE, SOLVER, RUNTIME or COMPLEX, and either --roc
# is given without --miopen and the entry is not ROC_MIOPEN_ONLY, or --miopen is given. HIPIFY's device types
# (__half ...) are API_RUNTIME entries, hence "device". RAND is in the rule of later HIPIFY revisions (its test
# curand2rocrand.cu expects rocRAND names under --roc). One deliberate difference: the DNN group (cuDNN -> MIOpen)
# needs --miopen here, because HIPIFY's cuDNN -> MIOpen argument rewrites apply only with --miopen and MIOpen names
# with cuDNN argument lists do not compile.
ROC_GROUPS = ("blas", "sparse", "solver", "rand", "complex", "device", "runtime")  # --roc
MIOPEN_GROUPS = ("dnn", *ROC_GROUPS)  # --miopen: every ROC group, and the ROC_MIOPEN_ONLY rows (variant "miopen")


@record
class Mapping:
    """One CUDA name as the chosen target sees it (a readable view of a record)."""

    cuda_name: str
    hip_name: str  # "" = no translation
    target_library: str
    api_group: str
    section: str
    kind: str
    cuda_added: str
    cuda_deprecated: str
    cuda_removed: str
    hip_added: str
    hip_deprecated: str
    hip_removed: str
    hip_experimental: str

    @classmethod
    def of(cls, rec: str) -> Mapping:
        return cls(*fields(rec))


def fields(rec: str) -> list[str]:
    return rec.split("\t")


def csv_path() -> str:
    return os.path.join(DATA_DIR, CSV_NAME)


def cache_dir() -> str:
    base = (os.environ.get("ROCM_BRIDGE_CACHE") or os.environ.get("XDG_CACHE_HOME")
            or os.path.join(os.path.expanduser("~"), ".cache"))
    return os.path.join(base, "rocm_bridge")


def _record(row: list[str], col: dict[str, int]) -> str:
    return "\t".join((
        row[col["cuda_name"]], row[col["hip_name"]], row[col["target_library"]], row[col["api_group"]],
        row[col["section"]], row[col["kind"]],
        row[col["cuda_added"]], row[col["cuda_deprecated"]], row[col["cuda_removed"]],
        row[col["hip_added"]], row[col["hip_deprecated"]], row[col["hip_removed"]], row[col["hip_experimental"]],
    ))


def build_index(path: str | os.PathLike) -> dict[str, dict[str, str]]:
    """Parse the CSV: {"hip": {name: record}, "roc:<group>": {name: record} for each API group with roc rows}.

    A name listed in several API groups (a handful of shared driver/runtime types) keeps the first row that has
    a translation, else the first row.
    """
    import csv  # here: a start with a built cache never parses the CSV

    out: dict[str, dict[str, str]] = {"hip": {}}
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh)
        header = next(reader)
        col = {name: i for i, name in enumerate(header)}
        for row in reader:
            if not row:
                continue
            name, hip = row[col["cuda_name"]], row[col["hip_name"]]
            variant = row[col["variant"]]
            key = "hip" if variant == "hip" else f"{variant}:{row[col['api_group']]}"
            table = out.setdefault(key, {})
            old = table.get(name)
            if old is None or (hip and not fields(old)[HIP]):
                table[name] = _record(row, col)
    return out


def _cache_key(path: str | os.PathLike) -> str:
    st = os.stat(path)
    return f"{_content_hash(os.fspath(path), st.st_size, st.st_mtime_ns)}:{FORMAT}"


@lru_cache(maxsize=8)
def _content_hash(path: str, size: int, mtime_ns: int) -> str:
    """BLAKE2b of the CSV, remembered in a stamp file for (path, size, mtime) so a start reads no 2 MB."""
    stamp = os.path.join(cache_dir(), "hipify_index_stamp.marshal")
    try:
        with open(stamp, "rb") as fh:
            stamps = marshal.load(fh)
        if not isinstance(stamps, dict):
            stamps = {}
    except (OSError, EOFError, ValueError, TypeError):
        stamps = {}
    known = stamps.get(path)
    if known and known[0] == size and known[1] == mtime_ns:
        return known[2]
    import hashlib

    with open(path, "rb") as fh:
        digest = hashlib.blake2b(fh.read(), digest_size=16).hexdigest()
    stamps[path] = (size, mtime_ns, digest)
    try:
        os.makedirs(cache_dir(), exist_ok=True)
        tmp = f"{stamp}.{os.getpid()}.tmp"
        with open(tmp, "wb") as fh:
            marshal.dump(stamps, fh)
        os.replace(tmp, stamp)
    except OSError:
        pass
    return digest


def _cache_file(table: str) -> str:
    return os.path.join(cache_dir(), f"hipify_index_v{FORMAT}_{table.replace(':', '_')}.marshal")


def _write_cache(index: dict[str, dict[str, str]], key: str, list_tables: bool = True) -> None:
    import contextlib

    try:
        directory = cache_dir()
        os.makedirs(directory, exist_ok=True)
        for old in os.listdir(directory):
            if (old.startswith("hipify_index_v") and old.endswith(".marshal")
                    and not old.startswith(f"hipify_index_v{FORMAT}_")):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(os.path.join(directory, old))  # an older layout
        for table, rows in index.items():
            target = _cache_file(table)
            tmp = f"{target}.{os.getpid()}.tmp"
            with open(tmp, "wb") as fh:
                marshal.dump((key, rows), fh)
            os.replace(tmp, target)
        if list_tables:
            tmp = f"{_cache_file('tables')}.{os.getpid()}.tmp"
            with open(tmp, "wb") as fh:
                marshal.dump((key, sorted(index)), fh)
            os.replace(tmp, _cache_file("tables"))
    except OSError:
        pass  # read-only home: an in-memory index is still correct, only slower to build


def _read_cache(table: str, key: str):
    try:
        with open(_cache_file(table), "rb") as fh:
            # loads(read()), not load(fh): load calls the file's readinto once per object, 8x the instructions
            stored_key, rows = marshal.loads(fh.read())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return rows if stored_key == key else None


@lru_cache(maxsize=4)
def _built(path: str | os.PathLike) -> dict[str, dict[str, str]]:
    index = build_index(path)
    _write_cache(index, _cache_key(path))
    return index


@lru_cache(maxsize=32)
def load_table(table: str, path: str | os.PathLike | None = None) -> dict[str, str]:
    """One table of the index ("hip" or "roc:<group>"), from the cache file when it matches the CSV.

    Tables are cached separately so the default target loads only the HIP table.
    """
    path = path or csv_path()
    rows = _read_cache(table, _cache_key(path))
    if rows is None:
        rows = _built(path).get(table, {})
    return rows


def load_index(path: str | os.PathLike | None = None) -> dict[str, dict[str, str]]:
    """Every table of the index for the CSV at path (default data/hipify_mappings.csv)."""
    path = path or csv_path()
    names = _read_cache("tables", _cache_key(path))
    if names is None:
        return _built(path)
    return {name: load_table(name, path) for name in names}


@lru_cache(maxsize=16)
def active_map(roc: bool = False, miopen: bool = False, path: str | os.PathLike | None = None) -> dict[str, str]:
    """name -> record for one target: HIP names, with the ROC names of ROC_GROUPS for --roc and of MIOPEN_GROUPS
    (MIOpen, and the ROC_MIOPEN_ONLY rows) for --miopen."""
    groups = target_groups(roc, miopen)
    if not groups:
        return load_table("hip", path)
    # the merged table is cached too: one file to load instead of several plus a 9k-entry merge
    name = f"merged:{int(roc)}{int(miopen)}"
    path = path or csv_path()
    key = _cache_key(path)
    table = _read_cache(name, key)
    if table is None:
        table = dict(load_table("hip", path))
        for group in groups:
            table.update(load_table(f"roc:{group}", path))
        if miopen:  # ROC names HIPIFY uses only with --miopen (cudaStream_t -> miopenAcceleratorQueue_t)
            for group in groups:
                table.update(load_table(f"miopen:{group}", path))
        _write_cache({name: table}, key, list_tables=False)
    return table


def target_groups(roc: bool = False, miopen: bool = False) -> tuple[str, ...]:
    """The API groups whose ROC names apply for these options, without repeats."""
    return tuple(dict.fromkeys((ROC_GROUPS if roc else ()) + (MIOPEN_GROUPS if miopen else ())))


def lookup(name: str, roc: bool = False, miopen: bool = False) -> Mapping | None:
    rec = active_map(roc, miopen).get(name)
    return Mapping.of(rec) if rec else None
