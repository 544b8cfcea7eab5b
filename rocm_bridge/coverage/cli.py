"""`python -m rocm_bridge coverage MODEL [--registry NAME]... [--json]`

MODEL is a bundled example (small_cnn, resnet_block, transformer_block, lstm, cnn_mixed_bf16), a .keras file,
a zipped SavedModel or a SavedModel folder. Registries are snapshot names or aliases (rocm-2.14, cuda-2.14,
cuda-2.21, cpu-2.21) or 'live' (the installed TensorFlow); the default compares ROCm and CUDA at the newest
TensorFlow version both have snapshots for.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rocm_bridge.i18n import cli_lang, t

HELP = "Which ops of a TensorFlow model have GPU kernels on a ROCm / CUDA build (kernel-registry coverage)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("model", nargs="?", help="example name, .keras file, zipped SavedModel or SavedModel folder")
    parser.add_argument(
        "--registry",
        action="append",
        metavar="NAME",
        help="registry to check against (repeatable): rocm-2.14, cuda-2.14, cuda-2.21, cpu-2.21, live, or a snapshot file name",
    )
    parser.add_argument(
        "--phase", choices=("both", "inference", "training"), default="both", help="which traced graph to check"
    )
    parser.add_argument(
        "--precomputed", action="store_true", help="use the recorded op lists of the examples (no TensorFlow)"
    )
    parser.add_argument("--table", action="store_true", help="print the per-op table")
    parser.add_argument("--csv", metavar="PATH", help="write the per-op table as CSV")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--list", action="store_true", help="list the examples and registries")


def _load_model(spec: str, precomputed: bool, phases: tuple[str, ...]):
    from rocm_bridge import coverage
    from rocm_bridge.coverage import trace, upload
    from rocm_bridge.errors import FileTooLarge, UnsupportedFile

    if spec in coverage.EXAMPLES:
        if precomputed or not trace.tensorflow_installed():
            return coverage.example_model(spec)
        return coverage.trace_example(spec, phases)
    path = Path(spec)
    if path.is_dir():
        pb = path / "saved_model.pb"
        if not pb.is_file():
            raise UnsupportedFile("coverage.err.not_saved_model")
        if pb.stat().st_size > upload.MAX_EXTRACTED_BYTES:
            raise FileTooLarge(
                "coverage.err.too_large",
                name=pb.name,
                size_mb=pb.stat().st_size // 2**20,
                limit_mb=upload.MAX_EXTRACTED_BYTES // 2**20,
            )
        return trace.trace_saved_model_pb(pb.read_bytes(), path.name)
    if path.is_file():
        if path.stat().st_size > upload.MAX_UPLOAD_BYTES:
            raise FileTooLarge(
                "coverage.err.too_large",
                name=path.name,
                size_mb=round(path.stat().st_size / 10**6, 1),
                limit_mb=upload.MAX_UPLOAD_BYTES // 10**6,
            )
        return trace.trace_upload(path.read_bytes(), path.name, phases)
    raise UnsupportedFile("coverage.err.unknown_model", name=spec[:120], known=", ".join(coverage.EXAMPLES))


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def run(args: argparse.Namespace) -> int:
    from rocm_bridge import coverage
    from rocm_bridge.coverage import registry

    lang = cli_lang()
    if args.list or not args.model:
        print(t("coverage.cli.examples", lang) + " " + ", ".join(coverage.EXAMPLES))
        for reg in registry.list_snapshots():
            print(f"  {reg.alias:<10} {reg.name:<32} {reg.label}")
        print(f"  {registry.LIVE:<10} {'':<32} {t('coverage.registry.live', lang)}")
        return 0 if args.list else 2
    phases = coverage.PHASES if args.phase == "both" else (args.phase,)
    names = args.registry or list(coverage.default_pair() or [r.name for r in registry.list_snapshots()[:2]])
    registries = [coverage.resolve(n) for n in names]
    model = _load_model(args.model, args.precomputed, phases)
    reports = [coverage.analyze(model.nodes, reg, model.name, phases) for reg in registries]
    # a build without GPU support differs on every op: compared builds are the GPU ones
    compared = [r for r in reports if r.gpu_build]
    diffs = coverage.differences(compared) if len(compared) > 1 else []
    if args.csv:
        Path(args.csv).write_text(coverage.to_csv(reports), encoding="utf-8")
    if args.json:
        doc = {
            "model": model.name,
            "traced_with": {"tensorflow": model.tf_version, "keras": model.keras_version},
            "phases": [p for p in model.phases if p in phases],
            "n_nodes": reports[0].n_nodes if reports else 0,
            "notes": [t(k, "en", tf=model.tf_version or "?") for k in model.notes],
            "reports": [r.to_dict() for r in reports],
            "differences": [
                {"op": d.op, "statuses": dict(zip([r.registry for r in compared], d.statuses, strict=True))}
                for d in diffs
            ],
        }
        json.dump(doc, sys.stdout, indent=1, ensure_ascii=False)
        print()
        return 0
    out = [
        t(
            "coverage.cli.model",
            lang,
            model=model.name,
            tf=model.tf_version or "?",
            phases=" + ".join(p for p in model.phases if p in phases),
            nodes=reports[0].n_nodes if reports else 0,
        )
    ]
    out += [f"  ({t(k, lang, tf=model.tf_version or '?')})" for k in model.notes]
    for rep in reports:
        out.append("")
        out.append(f"{rep.registry_label}  [{rep.registry_source}]")
        out.append(
            "  "
            + t(
                "coverage.cli.r",
                lang,
                ops=_pct(rep.r_ops),
                n_ok=rep.n_ops_covered,
                n=rep.n_ops,
                nodes=_pct(rep.r_nodes),
                k_ok=rep.n_nodes_covered,
                k=rep.n_nodes,
            )
        )
        if not rep.gpu_build:
            out.append("  " + t("coverage.warn.no_gpu_build", lang))
        fallback = ", ".join(
            f"{r.op} ({' '.join(r.missing_dtypes) or t('coverage.no_kernel', lang)})" for r in rep.fallback
        )
        out.append("  " + t("coverage.cli.fallback", lang) + " " + (fallback or "-"))
        unknown = ", ".join(r.op for r in rep.unknown)
        out.append("  " + t("coverage.cli.unknown", lang) + " " + (unknown or "-"))
        if args.table:
            for r in rep.rows:
                out.append(
                    f"    {r.op:<32} {t('coverage.status.' + r.status, lang):<22} {r.nodes:>5}  {' '.join(r.dtypes)}"
                )
    if len(compared) > 1:
        out.append("")
        out.append(t("coverage.cli.differences", lang) + (" -" if not diffs else ""))
        for d in diffs:
            out.append(
                "  "
                + d.op
                + ": "
                + " | ".join(
                    f"{rep.registry_label}: {t('coverage.status.' + s, lang) if s else '-'}"
                    for rep, s in zip(compared, d.statuses, strict=True)
                )
            )
    print("\n".join(out))
    return 0
