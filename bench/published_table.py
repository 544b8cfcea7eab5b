"""Print the recorded H200 matmul figures beside the published AMD Instinct ones (data/published_gemm.csv) as a
Markdown table, with measured / datasheet peak (bench/README.md's "Published AMD Instinct figures" section).

python bench/published_table.py            # bf16, fp16 and fp32, from the recorded PyTorch run
python bench/published_table.py jax        # the recorded JAX run instead
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rocm_bridge.live import published as pub  # noqa: E402
from rocm_bridge.live.results import recorded_results  # noqa: E402


def table(doc: dict, dtype: str) -> str:
    lines = [
        "| GPU | figure | size (M×N×K) | TFLOP/s | datasheet peak | measured / peak | who, when |",
        "|---|---|---|---:|---:|---:|---|",
    ]
    for b in pub.comparison(doc, dtype):
        gpu = b.gpu + (" (1 GCD)" if b.scope == "1 GCD" else "")
        who = "measured here (recorded)" if b.origin == "recorded" else f"{b.publisher}, {b.date}"
        peak = "-" if b.peak_tflops is None else f"{b.peak_tflops:g}"
        ratio = "-" if b.ratio is None else f"{b.ratio:.2f}"
        size = b.size.replace("x", "×") or "not stated"
        lines.append(f"| {gpu} | {b.kind} | {size} | {b.tflops:.1f} | {peak} | {ratio} | {who} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    backend = argv[0] if argv else "torch"
    doc = next(d for d in recorded_results() if d["backend"] == backend)
    for dtype in ("bf16", "fp16", "fp32"):
        print(f"\n{dtype} ({doc['device']['name']}, {backend} {doc['env']['version']}, {doc['date'][:10]})\n")
        print(table(doc, dtype))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
