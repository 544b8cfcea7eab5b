"""The installed compiler: where it is, its version, the targets it supports, and how to get one.

`ROCM_BRIDGE_COMPILE=off` turns compiling off (the lab then shows recorded results); `ROCM_BRIDGE_HIPCC` names
another hipcc. Debian's rocm-device-libs 5.2 ships no oclc_isa_version_11xx.bc, so gfx11 targets get a device
library directory with that one-constant bitcode added (made once with llvm-as from the same LLVM).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from contextlib import suppress
from functools import cache
from pathlib import Path

from rocm_bridge.compile.targets import targets

DEVICE_LIBS = Path("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode")
LLVM_BIN = Path("/usr/lib/llvm-15/bin")
INSTALL_HINT_PACKAGES = ("hipcc", "libamdhip64-dev", "rocm-device-libs", "librocprim-dev", "libhiprand-dev",
                         "librocrand-dev", "libhipsparse-dev", "librocsparse-dev", "bubblewrap")
DOCKER_IMAGE = "rocm/dev-ubuntu-22.04"  # AMD's ROCm development image on Docker Hub
# ROCm libraries whose headers Debian 12's ROCm 5.2 packages do not install (its /usr/include has hip, hiprand,
# hipsparse, rocprim, rocrand, rocsparse and nothing else of ROCm's; checked 2026-12-02). Named by a header's first
# path part or file stem, lower case: <hipblas/hipblas.h>, "hipDNN.h", <thrust/device_vector.h>.
NOT_PACKAGED = frozenset(("hipblas", "hipblaslt", "hipblas-common", "rocblas", "hipfft", "hipfftxt", "rocfft",
                          "hipsolver", "rocsolver", "hipcub", "rocthrust", "thrust", "miopen", "hipdnn", "rccl",
                          "hipsparselt", "roctx", "roctracer"))


def not_packaged(header: str) -> bool:
    """Whether an #include names a header of a ROCm library Debian 12 does not package (see NOT_PACKAGED)."""
    parts = header.lower().split("/")
    return parts[0].split(".")[0] in NOT_PACKAGED or parts[-1].rsplit(".", 1)[0] in NOT_PACKAGED


def enabled() -> bool:
    return os.environ.get("ROCM_BRIDGE_COMPILE", "on").strip().lower() not in ("off", "0", "no", "false")


def hipcc() -> str | None:
    explicit = os.environ.get("ROCM_BRIDGE_HIPCC")
    if explicit:
        return explicit if Path(explicit).is_file() else None
    return shutil.which("hipcc")


def available() -> bool:
    return enabled() and hipcc() is not None


def _env() -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "HIP_PLATFORM": "amd", "LANG": "C", "LC_ALL": "C", "HOME": "/nonexistent"}


@cache
def version() -> str:
    """'HIP 5.2.21153-0, Debian clang version 15.0.6' (or '' without a compiler)."""
    exe = hipcc()
    if not exe:
        return ""
    try:
        out = subprocess.run([exe, "--version", "--offload-arch=gfx90a"], capture_output=True, text=True,
                             timeout=30, env=_env()).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""
    hip = re.search(r"HIP version: (\S+)", out)
    clang = re.search(r"^(.*clang version \S+)", out, re.MULTILINE)
    return ", ".join(x for x in (f"HIP {hip.group(1)}" if hip else "", clang.group(1) if clang else "") if x)


@cache
def _clang_cpus() -> frozenset[str]:
    clang = shutil.which("clang-15") or shutil.which("clang")
    if not clang:
        return frozenset()
    try:
        out = subprocess.run([clang, "--target=amdgcn-amd-amdhsa", "-nogpulib", "-print-supported-cpus"],
                             capture_output=True, text=True, timeout=30, env=_env())
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    return frozenset(re.findall(r"^\s+(gfx\w+)\s*$", out.stdout + out.stderr, re.MULTILINE))


def _isa_lib(name: str) -> str:
    return f"oclc_isa_version_{name[3:]}.bc"


def supported_targets() -> list[str]:
    """Targets of the table that the installed clang knows and for which it has (or we can make) device libs."""
    cpus = _clang_cpus()
    out = []
    for name in targets():
        if name not in cpus:
            continue
        if (DEVICE_LIBS / _isa_lib(name)).exists() or (LLVM_BIN / "llvm-as").exists():
            out.append(name)
    return out


@cache
def device_lib_dir(target: str) -> Path | None:
    """None when the system's device libs cover the target; else a private directory with the missing
    oclc_isa_version bitcode generated (the same one-constant module the others are)."""
    if (DEVICE_LIBS / _isa_lib(target)).exists() or not DEVICE_LIBS.is_dir():
        return None
    digits = target[3:]
    major, minor, step = digits[:-2], int(digits[-2], 16), int(digits[-1], 16)
    value = int(major) * 1000 + minor * 100 + step
    root = Path(tempfile.gettempdir()) / f"rocm_bridge_devlibs_{os.getuid()}" / target
    lib = root / _isa_lib(target)
    if not lib.exists():
        root.mkdir(parents=True, exist_ok=True)
        for bc in DEVICE_LIBS.glob("*.bc"):
            link = root / bc.name
            with suppress(FileExistsError):  # another process made it first
                link.symlink_to(bc)
        ll = ('target triple = "amdgcn-amd-amdhsa"\n'
              f"@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 {value}, "
              "align 4\n")
        tmp = root / f".{lib.name}.{os.getpid()}"
        subprocess.run([str(LLVM_BIN / "llvm-as"), "-o", str(tmp), "-"], input=ll.encode(), check=True, timeout=30)
        tmp.replace(lib)
    return root


def install_hint() -> dict[str, str]:
    return {"apt": "apt-get install " + " ".join(INSTALL_HINT_PACKAGES),
            "rocm": "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/",
            "docker": f"docker run -it --rm {DOCKER_IMAGE}"}
