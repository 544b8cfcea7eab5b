"""Results recorded with the compiler on the team's machine (tools/record_compile.py), one JSON per page
example in data/compile_recorded/, for classrooms without ROCm. Each names the compiler version and the date."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from rocm_bridge.compile.engine import CompileResult
from rocm_bridge.data import DATA_DIR

DIR = DATA_DIR / "compile_recorded"
TARGETS = (("gfx90a", 64), ("gfx1100", 32))  # the side-by-side pair; every example is recorded for both
ISA_LINES = 80


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8")).hexdigest()[:16]


def path(key: str) -> Path:
    return DIR / f"{key}.json"


@cache
def load(key: str) -> dict | None:
    p = path(key)
    if not p.is_file():
        return None
    return json.loads(p.read_text(encoding="utf-8"))


def result(key: str, target: str) -> CompileResult | None:
    rec = load(key)
    if not rec or target not in rec["results"]:
        return None
    d = dict(rec["results"][target])
    d["recorded"] = rec["date"]
    return CompileResult.from_dict(d)


def record_entry(key: str, code: str, results: dict[str, CompileResult], compiler: str, day: str) -> dict:
    return {"example": key, "code_sha256": code_hash(code), "compiler": compiler, "date": day,
            "results": {t: r.to_dict(isa_lines=ISA_LINES) for t, r in results.items()}}


def comparable(d: dict) -> dict:
    """What a re-run must reproduce: diagnostics (position, severity, message, explanation) and resources."""
    return {"ok": d["ok"],
            "diagnostics": [(x["line"], x["col"], x["severity"], x["message"], x["explain"]) for x in d["diagnostics"]],
            "kernels": [{k: v for k, v in x.items()} for x in d["kernels"]]}


def write(entry: dict) -> Path:
    DIR.mkdir(parents=True, exist_ok=True)
    p = path(entry["example"])
    p.write_text(json.dumps(entry, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return p


# --- clang 22, Triton and the NVIDIA twin (issue 24): data/compile_recorded/{clang22,triton,twin}/<key>.json ----

TARGETS22 = ("gfx90a", "gfx942", "gfx950", "gfx1100", "gfx1201")  # each at its default wave size
SUBDIRS = ("clang22", "triton", "twin")


def sub_path(kind: str, key: str) -> Path:
    if kind not in SUBDIRS:
        raise ValueError(kind)
    return DIR / kind / f"{key}.json"


@cache
def load_sub(kind: str, key: str) -> dict | None:
    p = sub_path(kind, key)
    return json.loads(p.read_text(encoding="utf-8")) if p.is_file() else None


def write_sub(kind: str, key: str, entry: dict) -> Path:
    p = sub_path(kind, key)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(entry, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return p


def result22(key: str, target: str) -> CompileResult | None:
    """The clang 22 result recorded for an example and target (None when not recorded)."""
    rec = load_sub("clang22", key)
    if not rec or target not in rec["results"]:
        return None
    d = dict(rec["results"][target])
    d["recorded"] = rec["date"]
    return CompileResult.from_dict(d)


def triton_result(key: str):
    from rocm_bridge.compile.triton_lab import TritonResult
    rec = load_sub("triton", key)
    if not rec:
        return None
    r = TritonResult.from_dict(rec["result"])
    r.recorded = rec["date"]
    return r
