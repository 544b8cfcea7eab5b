"""Print the live lab's result documents as Markdown tables (the H200 section of bench/README.md is made so).

python bench/live_table.py                      # the recorded documents in data/recorded/
python bench/live_table.py result.json ...      # documents written by `python -m rocm_bridge bench --out`
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rocm_bridge.live.results import load, recorded_results  # noqa: E402


def _f(value, spec=".1f"):
    return "-" if value is None else format(value, spec)


def matmul_table(docs: list[dict]) -> str:
    lines = [
        "| backend | dtype | n | measured TFLOP/s | reference TFLOP/s (CUDA events) | measured / reference | % of datasheet peak |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for doc in docs:
        for r in doc["benchmarks"]["matmul"]["rows"]:
            lines.append(
                f"| {doc['backend']} | {r['dtype']} | {r['n']} | {r['tflops']:.1f} | {_f(r.get('reference_tflops'))} "
                f"| {_f(r.get('ratio'), '.3f')} | {_f(r.get('pct_peak'))} |"
            )
    return "\n".join(lines)


def other_table(docs: list[dict]) -> str:
    lines = ["| measurement | " + " | ".join(d["backend"] for d in docs) + " |", "|---|" + "---:|" * len(docs)]

    def row(label, fn):
        cells = []
        for d in docs:
            try:
                cells.append(fn(d["benchmarks"]))
            except (KeyError, TypeError, StopIteration):
                cells.append("-")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")

    def h2d(mode):
        return lambda b: _f(next(r["gbs"] for r in b["h2d"]["rows"] if r["mode"] == mode), ".1f")

    row("host->device, pageable (GB/s)", h2d("pageable"))
    row("host->device, pinned (GB/s)", h2d("pinned"))
    row("tiny op + sync (us)", lambda b: f"{b['dispatch']['tiny_synced_us']:.1f}")
    row("  of which dispatch, back to back (us)", lambda b: f"{b['dispatch']['dispatch_us']:.1f}")
    row("large elementwise op, read+write (GB/s)", lambda b: f"{b['dispatch']['kernel_gbs']:.0f}")
    row("fusion S (8 elementwise ops, 16M floats)", lambda b: f"{b['fusion']['speedup']:.2f}")
    row("  first call incl. compile (s)", lambda b: f"{b['fusion']['first_call_s']:.1f}")
    row("mixed precision S (MLP step, batch 512, width 4096)", lambda b: f"{b['mixed_precision']['speedup']:.2f}")
    row("pipeline serial (samples/s)", lambda b: f"{b['pipeline']['serial_items_per_s']:.0f}")
    row("pipeline prefetch, 2 workers (samples/s)", lambda b: f"{b['pipeline']['prefetch_items_per_s']:.0f}")
    row(
        "consistency: matmul max rel error vs CPU",
        lambda b: f"{next(r for r in b['consistency']['rows'] if r['op'] == 'matmul')['max_rel']:.1e}",
    )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    docs = [load(p) for p in argv] if argv else recorded_results()
    for doc in docs:
        env = doc["env"]
        extra = env["extra"]
        print(
            f"- {doc['backend']} {env['version']} ({env['build']}), {doc['device']['name']}, driver "
            f"{extra.get('driver')}, CUDA {extra.get('cuda') or extra.get('cuda_driver')}, Python "
            f"{doc['host']['python']}, {doc['date']}"
        )
    print()
    print(matmul_table(docs))
    print()
    print(other_table(docs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
