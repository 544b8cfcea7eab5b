"""The hipify page's diff view on repetitive code (issue 27 item 3), printed as a table. Timings never go into tests;
tests/test_hipify_page_model.py bounds the diff's operation count instead.

Input: the issue's shape, N lines of `cudaMalloc(&d, 4);` / `x = 1;` / `}` repeated, against its hipify output (a
header line inserted on top, a third of the lines renamed). Rows: the page's diff (rocm_bridge.hipify.page_model.diff:
cold, then the cached rerun) and, for comparison, what the page did before (difflib.SequenceMatcher(autojunk=False),
cubic here), run only up to --old-max lines because it takes minutes beyond.

    python bench/hipify_diff.py [--old-max 2000]
"""

from __future__ import annotations

import argparse
import difflib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rocm_bridge.hipify import page_model as pm  # noqa: E402
from rocm_bridge.hipify.translator import Options, translate  # noqa: E402


def repetitive(n: int) -> str:
    unit = ["cudaMalloc(&d, 4);", "x = 1;", "}"]
    return "\n".join(unit[i % 3] for i in range(n)) + "\n"


def old_rows(source: str, output: str) -> int:
    a, b = source.splitlines(), output.splitlines()
    n = 0
    for group in difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(0):
        for tag, i1, i2, j1, j2 in group:
            if tag != "equal":
                n += max(i2 - i1, j2 - j1)
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old-max", type=int, default=1000, help="largest input run through the old difflib diff")
    args = ap.parse_args()
    print("| lines | changed rows | diff ms (cold) | cached rerun ms | operations | bound | difflib (before) s |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for n in (1_000, 2_000, 10_000, 20_000):
        src = repetitive(n)
        out = translate(src, Options()).output
        pm.diff.cache_clear()
        t0 = time.perf_counter()
        d = pm.diff(src, out)
        cold = time.perf_counter() - t0
        t0 = time.perf_counter()
        pm.diff(src, out)
        warm = time.perf_counter() - t0
        bound = pm.work_for(src.count("\n"), out.count("\n")).limit
        old = "-"
        if n <= args.old_max:
            t0 = time.perf_counter()
            old_rows(src, out)
            old = f"{time.perf_counter() - t0:.1f}"
        print(f"| {n:,} | {d.changed:,} | {cold * 1000:.1f} | {warm * 1000:.3f} | {d.ops:,} | {bound:,} | {old} |")


if __name__ == "__main__":
    main()
