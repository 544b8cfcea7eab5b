"""What the doctor may ask the host, behind one small interface so tests can present fake systems.

Files are read by the fact collector under a root directory (``/`` on a real host, a fixture tree in tests).
Everything else (commands, environment, groups, device-node permissions, installed packages, the
TensorFlow subprocess) goes through a ``Probe``:

- ``SystemProbe``: the real host. Commands and TensorFlow run in subprocesses with timeouts, so a broken or
  hanging TensorFlow cannot take the app down.
- ``FakeProbe``: answers from a dict (a fixture's ``probe.json``).
"""

from __future__ import annotations

import grp
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

TF_MARKER = "@@ROCM_BRIDGE_DOCTOR@@"
TF_TIMEOUT_S = 90.0
COMMAND_TIMEOUT_S = 15.0
OUTPUT_CAP = 64_000  # characters kept of a command's output

# Runs in a fresh interpreter: imports TensorFlow, reports build and devices, tries one small matmul and says
# where it ran (soft placement would silently run "/GPU:0" code on the CPU).
TF_SCRIPT = r"""
import json, sys
out = {}
try:
    import tensorflow as tf
except BaseException as e:
    out["import_error"] = "%s: %s" % (type(e).__name__, e)
    print("@@ROCM_BRIDGE_DOCTOR@@" + json.dumps(out)); sys.stdout.flush(); sys.exit(3)
out["version"] = getattr(tf, "__version__", "")
out["built_with_rocm"] = bool(tf.test.is_built_with_rocm())
out["built_with_cuda"] = bool(tf.test.is_built_with_cuda())
try:
    out["build_info"] = {k: str(v) for k, v in dict(tf.sysconfig.get_build_info()).items()}
except Exception as e:
    out["build_info"] = {"error": str(e)}
try:
    gpus = tf.config.list_physical_devices("GPU")
    out["gpus"] = [d.name for d in gpus]
    if gpus:
        with tf.device("/GPU:0"):
            a = tf.random.uniform((256, 256))
            b = tf.matmul(a, a)
        out["matmul_device"] = b.device
        out["matmul_ok"] = bool(tf.reduce_all(tf.math.is_finite(b)).numpy())
except Exception as e:
    out["gpu_error"] = "%s: %s" % (type(e).__name__, e)
print("@@ROCM_BRIDGE_DOCTOR@@" + json.dumps(out))
"""

# Asks amdsmi (AMD's Python API, shipped with ROCm) for GPU names and gfx targets, in a subprocess.
AMDSMI_SCRIPT = r"""
import json
import amdsmi
amdsmi.amdsmi_init()
out = []
try:
    for h in amdsmi.amdsmi_get_processor_handles():
        info = {}
        try:
            asic = amdsmi.amdsmi_get_gpu_asic_info(h)
            info["name"] = str(asic.get("market_name", ""))
            info["gfx"] = str(asic.get("target_graphics_version", ""))
        except Exception as e:
            info["error"] = str(e)
        out.append(info)
finally:
    amdsmi.amdsmi_shut_down()
print(json.dumps(out))
"""

# NVML through nvidia-ml-py, in a subprocess (NVML init can block on a wedged driver).
NVML_SCRIPT = r"""
import json
import pynvml
pynvml.nvmlInit()
try:
    def s(v):
        return v.decode() if isinstance(v, bytes) else str(v)
    out = {"driver": s(pynvml.nvmlSystemGetDriverVersion())}
    cuda = pynvml.nvmlSystemGetCudaDriverVersion()
    out["cuda"] = "%d.%d" % (cuda // 1000, (cuda % 1000) // 10)
    gpus = []
    for i in range(pynvml.nvmlDeviceGetCount()):
        h = pynvml.nvmlDeviceGetHandleByIndex(i)
        major, minor = pynvml.nvmlDeviceGetCudaComputeCapability(h)
        gpus.append({"name": s(pynvml.nvmlDeviceGetName(h)), "compute_capability": "%d.%d" % (major, minor)})
    out["gpus"] = gpus
finally:
    pynvml.nvmlShutdown()
print(json.dumps(out))
"""


@dataclass(frozen=True)
class CommandResult:
    """Outcome of a command: rc None when it did not finish (missing, timed out)."""

    rc: int | None
    stdout: str = ""
    stderr: str = ""
    timed_out: bool = False
    missing: bool = False

    @property
    def ok(self) -> bool:
        return self.rc == 0 and not self.timed_out and not self.missing

    @classmethod
    def from_dict(cls, d: dict) -> CommandResult:
        return cls(
            rc=d.get("rc"),
            stdout=str(d.get("stdout", "")),
            stderr=str(d.get("stderr", "")),
            timed_out=bool(d.get("timed_out", False)),
            missing=bool(d.get("missing", False)),
        )


@dataclass(frozen=True)
class NodeAccess:
    """A device node as the current user sees it."""

    readable: bool
    writable: bool
    group: str | None  # owning group name


class Probe(Protocol):
    def env(self) -> dict[str, str]: ...

    def user_name(self) -> str: ...

    def groups(self) -> list[str]: ...

    def node_access(self, logical_path: str, real_path: Path) -> NodeAccess: ...

    def run(self, name: str, argv: list[str], timeout_s: float = COMMAND_TIMEOUT_S) -> CommandResult: ...

    def python(self, name: str, timeout_s: float) -> CommandResult: ...

    def package_version(self, dist: str) -> str | None: ...

    def python_version(self) -> str: ...

    def which(self, name: str) -> str | None: ...

    def package_installer(self, dist: str) -> str | None: ...


def _cap(text: str) -> str:
    return text if len(text) <= OUTPUT_CAP else text[-OUTPUT_CAP:]


class SystemProbe:
    """The real host. `python_argv` replaces the interpreter used for the subprocess checks (tests use it)."""

    SCRIPTS = {"tensorflow": TF_SCRIPT, "amdsmi": AMDSMI_SCRIPT, "nvml": NVML_SCRIPT}

    def __init__(self, python_argv: list[str] | None = None) -> None:
        self.python_argv = python_argv or [sys.executable]

    def env(self) -> dict[str, str]:
        return dict(os.environ)

    def user_name(self) -> str:
        try:
            import pwd

            return pwd.getpwuid(os.getuid()).pw_name
        except (KeyError, ImportError):
            return str(os.getuid())

    def groups(self) -> list[str]:
        names = []
        for gid in sorted(set(os.getgroups()) | {os.getgid()}):
            try:
                names.append(grp.getgrgid(gid).gr_name)
            except KeyError:
                names.append(str(gid))
        return names

    def node_access(self, logical_path: str, real_path: Path) -> NodeAccess:
        path = real_path
        try:
            gid = path.stat().st_gid
            try:
                group = grp.getgrgid(gid).gr_name
            except KeyError:
                group = str(gid)
        except OSError:
            group = None
        return NodeAccess(os.access(path, os.R_OK), os.access(path, os.W_OK), group)

    def run(self, name: str, argv: list[str], timeout_s: float = COMMAND_TIMEOUT_S) -> CommandResult:
        exe = argv[0] if os.path.isabs(argv[0]) else shutil.which(argv[0])
        if not exe or not os.path.exists(exe):
            return CommandResult(rc=None, missing=True)
        return _run([exe, *argv[1:]], timeout_s)

    def python(self, name: str, timeout_s: float) -> CommandResult:
        script = self.SCRIPTS[name]
        return _run([*self.python_argv, "-c", script], timeout_s)

    def package_version(self, dist: str) -> str | None:
        from importlib import metadata

        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return None

    def python_version(self) -> str:
        return ".".join(str(p) for p in sys.version_info[:3])

    def which(self, name: str) -> str | None:
        return shutil.which(name)

    def package_installer(self, dist: str) -> str | None:
        """Who installed a distribution: its INSTALLER file (pip, uv, conda), per the packaging spec
        (https://packaging.python.org/en/latest/specifications/recording-installed-packages/)."""
        from importlib import metadata

        try:
            text = metadata.distribution(dist).read_text("INSTALLER")
        except metadata.PackageNotFoundError:
            return None
        return (text or "").strip().lower() or None


def _run(argv: list[str], timeout_s: float) -> CommandResult:
    env = dict(os.environ)
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    try:
        proc = subprocess.run(
            argv, capture_output=True, text=True, errors="replace", timeout=timeout_s, env=env, stdin=subprocess.DEVNULL
        )
    except subprocess.TimeoutExpired as exc:
        def text(v):
            return v.decode("utf-8", "replace") if isinstance(v, bytes) else (v or "")

        return CommandResult(rc=None, stdout=_cap(text(exc.stdout)), stderr=_cap(text(exc.stderr)), timed_out=True)
    except OSError as exc:
        return CommandResult(rc=None, stderr=str(exc), missing=True)
    return CommandResult(rc=proc.returncode, stdout=_cap(proc.stdout), stderr=_cap(proc.stderr))


class FakeProbe:
    """Answers from a dict, usually a fixture's probe.json:

    {"env": {...}, "user": "alice", "groups": ["render"], "nodes": {"/dev/kfd": {"r": true, "w": false,
     "group": "render"}}, "commands": {"rocminfo": {"rc": 0, "stdout": "..."}},
     "python": {"tensorflow": {"rc": 0, "stdout": "..."}, "amdsmi": {...}, "nvml": {...}},
     "packages": {"numpy": "1.26.4"}, "python_version": "3.10.12",
     "tools": {"podman": "/usr/bin/podman"}, "installers": {"tensorflow": "conda"}}

    A package's installer defaults to pip; a tool not listed is not on PATH.

    A command or python check not listed is missing (as on a host without it).
    """

    def __init__(self, data: dict) -> None:
        self.data = data

    @classmethod
    def from_file(cls, path: str | Path) -> FakeProbe:
        with open(path, encoding="utf-8") as fh:
            return cls(json.load(fh))

    def env(self) -> dict[str, str]:
        return {k: str(v) for k, v in self.data.get("env", {}).items()}

    def user_name(self) -> str:
        return str(self.data.get("user", "user"))

    def groups(self) -> list[str]:
        return list(self.data.get("groups", []))

    def node_access(self, logical_path: str, real_path: Path) -> NodeAccess:
        nodes = self.data.get("nodes", {})
        spec = nodes.get(logical_path, nodes.get("*", {"r": True, "w": True, "group": "render"}))
        return NodeAccess(bool(spec.get("r", True)), bool(spec.get("w", True)), spec.get("group"))

    def run(self, name: str, argv: list[str], timeout_s: float = COMMAND_TIMEOUT_S) -> CommandResult:
        spec = self.data.get("commands", {}).get(name)
        return CommandResult.from_dict(spec) if spec is not None else CommandResult(rc=None, missing=True)

    def python(self, name: str, timeout_s: float) -> CommandResult:
        spec = self.data.get("python", {}).get(name)
        if spec is not None:
            return CommandResult.from_dict(spec)
        error = f"ModuleNotFoundError: No module named '{name}'"
        if name == "tensorflow":  # what TF_SCRIPT prints when TensorFlow is not installed
            return CommandResult(rc=3, stdout=TF_MARKER + json.dumps({"import_error": error}))
        return CommandResult(rc=1, stderr=error)

    def package_version(self, dist: str) -> str | None:
        return self.data.get("packages", {}).get(dist)

    def python_version(self) -> str:
        return str(self.data.get("python_version", "3.11.7"))

    def which(self, name: str) -> str | None:
        tools = self.data.get("tools", {})
        return tools.get(name)

    def package_installer(self, dist: str) -> str | None:
        if not self.package_version(dist):
            return None
        return self.data.get("installers", {}).get(dist, "pip")
