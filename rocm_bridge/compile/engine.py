"""compile(): HIP source in, diagnostics + per-kernel resources + occupancy + device assembly out.

Two compilers, one lab (`compiler=`):
- "hipcc": ROCm 5.2's hipcc (clang 15): the API check with the ROCm 5.2 headers and libraries, for the targets
  clang 15 knows. One `hipcc --cuda-device-only -S -Rpass-analysis=kernel-resource-usage` run gives all three.
- "clang22": clang 22 from the ziglang wheel (rocm_bridge.compile.clang22): the same HIP 5.2 headers, a 2026
  code generator, every target of the table (gfx942, gfx950, gfx1201 ...).
- "auto" (default): hipcc where it knows the target, clang 22 otherwise.
Mode "syntax" (`-fsyntax-only`) gives diagnostics only, faster. Results are cached per (code, compiler, target,
wave, mode) in this process; a source that timed out is remembered and refused at once the next time (it does
not take the lab's turn again). The CLI and the page call the same function.
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
COMPILERS = ("auto", "hipcc", "clang22")
CACHE_SIZE = 64
ISA_EXCERPT_LINES = 60
ASM_CAP = 1024 * 1024  # characters of assembly kept per result (the rest is dropped, `asm_truncated` says so)
TIMED_OUT_MEMORY = 256


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
    toolchain: str = "hipcc"  # "hipcc" (ROCm 5.2, clang 15) | "clang22" (current LLVM)
    asm_truncated: bool = False
    _split: list | None = field(default=None, repr=False, compare=False)

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity == "warning")

    def kernel_asm(self) -> list[isa.KernelAsm]:
        """The assembly split per kernel: done once per result, not on every page rerun."""
        if self._split is None:
            self._split = isa.split_kernels(self.asm, [k.name for k in self.kernels] or None)
        return self._split

    def to_dict(self, isa_lines: int | None = None) -> dict[str, object]:
        asm = self.asm
        if isa_lines is not None:
            asm = "\n".join(f"{k.name}:\n" + "\n".join(ln.text for ln in k.lines[:isa_lines]) + "\n.Lfunc_end:"
                            for k in self.kernel_asm())
        return {"target": self.target, "wave": self.wave, "mode": self.mode, "ok": self.ok,
                "compiler": self.compiler, "seconds": round(self.seconds, 3), "sandboxed": self.sandboxed,
                "truncated": self.truncated, "recorded": self.recorded, "toolchain": self.toolchain,
                "asm_truncated": self.asm_truncated,
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
                   recorded=d.get("recorded", "") or str(date.today()), toolchain=d.get("toolchain", "hipcc"),
                   asm_truncated=bool(d.get("asm_truncated")))


_cache: OrderedDict[tuple, CompileResult] = OrderedDict()
_cache_lock = threading.Lock()


_timed_out: OrderedDict[tuple, float] = OrderedDict()  # (source hash, compiler) -> seconds it ran


def _digest(code: str) -> str:
    return hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()


def _key(code: str, target: str, wave: int, mode: str, compiler: str = "hipcc") -> tuple:
    return (_digest(code), compiler, target, wave, mode)


def remember_timeout(code: str, compiler: str, seconds: float) -> None:
    with _cache_lock:
        _timed_out[(_digest(code), compiler)] = seconds
        while len(_timed_out) > TIMED_OUT_MEMORY:
            _timed_out.popitem(last=False)


def timed_out_before(code: str, compiler: str) -> float | None:
    with _cache_lock:
        return _timed_out.get((_digest(code), compiler))


def resolve_compiler(target: str, compiler: str = "auto") -> str:
    """"hipcc" where ROCm 5.2's compiler knows the target (and is installed), else "clang22"."""
    if compiler not in COMPILERS:
        raise ValueError(compiler)
    if compiler != "auto":
        return compiler
    if toolchain.hipcc() is not None and target in toolchain.supported_targets():
        return "hipcc"
    from rocm_bridge.compile import clang22
    return "clang22" if clang22.zig_dir() is not None else "hipcc"


def cached(code: str, target: str = "gfx90a", wave: int | None = None, mode: str = "full",
           compiler: str = "auto") -> CompileResult | None:
    t = get_target(target)
    with _cache_lock:
        return _cache.get(_key(code, target, t.wave(wave), mode, resolve_compiler(target, compiler)))


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
    t = get_target(result.target, "clang22" if result.toolchain == "clang22" else "clang15")
    for k in result.kernels:
        occ = occupancy(t, vgprs=k.vgprs, agprs=k.agprs, sgprs=k.sgprs, lds_bytes=k.lds_bytes,
                        block_size=k.max_block or 1024, wave=k.wave or result.wave)
        k.occupancy = occ.to_dict()


def compile_code(code: str, target: str = "gfx90a", wave: int | None = None, mode: str = "full", *,
                 compiler: str = "auto", allow_unsandboxed: bool = False, use_cache: bool = True,
                 check_policy: bool = True, session: str | None = None, on_wait=None) -> CompileResult:
    """Compile HIP source for one target. Raises CompileBusy / CompileQueued / CompileQuota (the lab's line,
    rocm_bridge.compile.queue), CompilerMissing, CompileDisabled, NoSandbox, CompileTimedOut,
    CompileTimedOutBefore, CodeTooLarge; refused source gives a result with `refused`."""
    from rocm_bridge.compile import clang22
    from rocm_bridge.compile.errors import CompileTimedOutBefore

    if mode not in MODES:
        raise ValueError(mode)
    t = get_target(target)
    wave = t.wave(wave)
    if len(code.encode("utf-8", "surrogatepass")) > policy.MAX_CODE_BYTES:
        raise CodeTooLarge(kib=policy.MAX_CODE_BYTES // 1024)
    if not toolchain.enabled():  # before the cache: a deployment that turned compiling off serves no live result
        raise CompileDisabled()
    tool = resolve_compiler(target, compiler)
    version = toolchain.version() if tool == "hipcc" else clang22.version()
    key = _key(code, target, wave, mode, tool)
    if use_cache:
        with _cache_lock:
            if key in _cache:
                _cache.move_to_end(key)
                return _cache[key]
    refused = policy.check(code) if check_policy else []  # check_policy=False: tests of the sandbox alone
    if refused:
        return CompileResult(target, wave, mode, False, refused=refused, compiler=version, toolchain=tool)
    if tool == "hipcc" and toolchain.hipcc() is None:
        raise CompilerMissing()
    if tool == "clang22" and not clang22.available():
        raise CompilerMissing()
    if tool == "clang22" and target not in clang22.supported_targets():
        from rocm_bridge.compile.errors import UnknownTarget
        raise UnknownTarget(target=target, known=", ".join(clang22.supported_targets()))
    if timed_out_before(code, tool) is not None:
        raise CompileTimedOutBefore(seconds=max(1, round(sandbox.WALL_S)))
    use_sandbox = sandbox.sandbox_works()
    if not use_sandbox and not allow_unsandboxed:
        raise NoSandbox()
    binds: tuple[tuple[str, str], ...] = ()
    if tool == "hipcc":
        devlib = toolchain.device_lib_dir(target)
        devlib_arg = None
        if devlib is not None:
            devlib_arg = "/devlibs" if use_sandbox else str(devlib)
            binds = ((str(devlib), "/devlibs"),)
        argv = command(target, wave, mode, devlib_arg)
        env = {"PATH": "/usr/bin:/bin", "HIP_PLATFORM": "amd", "HOME": "/src", "LANG": "C", "LC_ALL": "C"}
    else:
        clang22.support_dir()  # made before the turn: the first call generates bitcode
        binds = clang22.binds() if use_sandbox else ()
        argv = clang22.command([target], wave, mode, SOURCE_NAME, sandboxed=use_sandbox)
        env = {"PATH": "/usr/bin:/bin", "HOME": "/src", "LANG": "C", "LC_ALL": "C"}
    with sandbox.compile_lock(f"{tool}:{target}/{mode}", session=session, on_wait=on_wait):
        if use_cache:  # compiled by another session while this one waited
            with _cache_lock:
                if key in _cache:
                    return _cache[key]
        root = Path(tempfile.mkdtemp(prefix="rb_compile_"))
        try:
            job = root / "src"
            job.mkdir()
            (job / SOURCE_NAME).write_text(code, encoding="utf-8", errors="surrogatepass")
            run = sandbox.run(argv, job, env=env, ro_binds=binds, sandbox=use_sandbox)
            if run.timed_out:
                remember_timeout(code, tool, run.seconds)
                raise CompileTimedOut(seconds=max(1, round(sandbox.WALL_S)))
            asm_path = job / "kernel.s"
            asm = ""
            if mode == "full" and run.returncode == 0 and asm_path.is_file():
                with asm_path.open("r", encoding="utf-8", errors="replace") as fh:
                    asm = fh.read(sandbox.FILE_BYTES)
        finally:
            shutil.rmtree(root, ignore_errors=True)
    result = finish(code, target, wave, mode, tool, version, run, asm)
    if use_cache:
        with _cache_lock:
            _cache[key] = result
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
    return result


def finish(code: str, target: str, wave: int, mode: str, tool: str, version: str, run: sandbox.Run,
           asm: str) -> CompileResult:
    """The result of one compiler run: diagnostics explained, resources, occupancy, assembly capped."""
    diags = sorted(dg.explain(dg.parse(run.stderr, SOURCE_NAME), code), key=lambda d: (d.line, d.col))
    kernels = resources.kernels(asm, run.stderr) if asm else []
    result = CompileResult(target, wave, mode, run.returncode == 0, diagnostics=diags, kernels=kernels,
                           asm=cap_asm(asm), compiler=version, seconds=run.seconds, sandboxed=run.sandboxed,
                           truncated=run.truncated, toolchain=tool, asm_truncated=len(asm) > ASM_CAP)
    if run.returncode != 0 and not diags:
        # the compiler failed without a diagnostic in the file (killed by a limit, a crash): say so
        result.diagnostics.append(dg.Diagnostic(SOURCE_NAME, 1, 1, "error", _tail(run.stderr), explain="crashed"))
    add_occupancy(result)
    return result


def cap_asm(asm: str) -> str:
    """The assembly kept per result: at most ASM_CAP characters, cut at a line end."""
    if len(asm) <= ASM_CAP:
        return asm
    return asm[:asm.rfind("\n", 0, ASM_CAP) + 1]


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


_SUMMARY = re.compile(r"^\d+ (?:warnings?|errors?)(?: and \d+ (?:warnings?|errors?))? generated when compiling for "
                      r"(?P<target>gfx\w+)\.$", re.MULTILINE)


def split_messages(stderr: str, targets: list[str]) -> dict[str, str]:
    """A batch run's messages per target: clang compiles the targets one after another and closes each one's
    messages with 'N warnings generated when compiling for gfxNNN.' (a target with none prints nothing)."""
    out = {t: "" for t in targets}
    pos = 0
    for m in _SUMMARY.finditer(stderr):
        if m["target"] in out:
            out[m["target"]] = stderr[pos:m.end()]
        pos = m.end() + 1
    return out


def compile_batch(code: str, targets: list[str], *, use_cache: bool = True,
                  session: str | None = None) -> dict[str, CompileResult]:
    """Compile one HIP source for several targets with clang 22 in ONE compiler process (each target at its
    default wave size): what the tests and the recorder use to keep the cost down. Every result is also cached
    for compile_code(..., compiler="clang22")."""
    from rocm_bridge.compile import clang22
    from rocm_bridge.compile.errors import CompileTimedOutBefore

    if len(code.encode("utf-8", "surrogatepass")) > policy.MAX_CODE_BYTES:
        raise CodeTooLarge(kib=policy.MAX_CODE_BYTES // 1024)
    if not toolchain.enabled():
        raise CompileDisabled()
    if not clang22.available():
        raise CompilerMissing()
    known = clang22.supported_targets()
    waves = {t: get_target(t).default_wave for t in targets}
    for t in targets:
        if t not in known:
            from rocm_bridge.compile.errors import UnknownTarget
            raise UnknownTarget(target=t, known=", ".join(known))
    version = clang22.version()
    out: dict[str, CompileResult] = {}
    if use_cache:
        with _cache_lock:
            for t in targets:
                if (k := _key(code, t, waves[t], "full", "clang22")) in _cache:
                    out[t] = _cache[k]
    todo = [t for t in targets if t not in out]
    if not todo:
        return out
    refused = policy.check(code)
    if refused:
        return {t: CompileResult(t, waves[t], "full", False, refused=refused, compiler=version, toolchain="clang22")
                for t in targets}
    if timed_out_before(code, "clang22") is not None:
        raise CompileTimedOutBefore(seconds=max(1, round(sandbox.WALL_S)))
    use_sandbox = sandbox.sandbox_works()
    clang22.support_dir()
    argv = clang22.command(todo, None, "full", SOURCE_NAME, sandboxed=use_sandbox, output=None)
    with sandbox.compile_lock(f"clang22:{','.join(todo)}", session=session):
        root = Path(tempfile.mkdtemp(prefix="rb_compile_"))
        try:
            job = root / "src"
            job.mkdir()
            (job / SOURCE_NAME).write_text(code, encoding="utf-8", errors="surrogatepass")
            run = sandbox.run(argv, job, env={"PATH": "/usr/bin:/bin", "HOME": "/src", "LANG": "C", "LC_ALL": "C"},
                              ro_binds=clang22.binds() if use_sandbox else (), sandbox=use_sandbox,
                              wall_s=sandbox.WALL_S * max(1, len(todo) // 2))
            if run.timed_out:
                remember_timeout(code, "clang22", run.seconds)
                raise CompileTimedOut(seconds=max(1, round(sandbox.WALL_S)))
            asms = {}
            for t in todo:
                p = job / f"kernel-hip-amdgcn-amd-amdhsa-{t}.s"
                asms[t] = p.read_text(encoding="utf-8", errors="replace")[:sandbox.FILE_BYTES] if p.is_file() else ""
        finally:
            shutil.rmtree(root, ignore_errors=True)
    messages = split_messages(run.stderr, todo)
    if run.returncode != 0:
        # clang stops at the first target that fails: the targets after it get their own run (errors are fast)
        for t in [t for t in todo if not asms[t] and not messages[t]]:
            todo.remove(t)
            out[t] = compile_code(code, t, waves[t], compiler="clang22", allow_unsandboxed=True,
                                  use_cache=use_cache, session=session)
    for t in todo:
        one = sandbox.Run(run.returncode if not asms[t] else 0, messages[t] if len(todo) > 1 else run.stderr,
                          run.truncated, False, run.sandboxed, run.seconds / len(todo))
        if not asms[t] and one.returncode == 0:
            one = sandbox.Run(1, messages[t] or run.stderr, run.truncated, False, run.sandboxed, one.seconds)
        out[t] = finish(code, t, waves[t], "full", "clang22", version, one, asms[t])
        if use_cache:
            with _cache_lock:
                _cache[_key(code, t, waves[t], "full", "clang22")] = out[t]
                while len(_cache) > CACHE_SIZE:
                    _cache.popitem(last=False)
    return out
