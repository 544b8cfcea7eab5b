"""Compiler diagnostics: parsed from clang's text output and matched to explanations.

clang prints `FILE:LINE:COL: SEVERITY: MESSAGE [-Wflag]` followed by the source line, a caret line and fix-it
lines; notes follow the diagnostic they belong to. Only diagnostics in the submitted file are kept (a note in a
system header is attached to its diagnostic as `note`, with the header's path shortened to its name).

Each explanation is a catalog entry compile.explain.<id> (.title, .body) in English and Chinese.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from functools import cache

from rocm_bridge.compile.toolchain import not_packaged
from rocm_bridge.data import read_csv
from rocm_bridge.versions import parse_version

INSTALLED_HIP = "5.2"  # Debian 12's hipcc / libamdhip64 (ROCm 5.2.3)

_LINE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>fatal error|error|warning|note|remark): "
                   r"(?P<msg>.*?)(?: \[(?P<flag>-[\w=,+-]+)\])?$")
_INCLUDED = re.compile(r"^In file included from (?P<file>[^:\n]+):(?P<line>\d+):")
_UNDECLARED = re.compile(r"(?:use of undeclared identifier|unknown type name|no member named|"
                         r"no template named|unknown template name) '(?:[\w:]*::)?(\w+)'")
_NOT_FOUND = re.compile(r"'([^']+)' file not found")
_CUDA_NAME = re.compile(r"^(?:cuda|cu[A-Z]|cublas|cufft|curand|cusparse|cusolver|cudnn|nvrtc|nvtx|CU[A-Z_]|"
                        r"CUDA|__\w+_sync$|__activemask$|__syncwarp$|__nv)")
_WARP_SYNC = re.compile(r"^(?:__\w+_sync|__activemask|__syncwarp)$")
_CUDA_HEADER = re.compile(r"^(?:cuda\w*|cu\w+|cublas\w*|cufft\w*|curand\w*|cusparse\w*|cudnn\w*|nvrtc|thrust/|cub/|"
                          r"cooperative_groups|mma\.h|sm_\d+)")


# names hip_runtime.h declares that code commonly uses without a hip prefix
_RUNTIME_NAMES = frozenset(("threadIdx", "blockIdx", "blockDim", "gridDim", "dim3", "__syncthreads", "warpSize",
                            "atomicAdd", "__shfl", "__shfl_down", "__ballot", "hipLaunchKernelGGL"))


@dataclass
class Diagnostic:
    file: str
    line: int
    col: int
    severity: str  # error | warning | note | remark | fatal error -> error
    message: str
    flag: str = ""
    notes: list[str] = field(default_factory=list)
    explain: str = ""  # catalog id under compile.explain.*, "" when none
    params: dict[str, str] = field(default_factory=dict)  # values for the explanation text

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@cache
def _hip_added() -> dict[str, str]:
    return {r["hip_name"]: r["hip_added"] for r in read_csv("hipify_mappings.csv") if r["hip_name"] and r["hip_added"]}


@cache
def _cuda_to_hip() -> dict[str, str]:
    return {r["cuda_name"]: r["hip_name"] for r in read_csv("hipify_mappings.csv") if r["hip_name"]}


def parse(text: str, source_name: str) -> list[Diagnostic]:
    """Diagnostics of `source_name` in clang's output (remarks are left to the resource parser)."""
    out: list[Diagnostic] = []
    current: Diagnostic | None = None
    seen: set[tuple] = set()
    included_at: int | None = None
    for raw in text.splitlines():
        inc = _INCLUDED.match(raw)
        if inc:
            if inc["file"] == source_name:
                included_at = int(inc["line"])
            continue
        m = _LINE.match(raw)
        if not m:
            continue
        sev = "error" if m["sev"] == "fatal error" else m["sev"]
        if sev == "remark":
            continue
        file = m["file"]
        if sev == "note":
            if current is not None:
                where = f"{file.rsplit('/', 1)[-1]}:{m['line']}"
                current.notes.append(f"{where}: {m['msg']}")
            continue
        line, col, msg = int(m["line"]), int(m["col"]), m["msg"]
        if file != source_name:
            if sev != "error" or included_at is None:
                current = None
                continue
            # an error inside a header: show it on the #include line of the submitted file
            line, col, msg = included_at, 1, f"{file.rsplit('/', 1)[-1]}:{m['line']}: {msg}"
        key = (line, col, sev, msg)
        if key in seen:  # the host and the device pass report the same problem twice
            current = None
            continue
        seen.add(key)
        current = Diagnostic(source_name, line, col, sev, msg, m["flag"] or "")
        out.append(current)
    return out


def _hip_runtime_included(code: str) -> bool:
    return re.search(r"#\s*include\s*[<\"]hip/hip_runtime(?:_api)?\.h[>\"]", code) is not None


def explain(diags: list[Diagnostic], code: str) -> list[Diagnostic]:
    """Attach an explanation id (and its parameters) to each diagnostic a learner commonly meets."""
    lines = code.splitlines()
    has_runtime = _hip_runtime_included(code)
    for d in diags:
        src = lines[d.line - 1] if 0 < d.line <= len(lines) else ""
        msg = d.message
        if m := _UNDECLARED.search(msg):
            name = m.group(1)
            if _WARP_SYNC.match(name):
                d.explain, d.params = "warp_sync", {"name": name}
            elif _CUDA_NAME.match(name):
                d.explain, d.params = "cuda_leftover", {"name": name, "hip": _cuda_to_hip().get(name, "")}
            elif name in _hip_added() and parse_version(_hip_added()[name]) > parse_version(INSTALLED_HIP):
                d.explain = "hip_newer"
                d.params = {"name": name, "added": _hip_added()[name], "installed": INSTALLED_HIP}
            elif not has_runtime and (name.startswith("hip") or name in _RUNTIME_NAMES):
                d.explain, d.params = "missing_runtime", {"name": name}
            elif name.startswith("hip"):
                d.explain, d.params = "hip_unknown", {"name": name, "installed": INSTALLED_HIP}
        elif m := _NOT_FOUND.search(msg):
            header = m.group(1)
            if _CUDA_HEADER.match(header):
                d.explain, d.params = "cuda_header", {"name": header}
            elif not_packaged(header):
                d.explain, d.params = "not_in_debian", {"name": header}
            elif header.startswith("hip"):
                d.explain, d.params = "hip_header_layout", {"name": header}
        elif "implicit conversion loses integer precision" in msg and "unsigned long" in msg and re.search(
                r"__ballot|__activemask|ballot|mask", src):
            d.explain = "lane_mask_32"
        elif "warpSize" in msg or ("static assertion failed" in msg and "warpSize" in src) or (
                "warpSize" in src and re.search(r"constant expression|constexpr|template argument", msg)):
            d.explain = "warp_size_const"
        elif "wavefront size 64" in msg:
            d.explain = "gfx10_wave64"
        elif re.search(r"local memory \(\d+\) exceeds limit|exceeds the limit of local memory|"
                       r"local memory.*exceeds", msg):
            d.explain = "lds_limit"
        elif "__launch_bounds__" in src and ("launch_bounds" in msg or "amdgpu_flat_work_group_size" in msg):
            d.explain = "launch_bounds"
    return diags
