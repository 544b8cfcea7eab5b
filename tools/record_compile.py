"""Record the compile lab's results for every page example (data/compile_recorded/).

    python tools/record_compile.py                 # hipcc 5.2: every example, gfx90a (wave64) and gfx1100 (wave32)
    python tools/record_compile.py --clang22       # clang 22: every example, gfx90a gfx942 gfx950 gfx1100 gfx1201
    python tools/record_compile.py --triton        # Triton: the four kernels for gfx942 + sm_90 (and gfx950, gfx1201)
    python tools/record_compile.py --twin          # the NVIDIA twin of each hipify example (nvcc sm_90 + gfx942)
    python tools/record_compile.py --check         # compare with the current compiler, exit 1 on a difference

Each file names the compiler version and the date; the page shows them with the results when a compiler is not
available (or ROCM_BRIDGE_COMPILE=off). tests/test_compile_recorded.py and tests/test_compile_clang22.py check.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rocm_bridge.compile import clang22, examples, recorded, toolchain  # noqa: E402
from rocm_bridge.compile.engine import compile_batch, compile_code  # noqa: E402

TRITON_AMD = ("gfx942", "gfx950", "gfx1201")
STAGE_LINES = 250  # lines kept per recorded Triton stage (the matmul's LLIR alone is 600 KB)


def hipcc(keys: list[str], check: bool) -> int:
    compiler = toolchain.version()
    if not compiler:
        print("no compiler (hipcc) found", file=sys.stderr)
        return 2
    differ = 0
    for key in keys:
        code = examples.source(key)
        results = {t: compile_code(code, t, w, compiler="hipcc", allow_unsandboxed=True) for t, w in recorded.TARGETS}
        entry = recorded.record_entry(key, code, results, compiler, str(date.today()))
        if check:
            old = recorded.load(key)
            same = old is not None and old["code_sha256"] == entry["code_sha256"] and all(
                recorded.comparable(old["results"][t]) == recorded.comparable(entry["results"][t])
                for t in entry["results"])
            differ += not same
            print(f"{key:28} {'same' if same else 'DIFFERENT'}")
        else:
            print(f"{key:28} -> {recorded.write(entry)}")
    return 1 if differ else 0


def current22(keys: list[str], check: bool) -> int:
    compiler = clang22.version()
    if not compiler:
        print("no clang 22 (pip install ziglang)", file=sys.stderr)
        return 2
    differ = 0
    for key in keys:
        code = examples.source(key)
        results = compile_batch(code, list(recorded.TARGETS22))
        entry = recorded.record_entry(key, code, results, compiler, str(date.today()))
        if check:
            old = recorded.load_sub("clang22", key)
            same = old is not None and all(recorded.comparable(old["results"][t]) ==
                                           recorded.comparable(entry["results"][t]) for t in entry["results"])
            differ += not same
            print(f"clang22 {key:28} {'same' if same else 'DIFFERENT'}")
        else:
            print(f"clang22 {key:28} -> {recorded.write_sub('clang22', key, entry)}")
    return 1 if differ else 0


def triton(check: bool) -> int:
    from rocm_bridge.compile import triton_lab
    for key in triton_lab.EXAMPLES:
        code = triton_lab.example_source(key)
        main = triton_lab.compile_triton(code, "gfx942", "sm_90", allow_unsandboxed=True)
        extra = [triton_lab.compile_triton(code, a, None, allow_unsandboxed=True).targets[0]
                 for a in TRITON_AMD[1:]]
        main.targets.extend(extra)
        for t in main.targets:
            for name, text in list(t.stages.items()):
                if len(text.splitlines()) > STAGE_LINES:
                    t.stages[name] = triton_lab.excerpt(text, STAGE_LINES)
                    t.truncated.append(name)
        entry = {"example": key, "code_sha256": recorded.code_hash(code), "compiler": f"Triton {main.triton}",
                 "date": str(date.today()), "result": main.to_dict()}
        if not check:
            print(f"triton {key:20} -> {recorded.write_sub('triton', key, entry)}")
    return 0


def twin(check: bool) -> int:
    from rocm_bridge.compile import nvidia
    from rocm_bridge.compile.twin import twin as make
    for key in examples.hipify_examples():
        t = make(key)
        entry = {"example": key, "compiler": f"{t.amd_compiler}; {t.nv_compiler}", "date": str(date.today()),
                 "nvcc": nvidia.nvcc_version(), "twin": asdict(t)}
        if not check:
            print(f"twin {key:28} -> {recorded.write_sub('twin', key, entry)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="compare instead of writing")
    ap.add_argument("--clang22", action="store_true", help="clang 22 results (five targets)")
    ap.add_argument("--triton", action="store_true", help="Triton examples")
    ap.add_argument("--twin", action="store_true", help="the NVIDIA twin of each hipify example")
    ap.add_argument("keys", nargs="*", help="examples (default: all)")
    args = ap.parse_args(argv)
    keys = args.keys or list(examples.all_keys())
    if args.clang22:
        return current22(keys, args.check)
    if args.triton:
        return triton(args.check)
    if args.twin:
        return twin(args.check)
    return hipcc(keys, args.check)


if __name__ == "__main__":
    raise SystemExit(main())
