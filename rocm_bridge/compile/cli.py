"""`python -m rocm_bridge compile FILE --offload-arch gfx942 [--compiler auto|hipcc|clang22] [--wave 32|64]
[--json] [--isa] [--syntax-only] [--triton [--nvidia sm_90]]`

Compiles HIP source with ROCm 5.2's hipcc or clang 22 (the current LLVM; "auto": hipcc where it knows the target)
in the sandbox (run locally without one) and prints diagnostics with explanations, per-kernel resources,
occupancy and instruction classes; --isa adds the device assembly. A `.py` file (or --triton) is a Triton kernel
file: compiled with Triton for the AMD target (and --nvidia sm_90 for Hopper), MFMA / WMMA / wgmma listed.
Exit codes: 0 compiled, 1 the compiler reported errors or the source was refused, 2 usage, 3 no compiler.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rocm_bridge.i18n import cli_lang, t

HELP = ("Compile HIP source for an AMD GPU target with ROCm 5.2's hipcc or clang 22 (the current LLVM): diagnostics "
        "with explanations, VGPRs / AGPRs / SGPRs / LDS / scratch per kernel, occupancy and which limit binds, "
        "instruction classes, device assembly. A .py file is a Triton kernel, compiled for AMD and NVIDIA targets.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="HIP source file, or - for stdin")
    parser.add_argument("--offload-arch", default="gfx90a", help="target, e.g. gfx90a, gfx908, gfx1100")
    parser.add_argument("--wave", type=int, choices=(32, 64), help="wavefront size (RDNA targets have both)")
    parser.add_argument("--json", action="store_true", help="machine-readable result")
    parser.add_argument("--isa", action="store_true", help="include the device assembly")
    parser.add_argument("--syntax-only", action="store_true", help="diagnostics only (faster)")
    parser.add_argument("--compiler", default="auto", choices=("auto", "hipcc", "clang22"),
                        help="hipcc = ROCm 5.2 (clang 15); clang22 = current LLVM (ziglang); auto: hipcc if it "
                             "knows the target")
    parser.add_argument("--triton", action="store_true", help="the file is a Triton kernel file (.py implies it)")
    parser.add_argument("--nvidia", default="", help="with --triton: also compile for an NVIDIA target, e.g. sm_90")
    parser.add_argument("--kernel", default="", help="with --triton: which example / @triton.jit function")


def _read(name: str) -> str:
    data = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
    return data.decode("utf-8", "replace")


def run(args: argparse.Namespace) -> int:
    from rocm_bridge.compile.api import report
    from rocm_bridge.compile.engine import compile_code
    from rocm_bridge.compile.errors import CompileDisabled, CompilerMissing, NvccMissing, TritonMissing
    from rocm_bridge.errors import RocmBridgeError

    try:
        code = _read(args.file)
    except OSError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    lg = cli_lang()
    if args.triton or args.file.endswith(".py"):
        from rocm_bridge.compile.triton_cli import run_triton
        try:
            return run_triton(code, args)
        except (TritonMissing, NvccMissing, CompileDisabled) as err:
            print(f"error: {err.message(lg)}", file=sys.stderr)
            return 3
        except RocmBridgeError as err:
            print(f"error: {err.message(lg)}", file=sys.stderr)
            return 1
    try:
        r = compile_code(code, args.offload_arch, args.wave, "syntax" if args.syntax_only else "full",
                         compiler=args.compiler, allow_unsandboxed=True)
    except (CompilerMissing, CompileDisabled) as err:
        print(f"error: {err.message(lg)}", file=sys.stderr)
        return 3
    except RocmBridgeError as err:
        print(f"error: {err.message(lg)}", file=sys.stderr)
        return 1
    if args.json:
        d = r.to_dict()
        if not args.isa:
            d.pop("asm")
        rep = {k.name: k for k in report(r).kernels}
        for k in d["kernels"]:
            kr = rep[k["name"]]
            k.update(instructions=kr.instructions, classes=kr.classes, mnemonics=kr.mnemonics, mfma=kr.mfma,
                     memory={kind: {str(b): n for b, n in v.items()} for kind, v in kr.memory.items()})
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
