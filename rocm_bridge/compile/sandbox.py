"""Running the compiler on untrusted text: a bubblewrap sandbox, resource limits, a wall clock, an output cap
and one compile at a time per server process.

Sandbox (bwrap): only /usr is visible (read-only, with the /bin /lib /lib64 links), plus a private /tmp, a
minimal /dev, the job's own directory at /src and, for gfx11, the generated device-lib directory (read-only).
No /etc, /home, /root, /proc, no network (--unshare-all), no capabilities, a new session, a clean environment;
it dies with its parent. Limits (prlimit, applied to bwrap and inherited): address space, CPU seconds, file
size, no core files; it runs at nice 10. The wall clock kills the whole process group.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from rocm_bridge.compile.queue import LAB

WALL_S = float(os.environ.get("ROCM_BRIDGE_COMPILE_TIMEOUT", "60"))
CPU_S = 90
MEMORY_BYTES = 4 * 1024 ** 3
FILE_BYTES = 64 * 1024 ** 2
OUTPUT_CAP = 2 * 1024 ** 2  # bytes of compiler messages kept
NICE = 10

is_busy = LAB.is_busy
holder = LAB.holder


def compile_lock(label: str = "compile", session: str | None = None, on_wait=None, wait_s: float | None = None):
    """One compile at a time per server, the others wait their turn in line (rocm_bridge.compile.queue)."""
    return LAB.turn(label, session=session, on_wait=on_wait, wait_s=wait_s)


def bwrap() -> str | None:
    return shutil.which("bwrap")


_BWRAP_OK: bool | None = None


def sandbox_works() -> bool:
    """bwrap can start here (it cannot inside some containers); checked once."""
    global _BWRAP_OK
    if _BWRAP_OK is None:
        exe = bwrap()
        if not exe:
            _BWRAP_OK = False
        else:
            try:
                r = subprocess.run([exe, *_bwrap_base(), "--", "/usr/bin/true"], capture_output=True, timeout=20)
                _BWRAP_OK = r.returncode == 0
            except (OSError, subprocess.TimeoutExpired):
                _BWRAP_OK = False
    return _BWRAP_OK


def _bwrap_base() -> list[str]:
    return ["--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
            "--symlink", "usr/bin", "/bin", "--dev", "/dev", "--tmpfs", "/tmp", "--unshare-all",
            "--hostname", "sandbox", "--cap-drop", "ALL", "--new-session", "--die-with-parent", "--clearenv"]


@dataclass
class Run:
    returncode: int
    stderr: str  # compiler messages (stdout and stderr together), capped
    truncated: bool
    timed_out: bool
    sandboxed: bool
    seconds: float


def _limits() -> None:  # runs in the child before exec (prlimit is used instead when present)
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_S, CPU_S))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_BYTES, FILE_BYTES))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run(argv: list[str], workdir: Path, env: dict[str, str], ro_binds: tuple[tuple[str, str], ...] = (),
        sandbox: bool = True, wall_s: float | None = None) -> Run:
    """Run argv (argv[0] an absolute path under /usr) in `workdir`, which the sandbox sees as /src."""
    log = workdir.parent / f"{workdir.name}.log"  # outside /src: the compiler cannot read or replace it
    if sandbox:
        cmd = [bwrap(), *_bwrap_base(), "--bind", str(workdir), "/src", "--chdir", "/src"]
        for src, dst in ro_binds:
            cmd += ["--ro-bind", src, dst]
        for k, v in env.items():
            cmd += ["--setenv", k, v]
        cmd += ["--", *argv]
        run_env = {"PATH": "/usr/bin:/bin"}
        cwd = str(workdir)
    else:
        cmd, run_env, cwd = list(argv), dict(env), str(workdir)
    nice = shutil.which("nice")
    if nice:  # the compiler yields the CPU to the server's other sessions
        cmd = [nice, "-n", str(NICE), *cmd]
    prlimit = shutil.which("prlimit")
    preexec = None
    if prlimit:
        cmd = [prlimit, f"--as={MEMORY_BYTES}", f"--cpu={CPU_S}", f"--fsize={FILE_BYTES}", "--core=0", "--", *cmd]
    else:
        preexec = _limits
    start = time.perf_counter()
    timed_out = False
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, cwd=cwd,
                                env=run_env, start_new_session=True, preexec_fn=preexec)
        try:
            proc.wait(timeout=WALL_S if wall_s is None else wall_s)
        except subprocess.TimeoutExpired:
            timed_out = True
            with suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    seconds = time.perf_counter() - start
    with log.open("rb") as fh:
        data = fh.read(OUTPUT_CAP + 1)
    log.unlink(missing_ok=True)
    truncated = len(data) > OUTPUT_CAP
    return Run(proc.returncode, data[:OUTPUT_CAP].decode("utf-8", "replace"), truncated, timed_out, sandbox, seconds)
