"""`python -m rocm_bridge doctor [--json] [--root DIR] [--no-tensorflow] [--markdown]`.

Exit codes: 0 when no blocking check fails (warnings allowed), 1 when one does; 2 for usage errors
(argparse). With --root DIR, files are read under DIR and, when DIR holds a probe.json, commands,
environment and groups come from it (a recorded system, as the tests' fixtures).
"""

from __future__ import annotations

import argparse
import json
import sys

HELP = "diagnose this machine's ROCm / CUDA + TensorFlow install; exit code 1 when a blocking check fails"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the full report as JSON (for scripts)")
    parser.add_argument("--markdown", action="store_true", help="print the report as Markdown (for a bug report)")
    parser.add_argument("--root", default="/", help="read files under this directory instead of / (default: /)")
    parser.add_argument("--no-tensorflow", action="store_true", help="skip the TensorFlow import checks (fast)")
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds allowed for the TensorFlow import (default 90)")
    parser.add_argument("--lang", choices=("en", "zh"), default=None, help="language of the text output")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from rocm_bridge.doctor import examine
    from rocm_bridge.doctor.report import to_markdown, to_text
    from rocm_bridge.i18n import cli_lang

    root = Path(args.root)
    if not root.is_dir():
        print(f"error: --root {args.root!r} is not a directory", file=sys.stderr)
        return 2
    if args.timeout <= 0:
        print("error: --timeout must be positive", file=sys.stderr)
        return 2
    lang = args.lang or cli_lang()
    report = examine(root, tensorflow=not args.no_tensorflow, tf_timeout_s=args.timeout)
    if args.json:
        print(json.dumps(report.as_dict(), indent=2, ensure_ascii=False, default=str))
    elif args.markdown:
        print(to_markdown(report, lang))
    else:
        print(to_text(report, lang))
    return report.exit_code
