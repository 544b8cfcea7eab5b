"""`python -m rocm_bridge hipify [options] [FILE ... | DIR | -]`

Options are named as in hipify-clang / hipify-perl. HIP goes to stdout (or -o / --inplace), the report to
stderr. A directory is translated as a tree (.cu .cuh .cpp .h .hpp .cc .cxx .c .inl) into -o DIR, keeping its
layout.

Exit codes: 0 done (warnings may have been printed); 1 some input could not be read or written (missing,
binary, too large); 2 usage error (unknown or unsupported option, a directory without -o, -o inside the input).
"""

from __future__ import annotations

import argparse
import os
import sys

HELP = (
    "Translate CUDA source to HIP (data/hipify_mappings.csv, from AMD's HIPIFY), with a report and a "
    "portability lint. HIP goes to stdout, the report to stderr. Exit codes: 0 done, 1 input/output error, "
    "2 usage error."
)

EXIT_OK, EXIT_IO, EXIT_USAGE = 0, 1, 2
TABLE_REVISION = "ROCm/HIPIFY 014177bc2e434ce3e834aa4f3d0e2abb1efa9796 (see data/hipify_mappings.SOURCE.md)"

# hipify-clang / hipify-perl options this tool knows but does not implement: refused, never ignored.
NOT_IMPLEMENTED = (
    "--cuda-path", "--cuda-gpu-arch", "--clang-resource-directory", "--temp-dir", "--save-temps", "--o-stats", "--o-hipify-perl-dir", "--o-python-map-dir", "--md", "--csv",
    "--doc-format", "--doc-roc", "--perl", "--python", "--no-undocumented-features",
    "--versions", "--whitelist", "-whitelist", "--exclude-dirs", "-exclude-dirs", "--exclude-files",
    "-exclude-files", "-I", "-p",
)


class _Refuse(argparse.Action):
    def __init__(self, option_strings, dest, **kwargs):
        kwargs.setdefault("nargs", "?")
        super().__init__(option_strings, dest, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        refused = list(getattr(namespace, "hipify_refused", None) or [])
        refused.append(option_string)
        namespace.hipify_refused = refused


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("inputs", nargs="*", metavar="FILE|DIR|-", help="CUDA sources, one directory, or - for stdin")
    parser.add_argument("-o", "--o-dir", dest="output", metavar="PATH",
                        help="output file (one input) or directory (several inputs or a directory)")
    parser.add_argument("--inplace", "-inplace", action="store_true",
                        help="overwrite each input, keeping the original as FILE.prehip")
    parser.add_argument("--no-output", "-no-output", action="store_true", help="do not write HIP anywhere")
    parser.add_argument("--examine", "-examine", action="store_true",
                        help="report only: --no-output plus --print-stats")
    parser.add_argument("--print-stats", "-print-stats", action="store_true",
                        help="per-API-group counts, headers, launches, lines changed")
    parser.add_argument("--quiet-warnings", "-quiet-warnings", action="store_true",
                        help="no per-line warnings (unconverted, deprecated, lint)")
    parser.add_argument("--roc", "-roc", action="store_true",
                        help="rocBLAS / rocSPARSE / rocSOLVER / rocRAND instead of hipBLAS / hipSPARSE / ...")
    parser.add_argument("--miopen", "-miopen", action="store_true",
                        help="cuDNN -> MIOpen instead of hipDNN, plus every --roc name (as hipify-clang does)")
    parser.add_argument("--experimental", "-experimental", action="store_true",
                        help="also apply mappings HIPIFY marks experimental")
    parser.add_argument("--hip-kernel-execution-syntax", "-hip-kernel-execution-syntax", action="store_true",
                        dest="kernel_syntax", help="rewrite k<<<g, b, s, st>>>(...) as hipLaunchKernelGGL(...)")
    parser.add_argument("--cuda-kernel-execution-syntax", "-cuda-kernel-execution-syntax", action="store_true",
                        dest="cuda_syntax", help="keep <<<...>>> launches (the default)")
    parser.add_argument("--skip-excluded-preprocessor-conditional-blocks", "-skip-excluded-preprocessor-conditional-blocks",
                        "--default-preprocessor", "-default-preprocessor", action="store_true", dest="skip_excluded",
                        help="leave #if branches that a CUDA host compile skips unchanged (see -D)")
    parser.add_argument("--amap", "-amap", action="store_true",
                        help="hipify as much as possible: with --skip-excluded-preprocessor-conditional-blocks, still "
                             "rename the CUDA names in the skipped branches (their includes, launches and argument "
                             "rewrites stay as they are); without it every branch is translated anyway")
    parser.add_argument("-D", action="append", dest="defines", default=[], metavar="NAME[=VALUE]",
                        help="define a macro for --skip-excluded-preprocessor-conditional-blocks")
    parser.add_argument("--no-lint", action="store_true", help="skip the portability lint")
    parser.add_argument("--offload-arch", metavar="GFX", default="gfx90a",
                        help="AMD GPU target written into converted build files (tree mode; default gfx90a)")
    parser.add_argument("--rocm-version", metavar="X.Y", default="",
                        help="translate for this ROCm release (default: the newest the table knows): where it lacks an "
                             "API and has an equivalent, write that (data/hipify_target_rules.csv); warn about every "
                             "HIP API added after it")
    parser.add_argument("--wavefront", action="store_true",
                        help="rewrite the warp-32 idioms the lint can prove (32-lane shuffle reductions, threadIdx.x "
                             "%% 32, 32-bit full masks) in terms of warpSize, right on 64- and 32-lane wavefronts")
    parser.add_argument("--lang", choices=("en", "zh"), help="language of the report (default: from LANG)")
    parser.add_argument("--version", "-version", action="store_true",
                        help="print the tool version and the HIPIFY revision of the mapping table")
    for option in NOT_IMPLEMENTED:
        parser.add_argument(option, action=_Refuse, dest=f"refuse_{option.strip('-').replace('-', '_')}",
                            help=argparse.SUPPRESS)
    parser.set_defaults(hipify_refused=None)


def _say(text: str) -> None:
    sys.stderr.write(text + "\n")


def run(args: argparse.Namespace) -> int:
    from rocm_bridge.hipify.errors import UnsupportedOption
    from rocm_bridge.hipify.messages import t
    from rocm_bridge.i18n import cli_lang

    lang = args.lang or cli_lang()
    if args.version:
        from rocm_bridge import __version__

        print(f"rocm_bridge hipify {__version__}; mappings: data/hipify_mappings.csv from {TABLE_REVISION}")
        return EXIT_OK
    if args.hipify_refused:
        err = UnsupportedOption(options=", ".join(args.hipify_refused))
        _say(f"error: {err.message(lang)}")
        return EXIT_USAGE
    from rocm_bridge.hipify.minrocm import valid_version

    if not args.offload_arch.startswith("gfx") or not args.offload_arch[3:].isalnum():
        _say("error: " + t("hipify.project.bad_arch", lang, value=args.offload_arch))
        return EXIT_USAGE
    if args.rocm_version and not valid_version(args.rocm_version):
        _say("error: " + t("hipify.minrocm.bad_version", lang, value=args.rocm_version))
        return EXIT_USAGE
    if args.kernel_syntax and args.cuda_syntax:
        _say("error: " + t("hipify.cli.both_syntaxes", lang))
        return EXIT_USAGE
    if args.output and args.output.startswith("="):  # hipify-perl spells it -o=FILE
        args.output = args.output[1:]
    if args.examine:
        args.no_output = args.print_stats = True
    if args.inplace and args.output:
        _say("error: " + t("hipify.cli.inplace_and_o", lang))
        return EXIT_USAGE

    from rocm_bridge.hipify.translator import Options

    opts = Options(roc=args.roc, miopen=args.miopen, experimental=args.experimental, kernel_syntax=args.kernel_syntax,
                   skip_excluded=args.skip_excluded, defines=tuple(args.defines), amap=args.amap,
                   rocm_version=args.rocm_version, wavefront=args.wavefront)
    inputs = args.inputs or ["-"]
    # os.path, not pathlib, on the one-file path: pathlib costs ~10 ms of a one-line run (bench/hipify_bench.py)
    if len(inputs) == 1 and inputs[0] != "-" and os.path.isdir(inputs[0]):
        return _run_tree(inputs[0], args, opts, lang)
    if len(inputs) == 1 and inputs[0].lower().endswith(".zip") and os.path.isfile(inputs[0]):
        return _run_zip(inputs[0], args, opts, lang)
    if "-" in inputs and len(inputs) > 1:
        _say("error: " + t("hipify.cli.stdin_alone", lang))
        return EXIT_USAGE
    if any(os.path.isdir(p) for p in inputs if p != "-"):
        _say("error: " + t("hipify.cli.one_dir", lang))
        return EXIT_USAGE
    if args.inplace and inputs == ["-"]:
        _say("error: " + t("hipify.cli.inplace_stdin", lang))
        return EXIT_USAGE
    out_dir = None
    if args.output and len(inputs) > 1:
        out_dir = args.output
        if os.path.exists(out_dir) and not os.path.isdir(out_dir):
            _say("error: " + t("hipify.cli.o_not_dir", lang, path=args.output))
            return EXIT_USAGE
    status = EXIT_OK
    for name in inputs:
        if out_dir is not None:
            target = os.path.join(out_dir, os.path.basename(name))
        elif args.output:
            target = args.output
        elif args.inplace:
            target = name
        else:
            target = None
        status = max(status, _one(name, target, args, opts, lang))
    return status


def _read(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    with open(name, "rb") as fh:
        return fh.read()


def _one(name: str, target: str | os.PathLike | None, args, opts, lang: str, shown: str | None = None,
         data: bytes | None = None, collect: list | None = None) -> int:
    from rocm_bridge.errors import RocmBridgeError
    from rocm_bridge.hipify.messages import t
    from rocm_bridge.hipify.sources import decode_source, encode_text

    shown = shown or ("<stdin>" if name == "-" else name)
    try:
        data = _read(name) if data is None else data
        decoded = decode_source(data, shown)
    except OSError as exc:
        _say(f"{shown}: error: " + t("hipify.cli.cannot_read", lang, detail=exc.strerror or str(exc)))
        return EXIT_IO
    except RocmBridgeError as err:
        _say(f"{shown}: error: {err.message(lang)}")
        return EXIT_IO
    if decoded.bad_utf8_at is not None:
        _say(f"{shown}: " + t("hipify.note.not_utf8", lang, offset=decoded.bad_utf8_at))
    if not args.inplace:
        data = None  # only the --inplace backup needs the bytes read: a large input is not held twice
    result, findings = _translate(decoded.text, args, opts)
    _report(result, findings, shown, args, lang)
    if collect is not None:
        collect.append((shown, result, findings))
    if args.no_output:
        return EXIT_OK
    out = encode_text(result.output)
    try:
        if target is None:
            sys.stdout.buffer.write(out)
            sys.stdout.flush()
        else:
            _put(target, out, backup=data)  # data is None unless --inplace
    except OSError as exc:
        _say(f"{shown}: error: " + t("hipify.cli.cannot_write", lang, path=str(target or "stdout"),
                                     detail=exc.strerror or str(exc)))
        return EXIT_IO
    return EXIT_OK


def _put(target: str | os.PathLike, data: bytes, backup: bytes | None = None) -> None:
    """Write target through a temporary file beside it and a rename; with backup, first keep the original
    as target.prehip unless one exists (the first original wins, as in hipify-perl)."""
    target = os.fspath(target)
    if backup is not None and not os.path.exists(f"{target}.prehip"):
        with open(f"{target}.prehip", "wb") as fh:
            fh.write(backup)
    folder, name = os.path.split(target)
    if folder:
        os.makedirs(folder, exist_ok=True)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, target)


def _translate(text: str, args, opts):
    from rocm_bridge.hipify.lint import lint
    from rocm_bridge.hipify.translator import translate

    result = translate(text, opts)
    findings = [] if args.no_lint else lint(text, result.lexed)
    result.lexed = None  # the scan (masked text, offsets) is not needed by the report: free it before the output
    return result, findings


def _report(result, findings, shown: str, args, lang: str) -> None:
    from rocm_bridge.hipify import report

    if not args.quiet_warnings:
        lines = report.warning_lines(result, findings, shown, lang)
        if lines:
            _say("\n".join(lines))
    if args.print_stats:
        _say(report.stats_text(result, findings, shown, lang))
    else:
        _say(report.summary_line(result, shown, lang))
    from rocm_bridge.hipify.minrocm import minimum_rocm

    for line in report.minimum_rocm_lines(minimum_rocm(result, args.rocm_version), shown, lang):
        _say(line)


def _run_tree(root_name: str, args, opts, lang: str) -> int:
    from pathlib import Path

    from rocm_bridge.hipify.messages import t

    root = Path(root_name)
    if not args.output and not args.inplace and not args.no_output:
        _say("error: " + t("hipify.cli.dir_needs_o", lang))
        return EXIT_USAGE
    out_root = Path(args.output).resolve() if args.output else None
    root_resolved = root.resolve()
    if out_root is not None and (out_root == root_resolved or root_resolved in out_root.parents):
        _say("error: " + t("hipify.cli.o_inside_input", lang))
        return EXIT_USAGE
    entries = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for fname in sorted(filenames):
            src = Path(dirpath) / fname
            entries.append((src.relative_to(root).as_posix(), src, None))
    status = _run_project(entries, out_root, args, opts, lang)
    _say(t("hipify.cli.tree_done", lang, n=sum(1 for e in entries if _kind(e[0]) == "source"), root=str(root)))
    return status


def _run_zip(path_name: str, args, opts, lang: str) -> int:
    """A zipped project: the same as a directory, read through the safe archive reader."""
    from pathlib import Path

    from rocm_bridge.errors import RocmBridgeError
    from rocm_bridge.hipify.messages import t
    from rocm_bridge.hipify.sources import CLI_MAX_BYTES, read_zip

    if not args.output and not args.no_output:
        _say("error: " + t("hipify.cli.dir_needs_o", lang))
        return EXIT_USAGE
    if args.inplace:
        _say("error: " + t("hipify.project.zip_inplace", lang))
        return EXIT_USAGE
    path = Path(path_name)
    try:
        members = read_zip(path.read_bytes(), max_bytes=CLI_MAX_BYTES, include=_kind)
    except OSError as exc:
        _say(f"{path}: error: " + t("hipify.cli.cannot_read", lang, detail=exc.strerror or str(exc)))
        return EXIT_IO
    except RocmBridgeError as err:
        _say(f"{path}: error: {err.message(lang)}")
        return EXIT_IO
    out_root = Path(args.output).resolve() if args.output else None
    status = _run_project([(name, None, blob) for name, blob in members], out_root, args, opts, lang)
    _say(t("hipify.cli.tree_done", lang, n=sum(1 for m in members if _kind(m[0]) == "source"), root=str(path)))
    return status


def _kind(name: str) -> str | None:
    from rocm_bridge.hipify.buildfiles import build_kind
    from rocm_bridge.hipify.sources import is_source_name

    return build_kind(name) or ("source" if is_source_name(name) else None)


def _run_project(entries, out_root: os.PathLike | None, args, opts, lang: str) -> int:
    """Sources and build files of a tree ((relative path, file or None, bytes or None) each): translate and
    convert them, write them under out_root (or in place), then the project report."""
    from rocm_bridge.hipify.messages import t

    status = EXIT_OK
    collected: list = []
    builds: list[tuple[str, str, os.PathLike | None]] = []
    for rel, src, blob in entries:
        kind = _kind(rel)
        if kind is None:
            continue
        if args.no_output:
            target = None
        elif out_root is not None:
            target = out_root / rel
        else:
            target = src
        if kind == "source":
            status = max(status, _one(str(src) if src else rel, target, args, opts, lang, shown=rel, data=blob,
                                      collect=collected))
            continue
        try:
            data = src.read_bytes() if blob is None else blob
        except OSError as exc:
            _say(f"{rel}: error: " + t("hipify.cli.cannot_read", lang, detail=exc.strerror or str(exc)))
            status = EXIT_IO
            continue
        builds.append((rel, data.decode("utf-8", errors="surrogateescape"), target))
    from rocm_bridge.hipify.project import build_project

    project = build_project(collected, [(rel, text) for rel, text, _ in builds], opts, args.rocm_version,
                            args.offload_arch)
    for (rel, _text, target), built in zip(builds, project.builds, strict=True):
        _build_report(built, rel, args, lang)
        if target is not None and not args.no_output:
            status = max(status, _write(target, built.output, rel, args, lang, backup=built.source))
    return max(status, _project_report(project, out_root, args, lang))


def _build_report(built, rel: str, args, lang: str) -> None:
    from rocm_bridge.hipify.messages import t

    if not args.quiet_warnings:
        for x in built.todos:
            _say(f"{rel}:{x.line}: " + t("hipify.project.cli_todo", lang, why=t(f"hipify.build.todo.{x.key}", lang),
                                         code=x.excerpt))
    _say(t("hipify.project.cli_build", lang, name=rel, changes=len(built.changes), todos=len(built.todos)))


def _write(target: os.PathLike, text: str, shown: str, args, lang: str, backup: str | None = None) -> int:
    from rocm_bridge.hipify.messages import t
    from rocm_bridge.hipify.sources import encode_text

    try:
        _put(target, encode_text(text), backup=encode_text(backup) if args.inplace and backup is not None else None)
    except OSError as exc:
        _say(f"{shown}: error: " + t("hipify.cli.cannot_write", lang, path=str(target), detail=exc.strerror or str(exc)))
        return EXIT_IO
    return EXIT_OK


def _project_report(project, out_root: os.PathLike | None, args, lang: str) -> int:
    import json

    from rocm_bridge.hipify import project as pj
    from rocm_bridge.hipify.messages import t

    tot = pj.totals(project)
    pct = "n/a" if tot["percentage"] is None else f"{tot['percentage']} %"
    _say(t("hipify.project.cli_summary", lang, files=tot["files"], builds=tot["build_files"],
           converted=tot["converted"], total=tot["total"], pct=pct, minimum=tot["minimum_rocm"] or "-",
           todos=tot["build_todos"]))
    if out_root is None or args.no_output:
        return EXIT_OK
    status = _write(out_root / pj.REPORT_MD, pj.report_markdown(project, lang), pj.REPORT_MD, args, lang)
    status = max(status, _write(out_root / pj.REPORT_JSON, json.dumps(pj.report_json(project), indent=1,
                                                                       ensure_ascii=False) + "\n",
                                pj.REPORT_JSON, args, lang))
    _say(t("hipify.project.cli_written", lang, path=str(out_root / pj.REPORT_MD)))
    return status
