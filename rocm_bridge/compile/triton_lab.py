"""Triton in the compile lab: a Triton kernel file compiled for an AMD target and an NVIDIA target, no GPU.

Triton compiles the user's Python, so it runs ONLY in the lab's sandbox child (rocm_bridge/compile/
triton_child.py under bubblewrap with the same memory / CPU / time limits as hipcc, no network, in the lab's fair
line); the server never imports the kernel file. What comes back per target: the IR stages a learner cares about
(TTIR -> TTGIR -> LLIR), the AMDGCN or PTX (+ SASS through nvdisasm when installed), resources (AMD: VGPRs,
AGPRs, SGPRs, LDS from the code object metadata, occupancy with the clang 22 model and the compiler's own figure;
NVIDIA: registers and frame from the cubin's .nv.info, shared memory from Triton's metadata, warps per SM) and
the matrix-core instructions (MFMA / WMMA vs wgmma / mma / HGMMA).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import threading
from collections import OrderedDict
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path

from rocm_bridge.compile import isa, policy, resources, sandbox, toolchain
from rocm_bridge.compile.errors import (
    CodeTooLarge,
    CompileDisabled,
    CompileTimedOut,
    CompileTimedOutBefore,
    TritonError,
    TritonMissing,
)

EXAMPLES_DIR = Path(__file__).resolve().parent / "triton_examples"
EXAMPLES = ("vector_add", "softmax", "matmul_bf16", "layer_norm")
CHILD = Path(__file__).resolve().parent / "triton_child.py"
SANDBOX_PY = "/opt/py"  # not used as a path: the interpreter is bound at its own prefix (see _binds)
SANDBOX_CHILD = "/opt/rbchild"
STAGE_CAP = 256 * 1024  # characters kept per IR / assembly stage
CACHE_SIZE = 32
# matrix-core instructions in AMDGCN, PTX and SASS (the page marks their lines)
MATRIX_RE = re.compile(r"\b(v_mfma\w*|v_smfmac\w*|v_wmma\w*|v_swmmac\w*|wgmma\.mma_async[\w.]*|mma\.sync[\w.]*|"
                       r"HGMMA[\w.]*|HMMA[\w.]*)")


def excerpt(text: str, lines: int) -> str:
    """At most `lines` lines of a listing: from a little before its first matrix-core instruction, if any."""
    all_lines = text.splitlines()
    if len(all_lines) <= lines:
        return text
    first = next((i for i, ln in enumerate(all_lines) if MATRIX_RE.search(ln)), 0)
    start = max(0, min(first - lines // 4, len(all_lines) - lines))
    return "\n".join(all_lines[start:start + lines]) + "\n"
NV_DEFAULT = "sm_90"


def example_source(key: str) -> str:
    if key not in EXAMPLES:
        raise KeyError(key)
    return (EXAMPLES_DIR / f"{key}.py").read_text(encoding="utf-8")


@cache
def triton_version() -> str:
    try:
        from importlib.metadata import version
        return version("triton")
    except Exception:
        return ""


def available() -> bool:
    return toolchain.enabled() and bool(triton_version())


def nvdisasm() -> str:
    """nvdisasm for SASS (PyPI nvidia-cuda-nvdisasm, or a CUDA install); '' when none."""
    try:
        import importlib.util
        spec = importlib.util.find_spec("nvidia")
        for base in (spec.submodule_search_locations if spec else []) or []:
            for p in sorted(Path(base).glob("cu*/bin/nvdisasm")):
                return str(p)
    except (ImportError, ValueError):
        pass
    return shutil.which("nvdisasm") or ""


@dataclass
class TritonTarget:
    backend: str  # "hip" | "cuda"
    arch: str  # "gfx942" | "sm_90"
    ok: bool
    error: str = ""
    seconds: float = 0.0
    stages: dict[str, str] = field(default_factory=dict)  # ttir, ttgir, llir, amdgcn | ptx, sass
    truncated: list[str] = field(default_factory=list)
    num_warps: int = 0
    warp_size: int = 0
    shared_bytes: int = 0  # Triton's metadata: LDS / shared memory per program
    # AMD
    vgprs: int = 0
    agprs: int = 0
    sgprs: int = 0
    lds_bytes: int = 0
    scratch_bytes: int = 0
    occupancy: int = 0  # waves per SIMD (AMD) or warps per SM (NVIDIA)
    occupancy_max: int = 0
    compiler_occupancy: int | None = None
    binding: list[str] = field(default_factory=list)
    # NVIDIA
    regs: int = 0
    frame_bytes: int = 0
    # both
    classes: dict[str, int] = field(default_factory=dict)
    matrix: dict[str, int] = field(default_factory=dict)  # MFMA / WMMA / wgmma / HGMMA mnemonic -> count

    @property
    def code_stage(self) -> str:
        return "amdgcn" if self.backend == "hip" else "ptx"

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass
class TritonResult:
    kernel: str
    triton: str
    targets: list[TritonTarget]
    error: str = ""  # the file could not be loaded (no kernel, a Python error): nothing compiled
    sandboxed: bool = False
    seconds: float = 0.0
    recorded: str = ""  # date, for a recorded result

    def target(self, arch: str) -> TritonTarget:
        return next(t for t in self.targets if t.arch == arch)

    def to_dict(self, stages: bool = True) -> dict[str, object]:
        d = {"kernel": self.kernel, "triton": self.triton, "error": self.error, "sandboxed": self.sandboxed,
             "seconds": round(self.seconds, 3), "recorded": self.recorded, "targets": []}
        for t in self.targets:
            x = t.to_dict()
            if not stages:
                x.pop("stages")
            d["targets"].append(x)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> TritonResult:
        return cls(kernel=d["kernel"], triton=d["triton"], error=d.get("error", ""), sandboxed=d.get("sandboxed", False),
                   seconds=d.get("seconds", 0.0), recorded=d.get("recorded", ""),
                   targets=[TritonTarget(**t) for t in d["targets"]])


_cache: OrderedDict[tuple, TritonResult] = OrderedDict()
_lock = threading.Lock()
_timed_out: set[str] = set()


def _amd(res: dict, arch: str) -> TritonTarget:
    from rocm_bridge.compile.api import kernel_report
    from rocm_bridge.compile.occupancy import occupancy
    from rocm_bridge.compile.targets import target
    t = TritonTarget("hip", arch, bool(res.get("ok")), res.get("error", ""), res.get("seconds", 0.0))
    _stages(t, res)
    md = res.get("metadata", {})
    t.num_warps, t.warp_size, t.shared_bytes = md.get("num_warps", 0), md.get("warp_size", 0), md.get("shared", 0)
    asm = res.get("asm", {}).get("amdgcn", "")
    ks = resources.kernels(asm, "") if asm else []
    if ks:
        k = ks[0]
        model = target(arch, "clang22")
        block = t.num_warps * (k.wave or t.warp_size or model.default_wave)
        # Triton's LDS is dynamic (given at launch, metadata "shared"); the code object's static size is 0
        lds = max(k.lds_bytes, t.shared_bytes)
        occ = occupancy(model, vgprs=k.vgprs, agprs=k.agprs, sgprs=k.sgprs, lds_bytes=lds,
                        block_size=min(k.max_block or block, 1024), wave=k.wave)
        k.occupancy = occ.to_dict()
        t.vgprs, t.agprs, t.sgprs, t.lds_bytes, t.scratch_bytes = k.vgprs, k.agprs, k.sgprs, lds, k.scratch_bytes
        t.occupancy, t.occupancy_max, t.binding = occ.waves_per_simd, model.max_waves_per_simd, list(occ.binding)
        t.compiler_occupancy = k.compiler_occupancy
        split = isa.split_kernels(asm, [k.name])
        rep = kernel_report(k, split[0] if split else None)
        t.classes, t.matrix = rep.classes, rep.mfma
    return t


def _nv(res: dict, arch: str) -> TritonTarget:
    from rocm_bridge.compile.nvidia import classify, nv_occupancy, nv_target
    t = TritonTarget("cuda", arch, bool(res.get("ok")), res.get("error", ""), res.get("seconds", 0.0))
    _stages(t, res)
    md = res.get("metadata", {})
    t.num_warps, t.warp_size, t.shared_bytes = md.get("num_warps", 0), md.get("warp_size", 32), md.get("shared", 0)
    info = next(iter(res.get("cubin", {}).values()), {})
    t.regs, t.frame_bytes = info.get("regs", 0), info.get("frame_bytes", 0)
    if t.ok:
        model = nv_target(arch)
        occ = nv_occupancy(model, regs=t.regs, smem_bytes=t.shared_bytes, block_threads=t.num_warps * 32)
        t.occupancy, t.occupancy_max, t.binding = occ.warps_per_sm, model.max_warps_per_sm, list(occ.binding)
        code = classify(t.stages.get("sass", ""), "sass") if t.stages.get("sass") else classify(
            t.stages.get("ptx", ""), "ptx")
        t.classes = code.classes
        t.matrix = dict(classify(t.stages.get("ptx", ""), "ptx").mma)
        if t.stages.get("sass"):
            t.matrix.update(code.mma)
    return t


def _stages(t: TritonTarget, res: dict) -> None:
    for name, text in res.get("asm", {}).items():
        if len(text) > STAGE_CAP:
            t.truncated.append(name)
            text = text[:text.rfind("\n", 0, STAGE_CAP) + 1]
        t.stages[name] = text


def _binds() -> tuple[tuple[str, str], ...]:
    """Read-only: the Python installation (a virtual environment and its base interpreter) and the child."""
    out = [(str(CHILD.parent), SANDBOX_CHILD)]
    for p in {sys.prefix, os.path.realpath(sys.prefix), sys.base_prefix, os.path.realpath(sys.base_prefix)}:
        out.append((p, p))
    return tuple(out)


def _python() -> str:
    """The interpreter as invoked, not resolved: in a virtual environment its bin/python is a link to the base
    interpreter, and only the link's own path makes Python find the environment's pyvenv.cfg (and triton)."""
    return os.path.abspath(sys.executable)


def compile_triton(code: str, amd: str = "gfx942", nvidia: str | None = NV_DEFAULT, kernel: str = "", *,
                   use_cache: bool = True, session: str | None = None, on_wait=None,
                   allow_unsandboxed: bool = False) -> TritonResult:
    """Compile a Triton kernel file for one AMD target and (optionally) one NVIDIA target in the sandbox."""
    from rocm_bridge.compile.engine import NoSandbox
    from rocm_bridge.compile.nvidia import nv_target
    from rocm_bridge.compile.targets import target
    if len(code.encode("utf-8", "surrogatepass")) > policy.MAX_CODE_BYTES:
        raise CodeTooLarge(kib=policy.MAX_CODE_BYTES // 1024)
    if not toolchain.enabled():
        raise CompileDisabled()
    if not triton_version():
        raise TritonMissing()
    amd_t = target(amd, "clang22")
    nv_t = nv_target(nvidia) if nvidia else None
    digest = hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()
    key = (digest, amd, nvidia, kernel)
    if use_cache:
        with _lock:
            if key in _cache:
                _cache.move_to_end(key)
                return _cache[key]
    if digest in _timed_out:
        raise CompileTimedOutBefore(seconds=max(1, round(sandbox.WALL_S)))
    use_sandbox = sandbox.sandbox_works()
    if not use_sandbox and not allow_unsandboxed:
        raise NoSandbox()
    targets = [{"backend": "hip", "arch": amd, "warp": amd_t.default_wave}]
    if nv_t:
        targets.append({"backend": "cuda", "arch": nv_t.cc, "warp": 32})
    disasm = nvdisasm() if nv_t else ""
    with sandbox.compile_lock(f"triton:{amd}/{nvidia}", session=session, on_wait=on_wait):
        root = Path(tempfile.mkdtemp(prefix="rb_triton_"))
        try:
            job = root / "src"
            job.mkdir()
            (job / "kernel.py").write_text(code, encoding="utf-8", errors="surrogatepass")
            src = "/src" if use_sandbox else str(job)
            req = {"source": f"{src}/kernel.py", "out": f"{src}/out.json", "kernel": kernel, "targets": targets,
                   "nvdisasm": disasm}
            (job / "request.json").write_text(json.dumps(req), encoding="utf-8")
            child = f"{SANDBOX_CHILD}/triton_child.py" if use_sandbox else str(CHILD)
            env = {"PATH": "/usr/bin:/bin", "HOME": src, "LANG": "C.UTF-8", "TRITON_CACHE_DIR": f"{src}/.triton",
                   "TRITON_DEFAULT_FP_FUSION": "1", "PYTHONDONTWRITEBYTECODE": "1"}
            run = sandbox.run([_python(), "-I", child, f"{src}/request.json"], job, env=env,
                              ro_binds=_binds(), sandbox=use_sandbox)
            if run.timed_out:
                _timed_out.add(digest)
                raise CompileTimedOut(seconds=max(1, round(sandbox.WALL_S)))
            out_path = job / "out.json"
            if not out_path.is_file():
                tail = "\n".join(run.stderr.strip().splitlines()[-4:])[-600:]
                raise TritonError(reason=tail or f"exit status {run.returncode}")
            with out_path.open(encoding="utf-8") as fh:
                data = json.loads(fh.read(64 * 1024 ** 2))
        finally:
            shutil.rmtree(root, ignore_errors=True)
    result = TritonResult(kernel=data.get("kernel", ""), triton=data.get("triton", triton_version()),
                          targets=[], error=data.get("error", ""), sandboxed=run.sandboxed, seconds=run.seconds)
    by_backend = {r["backend"]: r for r in data.get("results", [])}
    if "hip" in by_backend:
        result.targets.append(_amd(by_backend["hip"], amd))
    if "cuda" in by_backend and nvidia:
        result.targets.append(_nv(by_backend["cuda"], nvidia))
    if use_cache:
        with _lock:
            _cache[key] = result
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
    return result
