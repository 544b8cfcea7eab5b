"""Published AMD Instinct matmul figures (data/published_gemm.csv) beside a live-lab result.

Nothing here was measured by this app: each row is a figure somebody published, with who, when, the software,
the problem size, a quote and the source. `comparison(doc, dtype)` lines a result document's own figures
(sustained and short burst at its largest n) up with the published rows of the same dtype, each with its
datasheet peak from data/gpu_specs.csv, so the page can show measured / peak, the fair cross-vendor number.
A missing peak stays None ("not in the table"), never a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from rocm_bridge import hardware
from rocm_bridge.data import read_csv
from rocm_bridge.errors import InvalidInput
from rocm_bridge.hardware import parse_figure
from rocm_bridge.live.specs import DTYPE_COLUMNS

FILE = "published_gemm.csv"
COLUMNS = (
    "id",
    "gpu",
    "dtype",
    "scope",
    "problem_size",
    "tflops",
    "kind",
    "clock_mhz",
    "peak_column",
    "software",
    "publisher",
    "measured_by",
    "date",
    "date_note",
    "source",
    "quote",
    "note",
)
DTYPES = ("fp32", "tf32", "fp16", "bf16")  # the live lab's matmul dtypes
KINDS = ("sustained", "burst", "max-achievable")
SCOPES = ("device", "1 GCD")
MEASURED_BY = ("vendor", "independent")
PEAK_COLUMNS = tuple(DTYPE_COLUMNS.values())  # data/gpu_specs.csv columns a row may be compared with
_PRECISION = {column: key for key, (column, _unit) in hardware.PRECISIONS.items()}  # column -> hardware metric
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_SIZE = re.compile(r"\d+x\d+x\d+")
_URL = re.compile(r"https?://\S+|github\.com/[\w.-]+/[\w.-]+")


@dataclass(frozen=True)
class Published:
    """One published figure, with the datasheet peak of the same chip (None when the table has none)."""

    id: str
    gpu: str
    dtype: str
    scope: str
    problem_size: str  # "MxNxK" as the source writes it, "" when the source does not say
    tflops: float
    kind: str
    clock_mhz: float | None
    software: str
    publisher: str
    measured_by: str
    date: str
    date_note: str
    source: str
    quote: str
    note: str
    peak_tflops: float | None

    @property
    def ratio(self) -> float | None:
        return self.tflops / self.peak_tflops if self.peak_tflops else None


@dataclass(frozen=True)
class Bar:
    """One bar of the comparison: the result document's own figure or a published one."""

    origin: str  # "recorded" | "measured" (this machine) | "published"
    gpu: str
    kind: str  # "sustained" | "burst" | "max-achievable"
    size: str  # "8192x8192x8192", or the published problem size ("" if not stated)
    tflops: float
    peak_tflops: float | None
    publisher: str = ""
    date: str = ""
    scope: str = "device"
    source: str = ""
    published: Published | None = None  # the table's row behind a published bar

    @property
    def ratio(self) -> float | None:
        return self.tflops / self.peak_tflops if self.peak_tflops else None

    @property
    def row_id(self) -> str:
        return self.published.id if self.published else ""


def problems(rows: list[dict[str, str]]) -> list[str]:
    """Every way the table's rows break its schema (empty list: valid). The loader refuses a table with any."""
    out: list[str] = []
    seen: set[str] = set()
    for i, row in enumerate(rows):
        where = f"row {i + 2} ({row.get('id', '?')})"
        if tuple(row) != COLUMNS:
            out.append(f"{where}: columns {tuple(row)} != {COLUMNS}")
            continue
        if not row["id"] or row["id"] in seen:
            out.append(f"{where}: id empty or repeated")
        seen.add(row["id"])
        checks = {
            "dtype": row["dtype"] in DTYPES,
            "kind": row["kind"] in KINDS,
            "scope": row["scope"] in SCOPES,
            "measured_by": row["measured_by"] in MEASURED_BY,
            "peak_column": row["peak_column"] in PEAK_COLUMNS,
            "tflops": parse_figure(row["tflops"]) is not None,
            "clock_mhz": not row["clock_mhz"] or parse_figure(row["clock_mhz"]) is not None,
            "problem_size": not row["problem_size"] or bool(_SIZE.fullmatch(row["problem_size"])),
            "date": bool(_DATE.fullmatch(row["date"])),
            "source": bool(_URL.search(row["source"])),
            "gpu": row["gpu"].startswith("Instinct MI"),
        }
        out += [f"{where}: bad {name} {row[name]!r}" for name, ok in checks.items() if not ok]
        out += [f"{where}: empty {name}" for name in ("quote", "software", "publisher", "date_note") if not row[name]]
        spec = _spec(row["gpu"])
        if row["scope"] == "1 GCD" and (spec is None or spec.gcds < 2):
            out.append(f"{where}: scope '1 GCD' needs a multi-GCD row in {hardware.SPECS_CSV}")
    return out


def _spec(model: str) -> hardware.Gpu | None:
    try:
        return hardware.gpu(hardware.gpu_id(model))
    except InvalidInput:
        return None


def datasheet_peak(gpu: str, column: str, scope: str) -> float | None:
    """The peak in data/gpu_specs.csv's `column` for the model `gpu` (rocm_bridge.hardware), divided by the GCD
    count for a one-GCD figure. None when the model or the cell is missing: the page then says so, never a guess."""
    spec = _spec(gpu)
    return None if spec is None else spec.value(_PRECISION[column], per_gcd=scope == "1 GCD")


@cache
def load() -> tuple[Published, ...]:
    """Every row of data/published_gemm.csv, checked (ValueError names the first problems)."""
    rows = read_csv(FILE)
    bad = problems(rows)
    if bad:
        raise ValueError(f"{FILE}: " + "; ".join(bad[:3]))
    return tuple(
        Published(
            id=r["id"],
            gpu=r["gpu"],
            dtype=r["dtype"],
            scope=r["scope"],
            problem_size=r["problem_size"],
            tflops=float(r["tflops"]),
            kind=r["kind"],
            clock_mhz=parse_figure(r["clock_mhz"]),
            software=r["software"],
            publisher=r["publisher"],
            measured_by=r["measured_by"],
            date=r["date"],
            date_note=r["date_note"],
            source=r["source"],
            quote=r["quote"],
            note=r["note"],
            peak_tflops=datasheet_peak(r["gpu"], r["peak_column"], r["scope"]),
        )
        for r in rows
    )


def for_dtype(dtype: str) -> list[Published]:
    """Published rows of one dtype, by GPU then problem size (as listed in the table)."""
    return [p for p in load() if p.dtype == dtype]


def _matmul_rows(doc: dict) -> list[dict]:
    mm = doc.get("benchmarks", {}).get("matmul", {})
    return mm.get("rows", []) if mm.get("status") in ("ok", "partial") else []


def dtypes_for(doc: dict) -> list[str]:
    """The dtypes a GPU result document measured that also have published figures (none for a CPU run)."""
    if doc.get("device", {}).get("kind") != "gpu":
        return []
    measured = {r["dtype"] for r in _matmul_rows(doc)}
    published = {p.dtype for p in load()}
    return [d for d in DTYPES if d in measured and d in published]


def own_bars(doc: dict, dtype: str) -> list[Bar]:
    """The document's sustained and (when timed) short-burst figures for dtype at its largest n."""
    rows = [r for r in _matmul_rows(doc) if r["dtype"] == dtype]
    if not rows:
        return []
    row = max(rows, key=lambda r: r["n"])
    origin = "recorded" if doc.get("source") == "recorded" else "measured"
    peak = ((doc.get("spec") or {}).get("peaks_tflops") or {}).get(dtype)
    gpu = doc["device"]["name"]
    size = f"{row['n']}x{row['n']}x{row['n']}"
    bars = [Bar(origin, gpu, "sustained", size, float(row["tflops"]), peak)]
    if row.get("burst_tflops"):
        bars.append(Bar(origin, gpu, "burst", size, float(row["burst_tflops"]), peak))
    return bars


def comparison(doc: dict, dtype: str) -> list[Bar]:
    """The document's own bars first, then every published figure of the same dtype."""
    published = [
        Bar(
            "published",
            p.gpu,
            p.kind,
            p.problem_size,
            p.tflops,
            p.peak_tflops,
            publisher=p.publisher,
            date=p.date,
            scope=p.scope,
            source=p.source,
            published=p,
        )
        for p in for_dtype(dtype)
    ]
    return own_bars(doc, dtype) + published
