"""Which integer device intrinsics HIP cannot call with an argument type CUDA accepts (issue 28, item 5).

    python tools/probe_hipify_overloads.py [--out data/hipify_intrinsic_casts.csv]

CUDA declares each of these intrinsics once (`int __ffsll(long long int)`, `int __popc(unsigned int)` ...), so any
integer argument converts implicitly. HIP declares several overloads of some (ROCm 5.2 amd_device_functions.h:
__ffs(int) and __ffs(unsigned int), __ffsll(long long) and __ffsll(unsigned long long) ...), and an argument of
another integer type is then ambiguous. For every intrinsic and argument type this compiles one call with ROCm
5.2's hipcc (`-fsyntax-only --offload-arch=gfx90a`) and with CUDA 13's `nvcc -cuda`, and writes the intrinsics
where hipcc rejects a type nvcc accepts, with CUDA's parameter type: the translator casts the argument to it
(static_cast<T>, what CUDA's implicit conversion does), for every call, as the cast is right for every argument.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "hipify_intrinsic_casts.csv"

# CUDA's declarations (CUDA 13 crt/device_functions.h, sm_20_intrinsics.h): name -> parameter types
INTRINSICS = {
    "__ffs": ("int",), "__ffsll": ("long long int",), "__popc": ("unsigned int",),
    "__popcll": ("unsigned long long int",), "__clz": ("int",), "__clzll": ("long long int",),
    "__brev": ("unsigned int",), "__brevll": ("unsigned long long int",), "__mul24": ("int", "int"),
    "__umul24": ("unsigned int", "unsigned int"), "__mulhi": ("int", "int"),
    "__umulhi": ("unsigned int", "unsigned int"), "__mul64hi": ("long long int", "long long int"),
    "__umul64hi": ("unsigned long long int", "unsigned long long int"),
    "__sad": ("int", "int", "unsigned int"), "__usad": ("unsigned int", "unsigned int", "unsigned int"),
    "__byte_perm": ("unsigned int", "unsigned int", "unsigned int"),
}
TYPES = ("int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long", "short", "char",
         "size_t", "int64_t", "uint64_t", "uint32_t", "int32_t")


def probe_source(name: str, arity: int, header: str) -> str:
    lines = [header, "#include <cstdint>", "#include <cstddef>"]
    for k, t in enumerate(TYPES):
        args = ", ".join(f"a[{i}]" for i in range(arity))
        lines.append(f"__global__ void k{k}({t}* a, long long* o) {{ o[0] = {name}({args}); }}")
    return "\n".join(lines) + "\n"


def failing_types(cmd: list[str], source: str, suffix: str) -> set[str]:
    """The argument types whose probe line the compiler reports an error on."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"probe{suffix}"
        path.write_text(source)
        proc = subprocess.run([*cmd, str(path)], capture_output=True, text=True, timeout=600,
                              env={**os.environ, "HIP_PLATFORM": "amd"})
    first = 4  # the line of k0
    bad = set()
    for m in re.finditer(r"probe\S*?[:(](\d+)[:,)]\s*(?:\d+:)?\s*error", proc.stderr):
        k = int(m.group(1)) - first
        if 0 <= k < len(TYPES):
            bad.add(TYPES[k])
    return bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    hipcc, nvcc = shutil.which("hipcc"), shutil.which("nvcc")
    if hipcc is None or nvcc is None:
        raise SystemExit("needs hipcc (ROCm 5.2) and nvcc (CUDA 13)")
    rows = []
    for name, params in INTRINSICS.items():
        hip_bad = failing_types([hipcc, "--offload-arch=gfx90a", "-fsyntax-only", "-std=c++17", "-x", "hip"],
                                probe_source(name, len(params), "#include <hip/hip_runtime.h>"), ".hip")
        cuda_bad = failing_types([nvcc, "-cuda", "-std=c++17", "-o", os.devnull],
                                 probe_source(name, len(params), "#include <cuda_runtime.h>"), ".cu")
        needs = sorted(hip_bad - cuda_bad, key=TYPES.index)
        print(f"{name}: hipcc rejects {sorted(hip_bad)}, nvcc rejects {sorted(cuda_bad)}")
        if needs:
            rows.append({"cuda_name": name, "cuda_params": "|".join(params), "ambiguous_in_hip_5_2": "|".join(needs),
                         "source": "tools/probe_hipify_overloads.py: hipcc 5.2 (gfx90a) vs nvcc 13 -cuda"})
    with open(args.out, "w", newline="") as fh:
        writer = csv.DictWriter(fh, ["cuda_name", "cuda_params", "ambiguous_in_hip_5_2", "source"],
                                lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    print(f"{len(rows)} intrinsics need a cast -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
