"""The current LLVM for AMD code generation: clang 22.1 from PyPI's `ziglang` wheel (its AMDGPU back end).

ROCm 5.2's hipcc (clang 15, 2022) cannot target today's GPUs (gfx942 MI300, gfx950 MI350, gfx1201 RX 9070). The
`ziglang` wheel carries a full clang 22 driver; with the HIP headers Debian installs (ROCm 5.2) it compiles HIP
device code for every target of data/amdgpu_targets.csv. What it needs besides the wheel, all set up here once
per process in a private support directory (bound read-only into the sandbox at /rb):

- the HIP / CUDA wrapper headers (`__clang_hip_*.h`, `__clang_cuda_*.h`, `cuda_wrappers/`): zig ships clang's
  builtin headers but not these; Debian's clang 15 resource directory has them (`apt-get install clang-15`);
- `__AMDGCN_WAVEFRONT_SIZE`: clang 22 no longer predefines it (ROCm 7 made `warpSize` a run-time value); the 5.2
  headers use it as a constant, so a forced include defines it per target (64 on GCN / CDNA, 32 on RDNA unless
  `-mwavefrontsize64`);
- device libraries: Debian's ROCm 5.2 bitcode links with `-mcode-object-version=5`; the one-constant
  `oclc_isa_version_<gfx>.bc` it lacks (gfx942, gfx950, gfx1100, gfx12xx) is generated with llvm-as-15.

So the result is *ISA level* (what a 2026 code generator makes of the code: registers, LDS, instructions,
occupancy), with *API level* still HIP 5.2's headers: an API added after ROCm 5.2 is an error here too.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import tempfile
from contextlib import suppress
from functools import cache
from pathlib import Path

from rocm_bridge.compile import toolchain
from rocm_bridge.compile.targets import targets

NAME = "clang22"
LLVM15_RESOURCE = Path("/usr/lib/llvm-15/lib/clang")
SANDBOX_ZIG = "/opt/zig"
SANDBOX_SUPPORT = "/opt/rb"
WAVE_HEADER = "rocm_bridge_wave.h"
_WAVE_H = """/* rocm_bridge: clang 22 no longer defines __AMDGCN_WAVEFRONT_SIZE; the HIP 5.2 headers need it. */
#ifndef __AMDGCN_WAVEFRONT_SIZE
#if defined(__GFX10__) || defined(__GFX11__) || defined(__GFX12__)
#ifdef ROCM_BRIDGE_WAVE64
#define __AMDGCN_WAVEFRONT_SIZE 64
#else
#define __AMDGCN_WAVEFRONT_SIZE 32
#endif
#else
#define __AMDGCN_WAVEFRONT_SIZE 64
#endif
#endif
"""


def zig_dir() -> Path | None:
    """The installed ziglang package directory (found without importing it), or None."""
    explicit = os.environ.get("ROCM_BRIDGE_ZIG_DIR")
    if explicit:
        return Path(explicit) if (Path(explicit) / "zig").is_file() else None
    with suppress(ImportError, ValueError):
        spec = importlib.util.find_spec("ziglang")
        if spec and spec.submodule_search_locations:
            d = Path(next(iter(spec.submodule_search_locations)))
            if (d / "zig").is_file():
                return d
    return None


def wrapper_source() -> Path | None:
    """clang 15's resource include directory with the HIP wrapper headers (Debian's clang-15 package)."""
    for d in sorted(LLVM15_RESOURCE.glob("15*/include"), reverse=True):
        if (d / "__clang_hip_runtime_wrapper.h").is_file():
            return d
    return None


def available() -> bool:
    return toolchain.enabled() and zig_dir() is not None and wrapper_source() is not None


def _env() -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "LANG": "C", "LC_ALL": "C", "HOME": "/nonexistent"}


@cache
def version() -> str:
    """'clang 22.1.8 (ziglang 0.17.1)' or '' when not installed."""
    z = zig_dir()
    if z is None:
        return ""
    try:
        out = subprocess.run([str(z / "zig"), "clang", "--version"], capture_output=True, text=True, timeout=30,
                             env=_env()).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""
    m = re.search(r"clang version (\S+)", out)
    wheel = ""
    with suppress(Exception):
        from importlib.metadata import version as dist_version
        wheel = f" (ziglang {dist_version('ziglang')})"
    return f"clang {m.group(1)}{wheel}" if m else ""


@cache
def known_cpus() -> frozenset[str]:
    z = zig_dir()
    if z is None:
        return frozenset()
    try:
        out = subprocess.run([str(z / "zig"), "clang", "--target=amdgcn-amd-amdhsa", "-nogpulib",
                              "-print-supported-cpus"], capture_output=True, text=True, timeout=30, env=_env())
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    return frozenset(re.findall(r"^\s+(gfx\w+)\s*$", out.stdout + out.stderr, re.MULTILINE))


def supported_targets() -> list[str]:
    """Targets of the table that clang 22 knows (gfx940 was dropped from LLVM in favour of gfx942)."""
    cpus = known_cpus()
    return [name for name in targets() if name in cpus]


def _isa_value(target: str) -> int:
    digits = target[3:]
    return int(digits[:-2]) * 1000 + int(digits[-2], 16) * 100 + int(digits[-1], 16)


@cache
def support_dir() -> Path:
    """A private directory: include/ (wrapper headers + the wave-size header) and devlibs/ (Debian's ROCm 5.2
    device bitcode plus a generated oclc_isa_version file for every table target it lacks). Made once."""
    src = wrapper_source()
    root = Path(tempfile.gettempdir()) / f"rocm_bridge_clang22_{os.getuid()}"
    inc, libs = root / "include", root / "devlibs"
    inc.mkdir(parents=True, exist_ok=True)
    libs.mkdir(parents=True, exist_ok=True)
    if src is not None:
        for p in list(src.glob("__clang_hip_*.h")) + list(src.glob("__clang_cuda_*.h")) + [src / "cuda_wrappers"]:
            link = inc / p.name
            if not link.exists():
                with suppress(FileExistsError):
                    link.symlink_to(p)
    wave = inc / WAVE_HEADER
    if not wave.exists() or wave.read_text() != _WAVE_H:
        tmp = inc / f".{WAVE_HEADER}.{os.getpid()}"
        tmp.write_text(_WAVE_H)
        tmp.replace(wave)
    if toolchain.DEVICE_LIBS.is_dir():
        for bc in toolchain.DEVICE_LIBS.glob("*.bc"):
            link = libs / bc.name
            if not link.exists():
                with suppress(FileExistsError):
                    link.symlink_to(bc)
        llvm_as = toolchain.LLVM_BIN / "llvm-as"
        for name in targets():
            lib = libs / f"oclc_isa_version_{name[3:]}.bc"
            if lib.exists() or not llvm_as.exists():
                continue
            ll = ('target triple = "amdgcn-amd-amdhsa"\n'
                  f"@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 "
                  f"{_isa_value(name)}, align 4\n")
            tmp = libs / f".{lib.name}.{os.getpid()}"
            subprocess.run([str(llvm_as), "-o", str(tmp), "-"], input=ll.encode(), check=True, timeout=30)
            tmp.replace(lib)
    return root


def binds() -> tuple[tuple[str, str], ...]:
    """What the sandbox must see besides /usr: the wheel and the support directory (read-only)."""
    z = zig_dir()
    return ((str(z), SANDBOX_ZIG), (str(support_dir()), SANDBOX_SUPPORT)) if z else ()


def wave_flags(target: str, wave: int) -> list[str]:
    t = targets()[target]
    if len(t.wave_sizes) < 2 or wave == t.default_wave:
        return []
    return ["-mwavefrontsize64", "-DROCM_BRIDGE_WAVE64"] if wave == 64 else ["-mno-wavefrontsize64"]


def command(offload_archs: list[str], wave: int | None, mode: str, source: str, *, sandboxed: bool,
            output: str | None = "kernel.s") -> list[str]:
    """The clang 22 command line. Several targets in one run (a batch) write <stem>-hip-amdgcn-amd-amdhsa-<gfx>.s
    each (output=None); wave flags apply only to a single target."""
    z = SANDBOX_ZIG if sandboxed else str(zig_dir())
    sup = SANDBOX_SUPPORT if sandboxed else str(support_dir())
    argv = [f"{z}/zig", "clang", "-x", "hip", "--cuda-device-only", "-std=c++17", "-O3", "-fno-color-diagnostics",
            "-ferror-limit=50", "-Wshorten-64-to-32", "-Wno-linker-warnings", "-Wno-unused-command-line-argument",
            *[f"--offload-arch={a}" for a in offload_archs]]
    if len(offload_archs) == 1 and wave is not None:
        argv += wave_flags(offload_archs[0], wave)
    argv += ["-isystem", f"{sup}/include/cuda_wrappers", "-isystem", f"{sup}/include", "-isystem", f"{z}/lib/include",
             "-I/usr/include", "-include", WAVE_HEADER, "-mcode-object-version=5",
             f"--rocm-device-lib-path={sup}/devlibs",
             # HIP 5.2's __syncthreads calls __atomic_work_item_fence, which lives in hip.bc; clang 22 no longer links
             # hip.bc by itself (ROCm 6 dropped it), and an unresolved call inflates registers (43 VGPRs, not 7)
             "-Xclang", "-mlink-builtin-bitcode", "-Xclang", f"{sup}/devlibs/hip.bc"]
    if mode == "syntax":
        return [*argv, "-fsyntax-only", source]
    argv += ["-S"]  # resources and occupancy come from the assembly (rocm_bridge.compile.resources.parse_symbols)
    if output:
        argv += ["-o", output]
    return [*argv, source]
