"""The compile lab's stable headless API: compile HIP device code, get resources and instruction classes.

    from rocm_bridge.compile.api import compile_hip
    rep = compile_hip(source, "gfx942")            # clang 22 (the current LLVM), sandboxed, cached
    k = rep.kernels[0]
    k.vgprs, k.lds_bytes, k.occupancy              # 44, 1024, 8
    k.mnemonics["global_load_dwordx4"]             # how many of that instruction
    k.memory["global_load"]                        # {128: 2, 32: 1}: bits per lane -> count
    k.classes["mfma"]                              # matrix-core instructions (MFMA / WMMA / SMFMAC)

The signature of `compile_hip` and the fields of CodegenReport / KernelReport are kept stable (docs/compile.md);
new fields may be added. Errors are the lab's own (rocm_bridge.errors.RocmBridgeError subclasses with a
translated message): CompilerMissing, CompileDisabled, CompileTimedOut, CompileBusy, UnknownTarget,
CodeTooLarge. Source the include policy refuses gives ok=False with `refused` lines.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from rocm_bridge.compile.isa import KernelAsm, is_instruction

# memory operation kinds by mnemonic prefix; the width comes from the suffix
_MEM_KIND = (
    ("global_load", re.compile(r"^(?:global|flat|buffer)_load_(?!lds)")),
    ("global_store", re.compile(r"^(?:global|flat|buffer)_store_")),
    ("global_atomic", re.compile(r"^(?:global|flat|buffer)_atomic_")),
    ("lds_load", re.compile(r"^ds_(?:read|load)")),
    ("lds_store", re.compile(r"^ds_(?:write|store)")),
    ("scalar_load", re.compile(r"^s_(?:load|buffer_load)_")),
)
_WIDTH = re.compile(r"_(?:dwordx(?P<dx>\d+)|(?P<dword>dword)|b(?P<b>\d+)|(?P<sub>u8|i8|ubyte|sbyte|byte|u16|i16|ushort|"
                    r"sshort|short|d16\w*))(?:_|$)")
_READ2 = re.compile(r"^ds_(?:read|write|load|store)2(?:st64)?_b(\d+)")


def width_bits(mnemonic: str) -> int:
    """Bits per lane one memory instruction moves: global_load_dwordx4 -> 128, ds_read_b128 -> 128,
    ds_read2_b64 -> 128, global_load_b96 -> 96, global_load_ushort -> 16 (0: not a memory instruction)."""
    if m := _READ2.match(mnemonic):
        return 2 * int(m.group(1))
    m = _WIDTH.search(mnemonic)
    if not m:
        return 0
    if m["dx"]:
        return 32 * int(m["dx"])
    if m["dword"]:
        return 32
    if m["b"]:
        return int(m["b"])
    sub = m["sub"]
    return 8 if "8" in sub or "byte" in sub else 16


@dataclass(frozen=True)
class KernelReport:
    name: str  # mangled symbol
    display: str  # short name
    vgprs: int
    agprs: int
    sgprs: int
    lds_bytes: int
    scratch_bytes: int
    vgpr_spills: int
    sgpr_spills: int
    wave: int
    max_block: int
    occupancy: int  # waves per SIMD, the lab's model (rocm_bridge.compile.occupancy)
    compiler_occupancy: int | None  # the compiler's own figure (None where it reports none)
    binding: tuple[str, ...]  # the limits that give the occupancy: vgprs / sgprs / lds / waves
    instructions: int
    classes: dict[str, int] = field(default_factory=dict)  # isa.CLASSES id -> count (mfma, global, lds, ...)
    mnemonics: dict[str, int] = field(default_factory=dict)  # memory, LDS and matrix-core mnemonics -> count
    memory: dict[str, dict[int, int]] = field(default_factory=dict)  # kind -> {bits per lane: count}

    @property
    def mfma(self) -> dict[str, int]:
        """Matrix-core instructions by mnemonic (v_mfma_*, v_smfmac_*, v_wmma_*)."""
        return {k: v for k, v in self.mnemonics.items() if k.startswith(("v_mfma", "v_smfmac", "v_wmma", "v_swmmac"))}

    def to_dict(self) -> dict[str, object]:
        d = asdict(self)
        d["binding"] = list(self.binding)
        d["memory"] = {k: {str(b): n for b, n in v.items()} for k, v in self.memory.items()}
        d["mfma"] = self.mfma
        return d


@dataclass(frozen=True)
class CodegenReport:
    ok: bool
    target: str
    wave: int
    toolchain: str  # "clang22" | "hipcc"
    compiler: str  # version, e.g. "clang 22.1.8 (ziglang 0.17.1)"
    seconds: float
    kernels: tuple[KernelReport, ...]
    errors: tuple[str, ...]  # "LINE:COL: message" of each error
    refused: tuple[str, ...]  # include-policy refusals, "LINE: rule"
    asm: str

    def kernel(self, display: str) -> KernelReport:
        for k in self.kernels:
            if display in (k.display, k.name):
                return k
        raise KeyError(display)

    def to_dict(self, with_asm: bool = False) -> dict[str, object]:
        d = {"ok": self.ok, "target": self.target, "wave": self.wave, "toolchain": self.toolchain,
             "compiler": self.compiler, "seconds": self.seconds, "kernels": [k.to_dict() for k in self.kernels],
             "errors": list(self.errors), "refused": list(self.refused)}
        if with_asm:
            d["asm"] = self.asm
        return d


_TRACKED = re.compile(r"^(?:global_|flat_|buffer_|ds_|s_load|s_buffer_load|v_mfma|v_smfmac|v_wmma|v_swmmac|"
                      r"s_barrier|s_waitcnt|s_wait_)")


def kernel_report(k, asm: KernelAsm | None) -> KernelReport:
    """One KernelReport from the engine's KernelResources and the kernel's assembly."""
    mnemonics: dict[str, int] = {}
    memory: dict[str, dict[int, int]] = {}
    classes: dict[str, int] = {}
    instructions = 0
    if asm is not None:
        classes = asm.counts()
        for ln in asm.lines:
            if not is_instruction(ln.text):
                continue
            instructions += 1
            mn = ln.text.split(None, 1)[0]
            if not _TRACKED.match(mn):
                continue
            mnemonics[mn] = mnemonics.get(mn, 0) + 1
            for kind, pat in _MEM_KIND:
                if pat.match(mn):
                    bits = width_bits(mn)
                    per = memory.setdefault(kind, {})
                    per[bits] = per.get(bits, 0) + 1
                    break
    occ = k.occupancy or {}
    return KernelReport(name=k.name, display=k.display, vgprs=k.vgprs, agprs=k.agprs, sgprs=k.sgprs,
                        lds_bytes=k.lds_bytes, scratch_bytes=k.scratch_bytes, vgpr_spills=k.vgpr_spills,
                        sgpr_spills=k.sgpr_spills, wave=k.wave, max_block=k.max_block,
                        occupancy=int(occ.get("waves_per_simd", 0)), compiler_occupancy=k.compiler_occupancy,
                        binding=tuple(occ.get("binding", ())), instructions=instructions, classes=classes,
                        mnemonics=dict(sorted(mnemonics.items())), memory=memory)


def report(result) -> CodegenReport:
    """A CodegenReport from an engine CompileResult."""
    by_name = {a.name: a for a in result.kernel_asm()}
    return CodegenReport(
        ok=result.ok, target=result.target, wave=result.wave, toolchain=result.toolchain, compiler=result.compiler,
        seconds=round(result.seconds, 3), kernels=tuple(kernel_report(k, by_name.get(k.name)) for k in result.kernels),
        errors=tuple(f"{d.line}:{d.col}: {d.message}" for d in result.diagnostics if d.severity == "error"),
        refused=tuple(f"{r.line}: {r.rule}" for r in result.refused), asm=result.asm)


def compile_hip(source: str, target: str = "gfx942", *, wave: int | None = None, compiler: str = "clang22",
                session: str | None = None) -> CodegenReport:
    """Compile HIP device code for one AMD target and report, per kernel, resources, occupancy and instruction
    classes. compiler: "clang22" (default: the current LLVM, every target of data/amdgpu_targets.csv),
    "hipcc" (ROCm 5.2's clang 15, older targets only) or "auto". Sandboxed, bounded, cached per process."""
    from rocm_bridge.compile.engine import compile_code
    return report(compile_code(source, target, wave, "full", compiler=compiler, allow_unsandboxed=True,
                               session=session))
