"""compile(): HIP source in, diagnostics + per-kernel resources + occupancy + device assembly out.

One `hipcc --cuda-device-only -S -Rpass-analysis=kernel-resource-usage` run gives all three (mode "full");
mode "syntax" (`-fsyntax-only`) gives diagnostics only, faster. Results are cached per (code, target, wave,
mode) in this process. The CLI and the page call the same function.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from rocm_bridge.compile import diagnostics as dg
from rocm_bridge.compile import isa, policy, resources, sandbox, toolchain
from rocm_bridge.compile.errors import CodeTooLarge, CompileDisabled, CompilerMissing, CompileTimedOut
from rocm_bridge.compile.occupancy import occupancy
from rocm_bridge.compile.targets import target as get_target
from rocm_bridge.errors import RocmBridgeError

SOURCE_NAME = "kernel.hip"
MODES = ("full", "syntax")
CACHE_SIZE = 64
ISA_EXCERPT_LINES = 60


class NoSandbox(RocmBridgeError, RuntimeError):
    key = "compile.err.no_sandbox"


@dataclass
class CompileResult:
    target: str
    wave: int
    mode: str
    ok: bool  # the compiler exited 0
    diagnostics: list[dg.Diagnostic] = field(default_factory=list)
    kernels: list[resources.KernelResources] = field(default_factory=list)
    asm: str = ""
    refused: list[policy.Refusal] = field(default_factory=list)
    compiler: str = ""
    seconds: float = 0.0
    sandboxed: bool = False
    truncated: bool = False
    recorded: str = ""  # "" for a live result; the date for a recorded one

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "warning")

    def kernel_asm(self) -> list[isa.KernelAsm]:
        return isa.split_kernels(self.asm, [k.name for k in self.kernels] or None)

    def to_dict(self, isa_lines: int | None = None) -> dict[str, object]:
        asm = self.asm
        if isa_lines is not None:
            asm = "\n".join(f"{k.name}:\n" + "\n".join(ln.text for ln in k.lines[:isa_lines]) + "\n.Lfunc_end:"
                            for k in self.kernel_asm())
        return {"target": self.target, "wave": self.wave, "mode": self.mode, "ok": self.ok,
                "compiler": self.compiler, "seconds": round(self.seconds, 3), "sandboxed": self.sandboxed,
                "truncated": self.truncated, "recorded": self.recorded,
                "diagnostics": [d.to_dict() for d in self.diagnostics],
                "kernels": [k.to_dict() for k in self.kernels], "refused": [r.to_dict() for r in self.refused],
                "asm": asm}

    @classmethod
    def from_dict(cls, d: dict) -> CompileResult:
        return cls(target=d["target"], wave=int(d["wave"]), mode=d["mode"], ok=bool(d["ok"]),
                   diagnostics=[dg.Diagnostic(**x) for x in d.get("diagnostics", [])],
                   kernels=[resources.KernelResources(**x) for x in d.get("kernels", [])],
                   asm=d.get("asm", ""), refused=[policy.Refusal(**x) for x in d.get("refused", [])],
                   compiler=d.get("compiler", ""), seconds=float(d.get("seconds", 0)),
                   sandboxed=bool(d.get("sandboxed")), truncated=bool(d.get("truncated")),
                   recorded=d.get("recorded", "") or str(date.today()))


_cache: OrderedDict[tuple, CompileResult] = OrderedDict()
_cache_lock = threading.Lock()


def _key(code: str, target: str, wave: int, mode: str) -> tuple:
    return (hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest(), target, wave, mode)


def cached(code: str, target: str = "gfx90a", wave: int | None = None, mode: str = "full") -> CompileResult | None:
    t = get_target(target)
    with _cache_lock:
        return _cache.get(_key(code, target, t.wave(wave), mode))


def wave_flags(target: str, wave: int) -> list[str]:
    t = get_target(target)
    if len(t.wave_sizes) < 2 or wave == t.default_wave:
        return []
    return ["-mwavefrontsize64"] if wave == 64 else ["-mno-wavefrontsize64"]


def command(target: str, wave: int, mode: str, devlibs: str | None = None) -> list[str]:
    """The hipcc command line (as run inside the sandbox, in /src)."""
    exe = toolchain.hipcc() or "/usr/bin/hipcc"
    argv = [exe, f"--offload-arch={target}", "--cuda-device-only", "-std=c++17", "-O3", "-fno-color-diagnostics",
            "-ferror-limit=50", "-Wshorten-64-to-32", *wave_flags(target, wave)]
    if devlibs:
        argv.append(f"--rocm-device-lib-path={devlibs}")
    if mode == "syntax":
        argv += ["-fsyntax-only", SOURCE_NAME]
    else:
        argv += ["-S", "-Rpass-analysis=kernel-resource-usage", "-o", "kernel.s", SOURCE_NAME]
    return argv


def add_occupancy(result: CompileResult) -> None:
    t = get_target(result.target)
    for k in result.kernels:
        occ = occupancy(t, vgprs=k.vgprs, agprs=k.agprs, sgprs=k.sgprs, lds_bytes=k.lds_bytes,
                        block_size=k.max_block or 1024, wave=k.wave or result.wave)
        k.occupancy = occ.to_dict()


def compile_code(code: str, target: str = "gfx90a", wave: int | None = None, mode: str = "full", *,
                 allow_unsandboxed: bool = False, use_cache: bool = True, check_policy: bool = True) -> CompileResult:
    """Compile HIP source for one target. Raises CompileBusy (another compile runs), CompilerMissing,
    CompileDisabled, NoSandbox, CompileTimedOut, CodeTooLarge; refused source gives a result with `refused`."""
    if mode not in MODES:
        raise ValueError(mode)
    t = get_target(target)
    wave = t.wave(wave)
    if len(code.encode("utf-8", "surrogatepass")) > policy.MAX_CODE_BYTES:
        raise CodeTooLarge(kib=policy.MAX_CODE_BYTES // 1024)
    if not toolchain.enabled():  # before the cache: a deployment that turned compiling off serves no live result
        raise CompileDisabled()
    key = _key(code, target, wave, mode)
    if use_cache:
        with _cache_lock:
            if key in _cache:
                _cache.move_to_end(key)
                return _cache[key]
    refused = policy.check(code) if check_policy else []  # check_policy=False: tests of the sandbox alone
    if refused:
        return CompileResult(target, wave, mode, False, refused=refused, compiler=toolchain.version())
    if toolchain.hipcc() is None:
        raise CompilerMissing()
    use_sandbox = sandbox.sandbox_works()
    if not use_sandbox and not allow_unsandboxed:
        raise NoSandbox()
    devlib = toolchain.device_lib_dir(target)
    binds: tuple[tuple[str, str], ...] = ()
    devlib_arg = None
    if devlib is not None:
        devlib_arg = "/devlibs" if use_sandbox else str(devlib)
        binds = ((str(devlib), "/devlibs"),)
    with sandbox.compile_lock(f"{target}/{mode}"):
        root = Path(tempfile.mkdtemp(prefix="rb_compile_"))
        try:
            job = root / "src"
            job.mkdir()
            (job / SOURCE_NAME).write_text(code, encoding="utf-8", errors="surrogatepass")
            argv = command(target, wave, mode, devlib_arg)
            run = sandbox.run(argv, job, env={"PATH": "/usr/bin:/bin", "HIP_PLATFORM": "amd", "HOME": "/src",
                                              "LANG": "C", "LC_ALL": "C"},
                              ro_binds=binds, sandbox=use_sandbox)
            if run.timed_out:
                raise CompileTimedOut(seconds=max(1, round(sandbox.WALL_S)))
            asm_path = job / "kernel.s"
            asm = ""
            if mode == "full" and run.returncode == 0 and asm_path.is_file():
                with asm_path.open("r", encoding="utf-8", errors="replace") as fh:
                    asm = fh.read(sandbox.FILE_BYTES)
        finally:
            shutil.rmtree(root, ignore_errors=True)
    diags = sorted(dg.explain(dg.parse(run.stderr, SOURCE_NAME), code), key=lambda d: (d.line, d.col))
    result = CompileResult(target, wave, mode, run.returncode == 0, diagnostics=diags,
                           kernels=resources.kernels(asm, run.stderr) if asm else [], asm=asm,
                           compiler=toolchain.version(), seconds=run.seconds, sandboxed=run.sandboxed,
                           truncated=run.truncated)
    if run.returncode != 0 and not diags:
        # the compiler failed without a diagnostic in the file (killed by a limit, a crash): say so
        result.diagnostics.append(dg.Diagnostic(SOURCE_NAME, 1, 1, "error", _tail(run.stderr), explain="crashed"))
    add_occupancy(result)
    if use_cache:
        with _cache_lock:
            _cache[key] = result
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
    return result


def _tail(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if "linker' input unused" not in ln and "argument unused" not in ln]
    return ("\n".join(lines[-3:]) or "compiler exited without output")[-400:]


_LB = re.compile(r"__launch_bounds__\s*\(\s*[^,()]+(?:\([^()]*\))?")
_GLOBAL = re.compile(r"__global__(\s+(?:static\s+|inline\s+)*void\s+)(?!__launch_bounds__)")


def with_launch_bounds(code: str, block: int) -> str:
    """The code with every kernel's __launch_bounds__ maximum set to `block` (added where a kernel has none).

    >>> with_launch_bounds("__global__ void __launch_bounds__(256) k() {}", 128)
    '__global__ void __launch_bounds__(128) k() {}'
    >>> with_launch_bounds("__global__ void k() {}", 64)
    '__global__ void __launch_bounds__(64) k() {}'
    """
    if "__launch_bounds__" in code:
        return _LB.sub(f"__launch_bounds__({int(block)}", code)
    return _GLOBAL.sub(lambda m: f"__global__{m.group(1)}__launch_bounds__({int(block)}) ", code)
