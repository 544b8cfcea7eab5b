"""`python -m rocm_bridge compile FILE --offload-arch gfx90a [--wave 32|64] [--json] [--isa] [--syntax-only]`

Compiles HIP source with the installed hipcc (sandboxed when bubblewrap works; run locally without it) and
prints diagnostics with explanations, per-kernel resources and occupancy; --isa adds the device assembly.
Exit codes: 0 compiled, 1 the compiler reported errors or the source was refused, 2 usage, 3 no compiler.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rocm_bridge.i18n import cli_lang, t

HELP = ("Compile HIP source for an AMD GPU target with the installed hipcc: diagnostics with explanations, "
        "VGPRs / AGPRs / SGPRs / LDS / scratch per kernel, occupancy and which limit binds, device assembly.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="HIP source file, or - for stdin")
    parser.add_argument("--offload-arch", default="gfx90a", help="target, e.g. gfx90a, gfx908, gfx1100")
    parser.add_argument("--wave", type=int, choices=(32, 64), help="wavefront size (RDNA targets have both)")
    parser.add_argument("--json", action="store_true", help="machine-readable result")
    parser.add_argument("--isa", action="store_true", help="include the device assembly")
    parser.add_argument("--syntax-only", action="store_true", help="diagnostics only (faster)")


def _read(name: str) -> str:
    data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    return data.decode("utf-8", "replace")


def run(args: argparse.Namespace) -> int:
    from rocm_bridge.compile.engine import compile_code
    from rocm_bridge.compile.errors import CompileDisabled, CompilerMissing

    try:
        code = _read(args.file)
    except OSError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    try:
        r = compile_code(code, args.offload_arch, args.wave, "syntax" if args.syntax_only else "full",
                         allow_unsandboxed=True)
    except (CompilerMissing, CompileDisabled) as err:
        print(f"error: {err.message(cli_lang())}", file=sys.stderr)
        return 3
    lg = cli_lang()
    if args.json:
        d = r.to_dict()
        if not args.isa:
            d.pop("asm")
        print(json.dumps(d, indent=1, ensure_ascii=False))
        return 0 if r.ok else 1
    print(f"# {r.target} wave{r.wave}  {r.compiler}  ({r.seconds:.2f} s{', sandboxed' if r.sandboxed else ''})")
    for x in r.refused:
        print(f"{args.file}:{x.line}: refused: {t(f'compile.policy.{x.rule}', lg)}  | {x.excerpt}")
    for d in r.diagnostics:
        print(f"{args.file}:{d.line}:{d.col}: {d.severity}: {d.message}")
        if d.explain:
            print(f"    -> {t(f'compile.explain.{d.explain}.title', lg, **d.params)}: "
                  f"{t(f'compile.explain.{d.explain}.body', lg, **d.params)}")
    if r.kernels:
        print(f"\n{'kernel':24} {'VGPR':>5} {'AGPR':>5} {'SGPR':>5} {'LDS B':>7} {'scratch':>7} {'wave':>4} "
              f"{'block':>5} {'occ':>4} {'clang':>5}  binds")
        for k in r.kernels:
            o = k.occupancy
            print(f"{k.display[:24]:24} {k.vgprs:>5} {k.agprs:>5} {k.sgprs:>5} {k.lds_bytes:>7} {k.scratch_bytes:>7} "
                  f"{k.wave:>4} {k.max_block:>5} {o['waves_per_simd']:>4} {str(k.compiler_occupancy or '-'):>5}  "
                  f"{','.join(o['binding'])}")
    if args.isa:
        for k in r.kernel_asm():
            print(f"\n{k.name}:  {k.counts()}")
            print(k.text())
    return 0 if r.ok else 1
