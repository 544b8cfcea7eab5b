"""Collect the facts the checklist needs: files under a root directory, the rest through a Probe.

Every fact keeps where it came from (a path, a command, a variable) so the report can show its evidence.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from rocm_bridge.doctor.probes import TF_MARKER, TF_TIMEOUT_S, CommandResult, Probe, SystemProbe

ENV_VARS: tuple[str, ...] = (
    "ROCM_PATH",
    "HIP_VISIBLE_DEVICES",
    "ROCR_VISIBLE_DEVICES",
    "CUDA_VISIBLE_DEVICES",
    "GPU_DEVICE_ORDINAL",
    "HSA_OVERRIDE_GFX_VERSION",
    "LD_LIBRARY_PATH",
    "HSA_ENABLE_DXG_DETECTION",
    "WSL_DISTRO_NAME",
)
TF_DISTS: tuple[str, ...] = ("tensorflow-rocm", "tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tf-nightly")
AMD_VENDOR_ID = 4098  # 0x1002 in KFD topology properties


@dataclass
class Gpu:
    name: str
    gfx: str  # "gfx90a"; NVIDIA: ""
    source: str  # "amdsmi" | "rocminfo" | "kfd:<node path>" | "nvml" | "nvidia-smi"
    compute_capability: str = ""
    uuid: str = ""  # ROCr's "GPU-<16 hex of the KFD unique_id>" ("GPU-XX" when the GPU has none); "" unknown


@dataclass
class TensorFlowProbe:
    status: str = "not_run"  # not_run | ok | missing | import_error | crash | timeout
    version: str = ""
    built_with_rocm: bool | None = None
    built_with_cuda: bool | None = None
    build_info: dict = field(default_factory=dict)
    gpus: list[str] = field(default_factory=list)
    matmul_device: str = ""
    matmul_ok: bool | None = None
    error: str = ""
    stderr_tail: str = ""
    rc: int | None = None


@dataclass
class Facts:
    root: str
    user: str = ""
    groups: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    # AMD
    rocm_version: str = ""
    rocm_version_file: str = ""
    rocm_dirs: list[str] = field(default_factory=list)
    amdgpu_loaded: bool = False
    amdgpu_version: str = ""
    kfd_exists: bool = False
    kfd_access: dict = field(default_factory=dict)  # {"r":, "w":, "group":}
    render_nodes: dict = field(default_factory=dict)  # "/dev/dri/renderD128" -> {"r":, "w":, "group":}
    amd_gpus: list[Gpu] = field(default_factory=list)
    gpu_source_notes: list[str] = field(default_factory=list)
    kfd_gpus: list[Gpu] = field(default_factory=list)  # true targets from sysfs (HSA_OVERRIDE_GFX_VERSION cannot change them)
    gpu_uuids: list[str] = field(default_factory=list)  # rocminfo Uuid lines of GPU agents, in order
    rocm_layout: str = ""  # "legacy" (/opt/rocm-<ver>) | "core_sdk" (/opt/rocm/core-<ver>, amdrocm-* packages)
    # WSL2 and containers
    wsl: bool = False
    wsl_evidence: str = ""
    dxg_exists: bool = False
    dxg_access: dict = field(default_factory=dict)
    container: str = ""  # "docker" | "podman" | "" ; from /.dockerenv, /run/.containerenv
    seccomp_mode: int | None = None  # /proc/self/status Seccomp: 0 none, 2 filter (Docker's default profile)
    shm_bytes: int | None = None  # size of /dev/shm from /proc/mounts
    os_release: str = ""
    pci_gpus: list[dict] = field(default_factory=list)  # {"slot", "vendor": "amd"|"nvidia", "device"}
    # NVIDIA
    nvidia_driver: str = ""
    nvidia_driver_source: str = ""
    nvidia_cuda: str = ""  # highest CUDA version the driver supports (NVML / nvidia-smi)
    cuda_toolkit: str = ""
    nvidia_gpus: list[Gpu] = field(default_factory=list)
    # Python side
    python: str = ""
    packages: dict[str, str | None] = field(default_factory=dict)
    tensorflow: TensorFlowProbe = field(default_factory=TensorFlowProbe)

    @property
    def platform(self) -> str:
        """'amd', 'nvidia' or 'none', from what the kernel side shows (driver, device nodes, GPUs)."""
        pci = {g["vendor"] for g in self.pci_gpus}
        if self.amdgpu_loaded or self.kfd_exists or self.amd_gpus or "amd" in pci or (self.wsl and self.dxg_exists
                                                                                      and self.rocm_version):
            return "amd"
        if self.nvidia_driver or self.nvidia_gpus or "nvidia" in pci:
            return "nvidia"
        if self.rocm_version or self.packages.get("tensorflow-rocm"):
            return "amd"  # ROCm installed but no GPU or driver seen: diagnose as an AMD host
        return "none"

    @property
    def gpu_count(self) -> int:
        """GPUs on the machine: the KFD topology (all of them, whatever the visibility variables say), else what the
        runtime or the NVIDIA driver listed."""
        return len(self.kfd_gpus) or len(self.amd_gpus) or len(self.nvidia_gpus)

    @property
    def tf_dist(self) -> tuple[str, str] | None:
        """(distribution name, version) of the installed TensorFlow package, ROCm wheel first."""
        for dist in TF_DISTS:
            if self.packages.get(dist):
                return dist, self.packages[dist]
        return None

    def as_dict(self) -> dict:
        out = asdict(self)
        out["platform"] = self.platform
        return out


def _read(root: Path, rel: str) -> str | None:
    path = root / rel.lstrip("/")
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except (OSError, ValueError):
        return None


def gfx_from_target_version(value: int) -> str:
    """KFD topology's gfx_target_version (major*10000 + minor*100 + stepping) as a gfx name.

    >>> gfx_from_target_version(90010), gfx_from_target_version(100302), gfx_from_target_version(90402)
    ('gfx90a', 'gfx1032', 'gfx942')
    """
    major, minor, step = value // 10000, (value // 100) % 100, value % 100
    return f"gfx{major}{minor:x}{step:x}"


def gfx_from_override(value: str) -> str | None:
    """HSA_OVERRIDE_GFX_VERSION ('10.3.0') as the gfx name the runtime will assume ('gfx1030')."""
    m = re.fullmatch(r"\s*(\d+)\.(\d+)\.(\d+)\s*", value or "")
    if not m:
        return None
    major, minor, step = (int(x) for x in m.groups())
    return f"gfx{major}{minor:x}{step:x}"


def parse_rocminfo(text: str) -> list[Gpu]:
    """GPU agents from rocminfo output (Name: gfxNNN, Marketing Name, Device Type: GPU)."""
    gpus = []
    for block in re.split(r"\n\*{5,}\s*\n\s*Agent \d+\s*\n\*{5,}", "\n" + text):
        if not re.search(r"Device Type:\s*GPU", block):
            continue
        name = re.search(r"^\s*Name:\s*(\S+)", block, re.M)
        market = re.search(r"Marketing Name:\s*(.+)", block)
        gfx = name.group(1) if name else ""
        gpus.append(Gpu(name=(market.group(1).strip() if market else gfx), gfx=gfx, source="rocminfo"))
    return gpus


def rocminfo_uuids(text: str) -> list[str]:
    """Uuid values of the GPU agents in rocminfo output, in agent order ('GPU-XX' when the GPU has none)."""
    out = []
    for block in re.split(r"\n\*{5,}\s*\n\s*Agent \d+\s*\n\*{5,}", "\n" + text):
        if re.search(r"Device Type:\s*GPU", block):
            m = re.search(r"^\s*Uuid:\s*(\S+)", block, re.M)
            out.append(m.group(1) if m else "GPU-XX")
    return out


def kfd_topology(root: Path) -> list[Gpu]:
    """GPU nodes of the KFD topology in sysfs (CPU nodes have gfx_target_version 0)."""
    gpus = []
    nodes = root / "sys/class/kfd/kfd/topology/nodes"
    if not nodes.is_dir():
        return gpus
    for node in sorted(nodes.iterdir(), key=lambda p: (len(p.name), p.name)):
        props: dict[str, int] = {}
        text = _read(node, "properties") or ""
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[1].lstrip("-").isdigit():
                props[parts[0]] = int(parts[1])
        target = props.get("gfx_target_version", 0)
        if not target or props.get("simd_count", 1) == 0:
            continue
        if props.get("vendor_id", AMD_VENDOR_ID) != AMD_VENDOR_ID:
            continue
        name = _read(node, "name") or ""
        gfx = gfx_from_target_version(target)
        uid = props.get("unique_id")
        uuid = "" if uid is None else (f"GPU-{uid:016x}" if uid else "GPU-XX")  # as ROCr builds HSA_AMD_AGENT_INFO_UUID
        gpus.append(Gpu(name=name or gfx, gfx=gfx, source=f"kfd:/sys/class/kfd/kfd/topology/nodes/{node.name}/properties",
                        uuid=uuid))
    return gpus


PCI_VENDORS = {"0x1002": "amd", "0x10de": "nvidia"}


def pci_gpus(root: Path) -> list[dict]:
    """Display controllers (class 0x03) and processing accelerators (0x12) of AMD or NVIDIA on the PCI bus."""
    out = []
    devices = root / "sys/bus/pci/devices"
    if not devices.is_dir():
        return out
    for dev in sorted(devices.iterdir()):
        vendor = (_read(dev, "vendor") or "").lower()
        klass = (_read(dev, "class") or "").lower()
        if vendor in PCI_VENDORS and klass[:4] in ("0x03", "0x12"):
            out.append({"slot": dev.name, "vendor": PCI_VENDORS[vendor], "device": _read(dev, "device") or ""})
    return out


def parse_tf_result(result: CommandResult) -> TensorFlowProbe:
    """Turn the TensorFlow subprocess outcome into facts: ok, missing, import_error, crash or timeout."""
    tf = TensorFlowProbe(rc=result.rc, stderr_tail=result.stderr[-4000:])
    if result.timed_out:
        tf.status = "timeout"
        return tf
    payload = None
    for line in result.stdout.splitlines():
        if line.startswith(TF_MARKER):
            try:
                payload = json.loads(line[len(TF_MARKER):])
            except json.JSONDecodeError:
                payload = None
    if payload is None:
        # No report line: the interpreter died (segfault, abort, OOM kill) before printing it.
        tf.status = "crash"
        tf.error = (result.stderr.strip().splitlines() or [f"exit code {result.rc}"])[-1][:500]
        return tf
    if "import_error" in payload:
        error = str(payload["import_error"])
        tf.status = "missing" if "No module named 'tensorflow'" in error else "import_error"
        tf.error = error[:2000]
        return tf
    tf.status = "ok"
    tf.version = str(payload.get("version", ""))
    tf.built_with_rocm = payload.get("built_with_rocm")
    tf.built_with_cuda = payload.get("built_with_cuda")
    tf.build_info = dict(payload.get("build_info") or {})
    tf.gpus = list(payload.get("gpus") or [])
    tf.matmul_device = str(payload.get("matmul_device", ""))
    tf.matmul_ok = payload.get("matmul_ok")
    tf.error = str(payload.get("gpu_error", ""))
    return tf


def collect(root: str | Path = "/", probe: Probe | None = None, *, tensorflow: bool = True,
            tf_timeout_s: float = TF_TIMEOUT_S) -> Facts:
    """Gather every fact. tensorflow=False skips the (slow) TensorFlow subprocess."""
    root = Path(root)
    probe = probe or SystemProbe()
    env = probe.env()
    facts = Facts(root=str(root), user=probe.user_name(), groups=probe.groups(),
                  env={k: env[k] for k in ENV_VARS if k in env})

    facts.pci_gpus = pci_gpus(root)

    # ROCm user space: ROCM_PATH first, then /opt/rocm, then versioned prefixes.
    candidates = []
    if env.get("ROCM_PATH"):
        candidates.append(env["ROCM_PATH"].rstrip("/"))
    candidates.append("/opt/rocm")
    opt = root / "opt"
    if opt.is_dir():
        facts.rocm_dirs = sorted(p.name for p in opt.iterdir() if p.name.startswith("rocm"))
        candidates += [f"/opt/{name}" for name in sorted(facts.rocm_dirs, reverse=True)]
    core = root / "opt/rocm"
    if core.is_dir():  # ROCm Core SDK (TheRock): /opt/rocm/core-<major.minor> (7.13 preview: /opt/rocm/core)
        cores = sorted((p.name for p in core.iterdir() if re.fullmatch(r"core(-\d+(\.\d+)*)?", p.name)), reverse=True)
        facts.rocm_dirs += [f"rocm/{name}" for name in cores]
        candidates += [f"/opt/rocm/{name}" for name in cores]
    for prefix in candidates:
        text = _read(root, f"{prefix}/.info/version")
        if text:
            facts.rocm_version = text.splitlines()[0].strip()
            facts.rocm_version_file = f"{prefix}/.info/version"
            facts.rocm_layout = "core_sdk" if re.search(r"/opt/rocm/core(-[\d.]+)?$", prefix) else "legacy"
            break
    else:  # a Core SDK tree without a version file: its directory name carries major.minor (core-10.0)
        for prefix in candidates:
            m = re.search(r"/opt/rocm/core-(\d+\.\d+(?:\.\d+)?)$", prefix)
            if m and (root / prefix.lstrip("/") / "bin").is_dir():
                facts.rocm_version, facts.rocm_version_file = m.group(1), f"{prefix}/.info/version (absent: directory name)"
                facts.rocm_layout = "core_sdk"
                break

    # amdgpu kernel driver: the module directory exists when loaded; DKMS builds carry a version file.
    facts.amdgpu_loaded = (root / "sys/module/amdgpu").is_dir()
    facts.amdgpu_version = (_read(root, "/sys/module/amdgpu/version") or "").strip()

    kfd = root / "dev/kfd"
    facts.kfd_exists = kfd.exists()
    if facts.kfd_exists:
        access = probe.node_access("/dev/kfd", kfd)
        facts.kfd_access = {"r": access.readable, "w": access.writable, "group": access.group}
    dxg = root / "dev/dxg"
    facts.dxg_exists = dxg.exists()
    if facts.dxg_exists:
        access = probe.node_access("/dev/dxg", dxg)
        facts.dxg_access = {"r": access.readable, "w": access.writable, "group": access.group}
    proc_version = _read(root, "/proc/version") or ""
    if re.search(r"microsoft|WSL", proc_version, re.I):
        facts.wsl, facts.wsl_evidence = True, "/proc/version: " + proc_version.splitlines()[0][:120]
    elif env.get("WSL_DISTRO_NAME"):
        facts.wsl, facts.wsl_evidence = True, f"WSL_DISTRO_NAME={env['WSL_DISTRO_NAME']}"
    if (root / ".dockerenv").exists():
        facts.container = "docker"
    elif (root / "run/.containerenv").exists():
        facts.container = "podman"
    status = _read(root, "/proc/self/status") or ""
    m = re.search(r"^Seccomp:\s*(\d+)", status, re.M)
    facts.seccomp_mode = int(m.group(1)) if m else None
    for line in (_read(root, "/proc/mounts") or "").splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[1] == "/dev/shm":
            m = re.search(r"size=(\d+)([kmg]?)", parts[3])
            if m:
                facts.shm_bytes = int(m.group(1)) * {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}[m.group(2)]
    osr = _read(root, "/etc/os-release") or ""
    m = re.search(r'^PRETTY_NAME="?([^"\n]+)', osr, re.M) or re.search(r'^NAME="?([^"\n]+)', osr, re.M)
    if m:
        vid = re.search(r'^VERSION_ID="?([^"\n]+)', osr, re.M)
        facts.os_release = m.group(1) + (f" {vid.group(1)}" if vid and vid.group(1) not in m.group(1) else "")
    dri = root / "dev/dri"
    if dri.is_dir():
        for node in sorted(dri.glob("renderD*")):
            access = probe.node_access(f"/dev/dri/{node.name}", node)
            facts.render_nodes[f"/dev/dri/{node.name}"] = {"r": access.readable, "w": access.writable,
                                                          "group": access.group}

    # GPUs and gfx targets: amdsmi, else rocminfo, else the KFD topology in sysfs.
    if _amd_hint(facts, root):
        smi = probe.python("amdsmi", 20)
        if smi.ok:
            try:
                for item in json.loads(smi.stdout.strip().splitlines()[-1]):
                    if item.get("gfx"):
                        facts.amd_gpus.append(Gpu(name=item.get("name") or item["gfx"], gfx=item["gfx"], source="amdsmi"))
            except (json.JSONDecodeError, IndexError, AttributeError, TypeError):
                facts.gpu_source_notes.append("amdsmi: unreadable output")
        if not facts.amd_gpus:
            prefix = facts.rocm_version_file.split("/.info", 1)[0]
            rocminfo = f"{prefix}/bin/rocminfo" if facts.rocm_version_file else "rocminfo"
            result = probe.run("rocminfo", [rocminfo])
            if result.ok:
                facts.amd_gpus = parse_rocminfo(result.stdout)
                facts.gpu_uuids = rocminfo_uuids(result.stdout)
            elif not result.missing:
                facts.gpu_source_notes.append("rocminfo: " + (result.stderr or result.stdout).strip()[-300:])
    facts.kfd_gpus = kfd_topology(root)
    if _amd_hint(facts, root) and not facts.amd_gpus and not facts.wsl:
        facts.amd_gpus = list(facts.kfd_gpus)

    # NVIDIA: NVML, else nvidia-smi; the kernel module's version file.
    proc = _read(root, "/proc/driver/nvidia/version")
    if proc:
        m = re.search(r"Kernel Module\s+(?:for\s+\S+\s+)?(\d+\.\d+(?:\.\d+)?)", proc) or re.search(r"(\d{3}\.\d+(?:\.\d+)?)", proc)
        if m:
            facts.nvidia_driver, facts.nvidia_driver_source = m.group(1), "/proc/driver/nvidia/version"
    nvml = probe.python("nvml", 20)
    if nvml.ok:
        try:
            data = json.loads(nvml.stdout.strip().splitlines()[-1])
            facts.nvidia_driver = facts.nvidia_driver or data.get("driver", "")
            facts.nvidia_driver_source = facts.nvidia_driver_source or "NVML"
            facts.nvidia_cuda = data.get("cuda", "")
            facts.nvidia_gpus = [Gpu(name=g.get("name", ""), gfx="", source="nvml",
                                     compute_capability=g.get("compute_capability", "")) for g in data.get("gpus", [])]
        except (json.JSONDecodeError, IndexError, AttributeError):
            pass
    if not facts.nvidia_gpus and (facts.nvidia_driver or proc is not None):
        smi = probe.run("nvidia-smi", ["nvidia-smi", "--query-gpu=name,driver_version,compute_cap", "--format=csv,noheader"])
        if smi.ok:
            for line in smi.stdout.strip().splitlines():
                parts = [p.strip() for p in line.split(",")]
                if len(parts) >= 2:
                    facts.nvidia_gpus.append(Gpu(name=parts[0], gfx="", source="nvidia-smi",
                                                 compute_capability=parts[2] if len(parts) > 2 else ""))
                    facts.nvidia_driver = facts.nvidia_driver or parts[1]
                    facts.nvidia_driver_source = facts.nvidia_driver_source or "nvidia-smi"
    cuda_json = _read(root, "/usr/local/cuda/version.json")
    if cuda_json:
        with contextlib.suppress(json.JSONDecodeError, AttributeError):
            facts.cuda_toolkit = json.loads(cuda_json).get("cuda", {}).get("version", "")

    facts.python = probe.python_version()
    for dist in (*TF_DISTS, "numpy", "keras", "tf-keras"):
        facts.packages[dist] = probe.package_version(dist)
    if tensorflow:
        facts.tensorflow = parse_tf_result(probe.python("tensorflow", tf_timeout_s))
    return facts


def _amd_hint(facts: Facts, root: Path) -> bool:
    """Worth asking amdsmi/rocminfo: a driver, a KFD node or a ROCm install is present."""
    return (facts.amdgpu_loaded or facts.kfd_exists or facts.dxg_exists or bool(facts.rocm_version)
            or (root / "sys/class/kfd").exists())
