"""Conformance on our own HIPIFY-style lit suite (tests/hipify/conformance: original cases whose CHECK lines state
HIPIFY's output, scored by tools/hipify_lit.py): the share of CHECK lines the engine's output matches stays above
its floor, and the scorer itself is right."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("hipify_lit", ROOT / "tools" / "hipify_lit.py")
lit = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lit)

FLOOR = 97.0  # a little below the measured 98.2 % (266 of 271 CHECK lines, 17 files) on 2026-12-01; the five misses:
# reinterpret_cast<const void*> added to kernel-symbol arguments where HIPIFY adds none (3, by design, see
# rocm_bridge/hipify/args.py), a template launch with deduced arguments (HIP_KERNEL_NAME needs clang's view, 1),
# a CUDA name inside a string literal (HIPIFY renames it, this engine leaves strings by policy, 1)


def test_score_stays_above_the_floor():
    scores = lit.run()
    assert len(scores) == 17
    matched, checks, pct = lit.total(scores)
    assert checks == 271
    assert pct >= FLOOR, lit.table(scores, "below the floor")
    assert sum(s.not_violations for s in scores) == 0


def test_scorer_follows_filecheck_order_comments_whitespace_and_regex():
    text = "// RUN: x --roc\n// CHECK: hipMalloc(&p, 4);\ncudaMalloc(&p, 4);\n// CHECK: a{{[0-9]+}}b\n"
    options, checks = lit.parse(text)
    assert options == ["--roc"] and [c.pattern for c in checks] == ["hipMalloc(&p, 4);", "a{{[0-9]+}}b"]
    # the CHECK's own comment line must not count as the match
    assert lit.score_output("t", text, checks).matched == 0
    assert lit.score_output("t", "hipMalloc(&p,   4);\na12b\n", checks).matched == 2
    assert lit.score_output("t", "a12b\nhipMalloc(&p, 4);\n", checks).matched == 1  # order matters
    inc = [lit.Check("CHECK", '#include "rocblas.h"', 1), lit.Check("CHECK-NOT", "cublas", 2)]
    s = lit.score_output("t", "#include <rocblas/rocblas.h>\n", inc)
    assert s.matched == 1 and s.not_violations == 0
    assert lit.score_output("t", "cublas x;\n", [inc[1], lit.Check("CHECK", "x", 3)]).not_violations == 1
