"""Which half-precision intrinsics ROCm 5.2 types differently from CUDA (issue 28, item 5).

    python tools/probe_hipify_half.py [--cuda-include /usr/local/cuda-13.0/include]

Every function CUDA 13's cuda_fp16.h declares with value parameters is called once, under ROCm 5.2's hipcc
(`-fsyntax-only --offload-arch=gfx90a`), inside a static_assert that its HIP result type is CUDA's; then the warp
shuffles are called on a __half and a __half2 (CUDA overloads them in cuda_fp16.hpp). Prints the names HIP lacks,
the result types that differ, and the shuffle errors. The translator's answer to the shuffles is the
hipify_shfl_half section of rocm_bridge/hipify/hipify_compat.h (docs/hipify-translator.md).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

DECL = re.compile(r"__CUDA_(?:HOSTDEVICE_)?FP16_DECL__\s+(?:const\s+)?([\w ]+?)\s+(\w+)\s*\(([^)]*)\)\s*;")
SHUFFLES = ("__shfl(x, 0)", "__shfl_up(x, 1)", "__shfl_down(x, 1)", "__shfl_xor(x, 1)")


def declarations(header: Path) -> dict[str, tuple[str, list[str]]]:
    """name -> (CUDA result type, parameter types) for the declarations with value parameters only."""
    out: dict[str, tuple[str, list[str]]] = {}
    for ret, name, params in DECL.findall(header.read_text(encoding="utf-8", errors="replace")):
        types = []
        for p in (q.split("=")[0].strip() for q in params.split(",") if q.strip() and q.strip() != "void"):
            t = re.sub(r"\s*\b\w+$", "", p).replace("const", "").strip()
            if not t or "*" in t or "&" in t:
                break
            types.append(t)
        else:
            out.setdefault(name, (ret.strip(), types))
    return out


def probe(cuda_include: Path) -> str:
    lines = ["#include <hip/hip_runtime.h>", "#include <hip/hip_fp16.h>", "#include <type_traits>"]
    for k, (name, (ret, types)) in enumerate(sorted(declarations(cuda_include / "cuda_fp16.h").items())):
        params = ", ".join(f"{t} a{j}" for j, t in enumerate(types))
        args = ", ".join(f"a{j}" for j in range(len(types)))
        lines.append(f"__device__ void f{k}({params}) {{ static_assert(std::is_same<decltype({name}({args})), "
                     f'{ret}>::value, "{name}: CUDA {ret}"); }}')
    for k, call in enumerate(SHUFFLES):
        for t in ("__half", "__half2"):
            lines.append(f"__device__ {t} s{k}_{t}({t} x) {{ return {call}; }}")
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cuda-include", type=Path, default=Path("/usr/local/cuda-13.0/include"))
    args = ap.parse_args()
    hipcc = shutil.which("hipcc")
    if hipcc is None:
        print("hipcc (ROCm 5.2) is not installed")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "probe.hip"
        src.write_text(probe(args.cuda_include))
        proc = subprocess.run([hipcc, "--offload-arch=gfx90a", "-fsyntax-only", "-ferror-limit=0", str(src)],
                              capture_output=True, text=True, timeout=600, env={**os.environ, "HIP_PLATFORM": "amd"})
    missing = sorted(set(re.findall(r"use of undeclared identifier '(\w+)'", proc.stderr)))
    differ = sorted(set(re.findall(r"requirement 'std::is_same<([^>]*)>::value': (\w+): CUDA", proc.stderr)))
    shuffles = sorted(set(re.findall(r"error: ((?:call to|no matching function for call to) '__shfl\w*'[^\n]*)",
                                     proc.stderr)))
    print(f"not in ROCm 5.2 ({len(missing)}): {', '.join(missing)}")
    for types, name in differ:
        if name not in missing:  # an undeclared name's "type" is the compiler's typo correction
            print(f"result type differs: {name}: HIP, CUDA = {types}")
    for line in shuffles:
        print(f"shuffle on a half type: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
