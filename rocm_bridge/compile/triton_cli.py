"""`python -m rocm_bridge compile KERNEL.py [--triton] --offload-arch gfx942 [--nvidia sm_90] [--json] [--isa]`:
the Triton part of the compile CLI (rocm_bridge.compile.cli hands a .py file or --triton here)."""

from __future__ import annotations

import argparse
import json

from rocm_bridge.compile.triton_lab import compile_triton


def run_triton(code: str, args: argparse.Namespace) -> int:
    r = compile_triton(code, args.offload_arch, args.nvidia or None, args.kernel, allow_unsandboxed=True)
    ok = not r.error and all(t.ok for t in r.targets)
    if args.json:
        print(json.dumps(r.to_dict(stages=args.isa), indent=1, ensure_ascii=False))
        return 0 if ok else 1
    if r.error:
        print(f"error: {r.error}")
        return 1
    print(f"# Triton {r.triton}: {r.kernel}  ({r.seconds:.2f} s{', sandboxed' if r.sandboxed else ''})")
    print(f"{'target':8} {'ok':>3} {'VGPR':>5} {'AGPR':>5} {'regs':>5} {'LDS/shared B':>12} {'occupancy':>11}  matrix")
    for t in r.targets:
        occ = f"{t.occupancy}/{t.occupancy_max}" + (" w/SIMD" if t.backend == "hip" else " w/SM")
        print(f"{t.arch:8} {'yes' if t.ok else 'no':>3} {t.vgprs or '-':>5} {t.agprs or '-':>5} {t.regs or '-':>5} "
              f"{t.shared_bytes:>12} {occ:>11}  {', '.join(f'{k} x{v}' for k, v in t.matrix.items()) or '-'}")
        if t.error:
            print(f"    error: {t.error}")
    if args.isa:
        for t in r.targets:
            print(f"\n## {t.arch} {t.code_stage}\n{t.stages.get(t.code_stage, '')}")
    return 0 if ok else 1
