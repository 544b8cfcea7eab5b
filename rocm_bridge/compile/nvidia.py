"""The NVIDIA side of the lab: sm_XX targets (data/nvidia_targets.csv), their occupancy model, instruction
classes of PTX / SASS, and the CUDA original of an example compiled with nvcc (the "NVIDIA twin").

Occupancy follows cuda_occupancy.h (cudaOccMaxActiveBlocksPerMultiprocessor): blocks per SM limited by the
warps (64 on sm_90), the block slots (32), registers (allocated per warp in units of 256, split over the 4
sub-partitions of an SM) and shared memory (plus 1 KiB the system reserves per block). The result is warps per
SM, the CUDA counterpart of AMD's waves per SIMD.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import asdict, dataclass, field
from functools import cache

from rocm_bridge.data import read_csv


@dataclass(frozen=True)
class NvTarget:
    name: str
    products: str
    regs_per_sm: int
    max_regs_per_thread: int
    reg_alloc_unit: int
    sub_partitions: int
    max_warps_per_sm: int
    max_blocks_per_sm: int
    smem_per_sm_bytes: int
    smem_per_block_max_bytes: int
    smem_reserved_per_block_bytes: int
    source: str

    @property
    def cc(self) -> int:
        return int(self.name[3:])


@cache
def nv_targets() -> dict[str, NvTarget]:
    out = {}
    for r in read_csv("nvidia_targets.csv"):
        out[r["target"]] = NvTarget(r["target"], r["products"], *(int(r[k]) for k in (
            "regs_per_sm", "max_regs_per_thread", "reg_alloc_unit", "sub_partitions", "max_warps_per_sm",
            "max_blocks_per_sm", "smem_per_sm_bytes", "smem_per_block_max_bytes", "smem_reserved_per_block_bytes")),
            r["source"])
    return out


def nv_target(name: str) -> NvTarget:
    try:
        return nv_targets()[name]
    except KeyError:
        from rocm_bridge.compile.errors import UnknownTarget
        raise UnknownTarget(target=name[:40], known=", ".join(nv_targets())) from None


@dataclass(frozen=True)
class NvOccupancy:
    warps_per_sm: int
    blocks_per_sm: int
    by_limit: dict[str, int]  # limit -> blocks per SM it alone allows
    binding: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        return {"warps_per_sm": self.warps_per_sm, "blocks_per_sm": self.blocks_per_sm, "by_limit": self.by_limit,
                "binding": list(self.binding)}


def nv_occupancy(t: NvTarget, *, regs: int, smem_bytes: int, block_threads: int) -> NvOccupancy:
    """Active warps per SM (cuda_occupancy.h model).

    >>> nv_occupancy(nv_target("sm_90"), regs=255, smem_bytes=32768, block_threads=128).warps_per_sm
    8
    >>> nv_occupancy(nv_target("sm_90"), regs=32, smem_bytes=0, block_threads=256).warps_per_sm
    64
    """
    warps_per_block = -(-block_threads // 32)
    by = {"warps": t.max_warps_per_sm // warps_per_block, "blocks": t.max_blocks_per_sm}
    if regs > 0:
        per_warp = -(-regs * 32 // t.reg_alloc_unit) * t.reg_alloc_unit
        warps = (t.regs_per_sm // t.sub_partitions // per_warp) * t.sub_partitions
        by["regs"] = warps // warps_per_block
    else:
        by["regs"] = by["blocks"]
    by["smem"] = t.smem_per_sm_bytes // (smem_bytes + t.smem_reserved_per_block_bytes) if smem_bytes else by["blocks"]
    blocks = min(by.values())
    limit_max = min(by["warps"], by["blocks"])
    binding = tuple(k for k in ("regs", "smem") if by[k] == blocks and blocks < limit_max) or (
        ("warps",) if by["warps"] <= by["blocks"] else ("blocks",))
    return NvOccupancy(blocks * warps_per_block, blocks, by, binding)


# --- instruction classes ------------------------------------------------------------------------------------

PTX_CLASSES: tuple[tuple[str, re.Pattern], ...] = (
    ("mma", re.compile(r"^(?:wgmma\.mma_async|mma\.sync|wmma\.mma|tcgen05\.mma)")),
    ("global", re.compile(r"^(?:ld|st|atom|red)\.global|^cp\.async\.bulk\.tensor|^cp\.async(?!\.bulk)")),
    ("shared", re.compile(r"^(?:ld|st|atom)\.shared|^ldmatrix|^stmatrix")),
    ("barrier", re.compile(r"^bar\.|^barrier\.|^mbarrier\.|^fence|^wgmma\.(?:fence|commit_group|wait_group)")),
    ("cross_lane", re.compile(r"^shfl\.|^vote\.|^redux\.")),
)
SASS_CLASSES: tuple[tuple[str, re.Pattern], ...] = (
    ("mma", re.compile(r"^(?:HGMMA|HMMA|IMMA|DMMA|QGMMA|UTCHMMA|UTCQMMA|UTCMMA)")),
    ("global", re.compile(r"^(?:LDG|STG|ATOMG|RED|UBLKCP|UTMALDG|UTMASTG|LDGSTS)")),
    ("shared", re.compile(r"^(?:LDS|STS|LDSM|STSM|ATOMS)")),
    ("barrier", re.compile(r"^(?:BAR|SYNCS|WARPSYNC|MEMBAR)")),
    ("cross_lane", re.compile(r"^(?:SHFL|VOTE|REDUX)")),
)
_PTX_INSTR = re.compile(r"^\s*(?:@!?%\w+\s+)?([a-z][\w.:]*)", re.MULTILINE)
_SASS_INSTR = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s*(?:@!?U?P\w+\s+)?([A-Z][\w.]*)", re.MULTILINE)


@dataclass
class NvCode:
    """Instruction classes and matrix-core mnemonics of PTX or SASS text."""
    classes: dict[str, int] = field(default_factory=dict)
    mma: dict[str, int] = field(default_factory=dict)  # mnemonic (without qualifiers past the shape) -> count
    instructions: int = 0

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def classify(text: str, kind: str) -> NvCode:
    """kind: "ptx" or "sass"."""
    pat, classes = (_PTX_INSTR, PTX_CLASSES) if kind == "ptx" else (_SASS_INSTR, SASS_CLASSES)
    out = NvCode()
    for m in pat.finditer(text):
        mn = m.group(1)
        if kind == "ptx" and (mn.startswith(".") or mn.endswith(":")):
            continue
        out.instructions += 1
        for cls, p in classes:
            if p.search(mn):
                out.classes[cls] = out.classes.get(cls, 0) + 1
                if cls == "mma":
                    short = ".".join(mn.split(".")[:3]) if kind == "ptx" else mn.split(".")[0] + (
                        "." + mn.split(".")[1] if "." in mn else "")
                    out.mma[short] = out.mma.get(short, 0) + 1
                break
    return out


# --- nvcc: the CUDA original ---------------------------------------------------------------------------------

def nvcc() -> str | None:
    return shutil.which("nvcc")


@cache
def nvcc_version() -> str:
    exe = nvcc()
    if not exe:
        return ""
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ""
    m = re.search(r"release (\S+?),", out)
    return f"nvcc {m.group(1)}" if m else "nvcc"


_PTXAS_FN = re.compile(r"Compiling entry function '(?P<name>[^']+)' for '(?P<arch>sm_\w+)'")
_PTXAS_USED = re.compile(r"Used (?P<regs>\d+) registers(?:, used \d+ barriers)?(?:, (?P<smem>\d+) bytes smem)?")
_PTXAS_FRAME = re.compile(r"(?P<frame>\d+) bytes stack frame, (?P<spill_st>\d+) bytes spill stores, "
                          r"(?P<spill_ld>\d+) bytes spill loads")


def parse_ptxas(text: str) -> dict[str, dict[str, int]]:
    """`ptxas -v` output: per kernel registers, static shared memory, stack frame and spills."""
    out: dict[str, dict[str, int]] = {}
    cur = None
    for line in text.splitlines():
        if m := _PTXAS_FN.search(line):
            cur = out.setdefault(m["name"], {"regs": 0, "smem": 0, "frame": 0, "spills": 0})
        elif cur is not None and (m := _PTXAS_FRAME.search(line)):
            cur["frame"] = int(m["frame"])
            cur["spills"] = int(m["spill_st"]) + int(m["spill_ld"])
        elif cur is not None and (m := _PTXAS_USED.search(line)):
            cur["regs"] = int(m["regs"])
            cur["smem"] = int(m["smem"] or 0)
    return out


@dataclass
class NvKernel:
    name: str
    display: str
    regs: int
    smem_bytes: int
    frame_bytes: int
    spill_bytes: int
    classes: dict[str, int] = field(default_factory=dict)
    mma: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


@dataclass
class NvResult:
    arch: str
    ok: bool
    compiler: str
    messages: str  # nvcc's own output (errors), capped by the sandbox
    kernels: list[NvKernel] = field(default_factory=list)
    seconds: float = 0.0
    sandboxed: bool = False

    def to_dict(self) -> dict[str, object]:
        d = asdict(self)
        d["kernels"] = [k.to_dict() for k in self.kernels]
        return d


_SASS_FN = re.compile(r"^\s*\.text\.(?P<name>[\w$.]+):\s*$", re.MULTILINE)


def split_sass(sass: str) -> dict[str, str]:
    """nvdisasm output per function (`.text.<name>:` headers)."""
    marks = list(_SASS_FN.finditer(sass))
    return {m["name"]: sass[m.end():(marks[i + 1].start() if i + 1 < len(marks) else len(sass))]
            for i, m in enumerate(marks)}


_nv_cache: dict[tuple, NvResult] = {}


def compile_cuda(code: str, arch: str = "sm_90", *, session: str | None = None, on_wait=None,
                 allow_unsandboxed: bool = False) -> NvResult:
    """The CUDA source through nvcc for one sm_XX (device code only: `-cubin -Xptxas -v`), in the lab's sandbox
    and line; registers / shared / stack per kernel from ptxas, instruction classes from the SASS (nvdisasm)."""
    import hashlib
    import tempfile
    from pathlib import Path

    from rocm_bridge.compile import policy, sandbox, toolchain
    from rocm_bridge.compile.engine import NoSandbox
    from rocm_bridge.compile.errors import CodeTooLarge, CompileDisabled, CompileTimedOut, NvccMissing
    from rocm_bridge.compile.resources import short_name
    from rocm_bridge.compile.triton_lab import _binds, nvdisasm
    nv_target(arch)
    if len(code.encode("utf-8", "surrogatepass")) > policy.MAX_CODE_BYTES:
        raise CodeTooLarge(kib=policy.MAX_CODE_BYTES // 1024)
    if not toolchain.enabled():
        raise CompileDisabled()
    exe = nvcc()
    if exe is None:
        raise NvccMissing()
    key = (hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest(), arch)
    if key in _nv_cache:
        return _nv_cache[key]
    refused = policy.check(code)
    if refused:
        return NvResult(arch, False, nvcc_version(), "\n".join(f"{r.line}: {r.rule}" for r in refused))
    from rocm_bridge.compile.engine import remember_timeout, timed_out_before
    from rocm_bridge.compile.errors import CompileTimedOutBefore
    if timed_out_before(code, "nvcc") is not None:
        raise CompileTimedOutBefore(seconds=max(1, round(sandbox.WALL_S)))
    use_sandbox = sandbox.sandbox_works()
    if not use_sandbox and not allow_unsandboxed:
        raise NoSandbox()
    real = shutil.which("nvcc")
    with Path(real).open("rb") as fh:  # /usr/local/bin/nvcc may be a shell wrapper: exec the real driver
        head = fh.read(200)
    if head.startswith(b"#!"):
        m = re.search(rb"exec\s+(\S+/nvcc)\b", head)
        real = m.group(1).decode() if m else real
    disasm = nvdisasm()
    with sandbox.compile_lock(f"nvcc:{arch}", session=session, on_wait=on_wait):
        root = Path(tempfile.mkdtemp(prefix="rb_nvcc_"))
        try:
            job = root / "src"
            job.mkdir()
            (job / "kernel.cu").write_text(code, encoding="utf-8", errors="surrogatepass")
            script = (f"{real} -arch={arch} -cubin -Xptxas -v -o kernel.cubin kernel.cu && "
                      + (f"{disasm} -c kernel.cubin > kernel.sass" if disasm else "true"))
            run = sandbox.run(["/usr/bin/sh", "-c", script], job, env={"PATH": "/usr/bin:/bin", "HOME": "/src",
                                                                       "LANG": "C", "TMPDIR": "/tmp"},
                              ro_binds=_binds() if disasm and use_sandbox else (), sandbox=use_sandbox)
            if run.timed_out:
                remember_timeout(code, "nvcc", run.seconds)
                raise CompileTimedOut(seconds=max(1, round(sandbox.WALL_S)))
            sass = (job / "kernel.sass").read_text(errors="replace") if (job / "kernel.sass").is_file() else ""
        finally:
            shutil.rmtree(root, ignore_errors=True)
    info = parse_ptxas(run.stderr)
    per_fn = split_sass(sass)
    kernels = []
    for name, v in info.items():
        code_cls = classify(per_fn.get(name, ""), "sass")
        kernels.append(NvKernel(name, short_name(name), v["regs"], v["smem"], v["frame"], v["spills"],
                                code_cls.classes, code_cls.mma))
    messages = "\n".join(ln for ln in run.stderr.splitlines() if not ln.startswith(("ptxas info", "    ")))
    res = NvResult(arch, run.returncode == 0, nvcc_version(), messages[-4000:], kernels, run.seconds, run.sandboxed)
    _nv_cache[key] = res
    return res
