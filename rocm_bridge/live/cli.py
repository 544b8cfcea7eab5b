"""`python -m rocm_bridge bench`: the benchmark suite headless. Loads neither streamlit nor pandas.

Its --json output is the document the app shows, and the source of the recorded results in data/recorded/.
"""

from __future__ import annotations

import argparse
import json
import sys

from rocm_bridge.errors import InvalidInput

HELP = (
    "Run the live lab's benchmark suite (matmul TFLOP/s per dtype, host->device bandwidth, dispatch overhead, "
    "XLA/jit fusion, mixed precision, input pipeline, CPU-vs-GPU consistency) on TensorFlow, PyTorch or JAX."
)


def _csv_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _int_list(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(p) for p in _csv_list(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from rocm_bridge.live import BACKENDS
    from rocm_bridge.live.suite import BENCHMARKS

    parser.add_argument("--backend", choices=BACKENDS, help="framework (default: the first installed of %(choices)s)")
    parser.add_argument("--json", action="store_true", help="print the result document as JSON")
    parser.add_argument("--out", metavar="FILE", help="also write the JSON document to FILE")
    parser.add_argument("--only", type=_csv_list, metavar="LIST", help="benchmarks to run: " + ",".join(BENCHMARKS))
    parser.add_argument("--sizes", type=_int_list, metavar="N,N", help="matmul sizes n (n x n x n)")
    parser.add_argument("--dtypes", type=_csv_list, metavar="LIST", help="matmul dtypes: fp32,tf32,fp16,bf16")
    parser.add_argument("--budget", type=float, default=120.0, metavar="S", help="time budget in seconds (default 120)")
    parser.add_argument("--repeats", type=int, default=7, help="timed repeats per measurement (median is kept)")
    parser.add_argument("--small", action="store_true", help="tiny shapes (a quick demo on any CPU)")
    parser.add_argument(
        "--reference", action="store_true", help="also time every matmul with CUDA events around torch.matmul"
    )
    parser.add_argument("--check", action="store_true", help="only the environment check")
    parser.add_argument("--list", action="store_true", help="list installed backends and exit")


def _fmt(value, spec: str = ".1f") -> str:
    return "-" if value is None else format(value, spec)


def format_text(doc: dict) -> str:
    """A plain-text report of a result document (what the CLI prints without --json)."""
    env = doc["env"]
    lines = [
        f"{env['backend']} {env['version']} ({env['build']} build) on {doc['device']['name']}  [{doc['date']}]",
        f"datasheet match: {doc['spec']['model'] if doc.get('spec') else 'not in table'}",
    ]
    check = doc.get("env_check") or {}
    if check and "error" not in check:
        lines.append(
            f"env check: GPUs={check.get('gpus') or 'none'}  matmul requested on {check.get('requested_device')} "
            f"ran on {check.get('ran_on')}  max rel err {_fmt(check.get('max_rel'), '.1e')}"
        )
    for name, res in doc["benchmarks"].items():
        status = res.get("status")
        head = f"\n[{name}] {status} ({res.get('elapsed_s', 0):.1f} s)"
        if status not in ("ok", "partial"):
            lines.append(head + f": {res.get('reason') or res.get('message') or ''}")
            continue
        lines.append(head)
        if name == "matmul":
            lines.append("  dtype      n   TFLOP/s  ref(events)  ratio  %peak  spread")
            for r in res["rows"]:
                lines.append(
                    f"  {r['dtype']:<5} {r['n']:>6} {r['tflops']:>9.1f} {_fmt(r.get('reference_tflops')):>12} "
                    f"{_fmt(r.get('ratio'), '.3f'):>6} {_fmt(r.get('pct_peak')):>6} {r['spread']:>7.1%}"
                )
            for c in res.get("capped", []):
                lines.append(f"  skipped {c['dtype']} n={c['n']}: over the memory cap n<={c['cap']}")
        elif name == "h2d":
            for r in res["rows"]:
                lines.append(f"  {r['mode']:<9} {r['bytes'] / 2**20:8.0f} MiB  {_fmt(r['gbs'], '.2f')} GB/s")
        elif name == "dispatch":
            lines.append(
                f"  tiny op + sync {res['tiny_synced_us']:.1f} us = dispatch {res['dispatch_us']:.1f} us "
                f"+ kernel/sync {res['sync_us']:.1f} us; big op {res['kernel_us']:.0f} us ({res['kernel_gbs']:.0f} GB/s)"
            )
        elif name == "fusion":
            lines.append(
                f"  {res['how']}: unfused {res['unfused_s'] * 1e3:.3f} ms, fused {res['fused_s'] * 1e3:.3f} ms, "
                f"S = {res['speedup']:.2f} (first call {res['first_call_s']:.1f} s)"
            )
        elif name == "mixed_precision":
            lines.append(
                f"  {res['fp32_label']} {res['fp32_s'] * 1e3:.3f} ms, {res['mixed_label']} {res['mixed_s'] * 1e3:.3f} ms,"
                f" S = {res['speedup']:.2f}"
            )
        elif name == "pipeline":
            lines.append(
                f"  serial {res['serial_items_per_s']:.0f}/s, prefetch {res['prefetch_items_per_s']:.0f}/s "
                f"(formula: serial {res['predicted_serial_items_per_s']:.0f}/s, overlapped "
                f"{res['predicted_overlap_items_per_s']:.0f}/s)"
            )
        elif name == "consistency":
            for r in res["rows"]:
                lines.append(
                    f"  {r['op']:<8} max abs {r['max_abs']:.2e}  max rel {r['max_rel']:.2e}  tol {r['tol']:.0e}  "
                    f"{'ok' if r['ok'] else 'FAIL'} {r.get('note', '')}"
                )
    lines.append(f"\ntotal {doc['elapsed_s']:.1f} s")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from rocm_bridge.live import BACKENDS, available_backends, get_backend
    from rocm_bridge.live.suite import BENCHMARKS, SuiteOptions, run_suite

    installed = available_backends()
    if args.list:
        for name in BACKENDS:
            print(f"{name:<11} {'installed' if name in installed else 'not installed'}")
        return 0
    dtypes = tuple(args.dtypes) if args.dtypes else None
    bad = [d for d in dtypes or () if d not in ("fp32", "tf32", "fp16", "bf16")]
    if bad:
        raise InvalidInput("live.errors.bad_dtype", value=", ".join(bad))
    # Validate before importing a framework: a typo should cost milliseconds, not TensorFlow's import.
    options = SuiteOptions(
        benchmarks=tuple(args.only) if args.only else BENCHMARKS,
        sizes=args.sizes,
        dtypes=dtypes,
        budget_s=args.budget,
        repeats=args.repeats,
        small=args.small,
        reference=args.reference,
    ).validate()
    name = args.backend or (installed[0] if installed else None)
    if name is None:
        raise InvalidInput("live.errors.no_backend")
    backend = get_backend(name)
    if args.check:
        check = backend.env_check()
        print(
            json.dumps(check, indent=1, default=str) if args.json else "\n".join(f"{k}: {v}" for k, v in check.items())
        )
        return 0 if check.get("ok") else 1

    def progress(fraction: float, step: str) -> None:
        if not args.json:
            print(f"... {fraction:4.0%} {step}", file=sys.stderr, flush=True)

    doc = run_suite(backend, options, progress)
    text = json.dumps(doc, indent=1, default=str)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    print(text if args.json else format_text(doc))
    return 0
