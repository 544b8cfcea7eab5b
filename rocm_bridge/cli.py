"""`python -m rocm_bridge <command> ...`: a thin command line over the core.

Only the chosen command's module is imported, so `hipify` starts fast and never loads pandas, streamlit
or a deep-learning framework. Each command module defines HELP, add_arguments(parser) and run(args) -> int.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from rocm_bridge import __version__

COMMANDS: dict[str, tuple[str, str]] = {
    "hipify": ("rocm_bridge.hipify.cli", "translate CUDA source to HIP, with a report and portability lint"),
    "doctor": ("rocm_bridge.doctor.cli", "diagnose this machine's ROCm / CUDA + TensorFlow install"),
    "bench": ("rocm_bridge.live.cli", "run the GPU benchmark suite headless (matmul, transfer, dispatch, ...)"),
    "coverage": ("rocm_bridge.coverage.cli", "which ops of a TensorFlow model have ROCm / CUDA GPU kernels"),
    "compile": ("rocm_bridge.compile.cli", "compile HIP (hipcc 5.2 or clang 22) or a Triton kernel for AMD / NVIDIA "
                "targets: diagnostics, registers, LDS, occupancy, ISA"),
    "wavefront": ("rocm_bridge.wavefront.cli", "lanes a lane mask leaves dark on a wave64, LDS bank conflicts per stride"),
    "search": ("rocm_bridge.course.search_cli", "search the chapters, glossary, quiz and the CUDA -> HIP mapping table"),
    "classroom": ("rocm_bridge.classroom.cli", "classes: migrate the schema, create a class, export or delete its data"),
    "picture": ("rocm_bridge.visual.cli", "list the explainer pictures, or write one step of one as SVG"),
    "walkthrough": ("rocm_bridge.kernels.cli", "the transpose optimised step by step: gfx942 compile result, time, lesson"),
}

EXIT_USAGE = 2
EXIT_ERROR = 3


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter with the terminal measured once per process. argparse makes a formatter for every
    add_argument (to check the metavar), and each measured the terminal through shutil, imported for it: about
    5 ms of CPU of a one-line `hipify` run (bench/hipify_bench.py). Same rule as shutil.get_terminal_size."""

    columns: int | None = None

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        if width is None:
            if HelpFormatter.columns is None:
                HelpFormatter.columns = terminal_columns()
            width = HelpFormatter.columns - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def terminal_columns() -> int:
    """$COLUMNS, else the width of the terminal on stdout, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


def _overview() -> str:
    width = max(map(len, COMMANDS))
    lines = [f"  {name:<{width}}  {summary}" for name, (_, summary) in COMMANDS.items()]
    return (
        "usage: python -m rocm_bridge <command> [options]\n\ncommands:\n"
        + "\n".join(lines)
        + "\n\n'python -m rocm_bridge <command> --help' shows a command's options."
    )


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(_overview())
        return 0 if argv else EXIT_USAGE
    if argv[0] == "--version":
        print(f"rocm_bridge {__version__}")
        return 0
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"unknown command {name!r}\n\n{_overview()}", file=sys.stderr)
        return EXIT_USAGE
    module = importlib.import_module(COMMANDS[name][0])
    parser = argparse.ArgumentParser(prog=f"python -m rocm_bridge {name}", description=module.HELP,
                                     formatter_class=HelpFormatter)
    module.add_arguments(parser)
    args = parser.parse_args(rest)
    try:
        return int(module.run(args) or 0)
    except Exception as err:
        # imported here: the error hierarchy pulls in the catalog machinery, which a clean run never needs
        from rocm_bridge.errors import RocmBridgeError
        from rocm_bridge.i18n import cli_lang

        if not isinstance(err, RocmBridgeError):
            raise
        print(f"error: {err.message(cli_lang())}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
