"""Result documents: their schema, the recorded ones shipped in data/recorded/, and the HostMeasurement
the other pages read ("your machine")."""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from numbers import Real
from pathlib import Path

from rocm_bridge.data import DATA_DIR
from rocm_bridge.errors import InvalidInput
from rocm_bridge.hardware.measured import DTYPES, HostMeasurement
from rocm_bridge.live.suite import BENCHMARKS, SCHEMA_ID

RECORDED_DIR = DATA_DIR / "recorded"
STATUSES = ("ok", "partial", "oom", "unsupported", "error", "skipped")
NUM = (Real,)
OPT_NUM = (Real, type(None))
STR = (str,)
OPT_STR = (str, type(None))

# Required fields of a document, and of each benchmark when its status is ok / partial.
TOP_FIELDS = {
    "schema": STR,
    "source": STR,
    "date": STR,
    "backend": STR,
    "env": (dict,),
    "device": (dict,),
    "spec": (dict, type(None)),
    "host": (dict,),
    "options": (dict,),
    "elapsed_s": NUM,
    "benchmarks": (dict,),
}
ENV_FIELDS = {"backend": STR, "version": STR, "build": STR, "devices": (list,), "extra": (dict,)}
DEVICE_FIELDS = {"name": STR, "kind": STR, "memory_total_bytes": (int, type(None))}
ROW_FIELDS = {
    "matmul": {"dtype": STR, "n": (int,), "seconds": NUM, "tflops": NUM, "spread": NUM, "pct_peak": OPT_NUM},
    # optional per row: "burst_tflops" (GPU, large n), "reference_tflops" and "ratio" (--reference)
    "h2d": {"mode": STR, "bytes": (int,), "seconds": OPT_NUM, "gbs": OPT_NUM, "status": STR},
    "consistency": {"op": STR, "max_abs": NUM, "max_rel": NUM, "tol": NUM, "ok": (bool,)},
}
BENCH_FIELDS = {
    "matmul": {"rows": (list,), "capped": (list,)},
    "h2d": {"rows": (list,), "bytes": (int,)},
    "dispatch": {"tiny_synced_us": NUM, "dispatch_us": NUM, "sync_us": NUM, "kernel_us": NUM, "kernel_gbs": NUM},
    "fusion": {"how": STR, "unfused_s": NUM, "fused_s": NUM, "first_call_s": NUM, "speedup": NUM},
    "mixed_precision": {"fp32_label": STR, "mixed_label": STR, "fp32_s": NUM, "mixed_s": NUM, "speedup": NUM},
    "pipeline": {
        "batch": (int,),
        "t_produce_s": NUM,
        "t_compute_s": NUM,
        "serial_items_per_s": NUM,
        "prefetch_items_per_s": NUM,
        "predicted_serial_items_per_s": NUM,
        "predicted_overlap_items_per_s": NUM,
    },
    "consistency": {"rows": (list,), "device": STR, "all_ok": (bool,)},
}


def _check_fields(obj: object, fields: dict, where: str, errors: list[str]) -> None:
    if not isinstance(obj, dict):
        errors.append(f"{where}: expected an object")
        return
    for name, types in fields.items():
        if name not in obj:
            errors.append(f"{where}.{name}: missing")
        elif isinstance(obj[name], bool) and bool not in types:
            errors.append(f"{where}.{name}: expected {'/'.join(t.__name__ for t in types)}, got bool")
        elif not isinstance(obj[name], types):
            errors.append(
                f"{where}.{name}: expected {'/'.join(t.__name__ for t in types)}, got {type(obj[name]).__name__}"
            )


def validate(doc: object) -> list[str]:
    """Every way doc departs from the result schema (empty list: valid)."""
    errors: list[str] = []
    _check_fields(doc, TOP_FIELDS, "$", errors)
    if errors:
        return errors
    if doc["schema"] != SCHEMA_ID:
        errors.append(f"$.schema: expected {SCHEMA_ID!r}")
    if doc["source"] not in ("measured", "recorded"):
        errors.append("$.source: expected 'measured' or 'recorded'")
    _check_fields(doc["env"], ENV_FIELDS, "$.env", errors)
    _check_fields(doc["device"], DEVICE_FIELDS, "$.device", errors)
    if doc["device"].get("kind") not in ("gpu", "cpu"):
        errors.append("$.device.kind: expected 'gpu' or 'cpu'")
    for name, res in doc["benchmarks"].items():
        where = f"$.benchmarks.{name}"
        if name not in BENCHMARKS:
            errors.append(f"{where}: unknown benchmark")
            continue
        if not isinstance(res, dict) or res.get("status") not in STATUSES:
            errors.append(f"{where}.status: expected one of {', '.join(STATUSES)}")
            continue
        if res["status"] not in ("ok", "partial"):
            continue
        _check_fields(res, BENCH_FIELDS[name], where, errors)
        for i, row in enumerate(res.get("rows") or []):
            _check_fields(row, ROW_FIELDS[name], f"{where}.rows[{i}]", errors)
        for key, value in res.items():
            if isinstance(value, float) and value != value:  # NaN never passes
                errors.append(f"{where}.{key}: NaN")
    return errors


def load(path: Path | str, *, recorded: bool = False) -> dict:
    """Read and validate a result document; InvalidInput names the first problem."""
    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InvalidInput("live.errors.bad_result", name=path.name, detail=str(exc)[:200]) from exc
    problems = validate(doc)
    if problems:
        raise InvalidInput("live.errors.bad_result", name=path.name, detail="; ".join(problems[:3]))
    if recorded:
        doc["source"] = "recorded"
        doc["file"] = path.name
    return doc


@lru_cache(maxsize=1)
def _recorded() -> tuple[dict, ...]:
    from rocm_bridge.live import BACKENDS

    docs = [load(p, recorded=True) for p in sorted(RECORDED_DIR.glob("*.json"))]
    order = {name: i for i, name in enumerate(BACKENDS)}
    return tuple(sorted(docs, key=lambda d: (d["device"]["name"], order.get(d["backend"], 99), d["date"])))


def recorded_results() -> list[dict]:
    """The recorded documents shipped with the app (deep copies: callers may annotate them)."""
    return copy.deepcopy(list(_recorded()))


def software_summary(doc: dict) -> dict[str, str]:
    env = doc["env"]
    extra = env.get("extra") or {}
    out = {env["backend"]: env["version"], "build": env["build"]}
    for key in ("jaxlib", "cuda", "hip", "rocm", "cudnn", "driver", "cuda_driver", "keras"):
        if extra.get(key):
            out[key] = str(extra[key])
    out["python"] = str(doc.get("host", {}).get("python", ""))
    return out


def vendor_of(doc: dict) -> str:
    if doc["device"]["kind"] != "gpu":
        return "CPU"
    if doc.get("spec"):
        return doc["spec"]["vendor"]
    name = doc["device"]["name"].upper()
    if "AMD" in name or "INSTINCT" in name or "RADEON" in name or doc["env"]["build"] == "ROCm":
        return "AMD"
    return "NVIDIA"


def to_host_measurement(doc: dict) -> HostMeasurement:
    """The small record the hardware page and formula lab read from a result document."""
    bench = doc["benchmarks"]
    best: dict[str, float] = {}
    mm = bench.get("matmul", {})
    if mm.get("status") in ("ok", "partial"):
        for row in mm["rows"]:
            if row["dtype"] in DTYPES:
                best[row["dtype"]] = max(best.get(row["dtype"], 0.0), float(row["tflops"]))
    h2d = {}
    if bench.get("h2d", {}).get("status") == "ok":
        h2d = {r["mode"]: r["gbs"] for r in bench["h2d"]["rows"] if r.get("gbs")}
    disp = bench.get("dispatch", {})
    disp_ok = disp.get("status") == "ok"
    return HostMeasurement(
        device_name=doc["device"]["name"],
        vendor=vendor_of(doc),
        backend=doc["backend"],
        backend_version=doc["env"]["version"],
        measured_at=doc["date"],
        recorded=doc.get("source") == "recorded",
        matmul_tflops=best,
        h2d_pageable_gbs=h2d.get("pageable"),
        h2d_pinned_gbs=h2d.get("pinned"),
        d2d_gbs=disp.get("kernel_gbs") if disp_ok and doc["device"]["kind"] == "gpu" else None,
        dispatch_us=disp.get("tiny_synced_us") if disp_ok else None,
        matched_model=(doc.get("spec") or {}).get("model"),
        software=software_summary(doc),
    )
