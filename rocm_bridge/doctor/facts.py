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
    "CONDA_PREFIX",
    "CONDA_DEFAULT_ENV",
    "VIRTUAL_ENV",
    "APPTAINER_CONTAINER",
    "SINGULARITY_CONTAINER",
)
TF_DISTS: tuple[str, ...] = ("tensorflow-rocm", "tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tf-nightly")
# pip packages `tensorflow[and-cuda]` pulls in (TensorFlow's pip.md): cuDNN and the CUDA runtime from PyPI
CUDA_LIB_DISTS: tuple[str, ...] = ("nvidia-cudnn-cu12", "nvidia-cuda-runtime-cu12", "nvidia-cudnn-cu11",
                                   "nvidia-cuda-runtime-cu11")
# EFI variable SecureBoot-<EFI global variable GUID>: 4 attribute bytes, then 1 = on (UEFI spec, "Globally Defined Variables")
SECURE_BOOT_VAR = "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"
# public keys DKMS / akmods sign modules with (Ubuntu and DKMS 3: /var/lib/dkms/mok.pub; Debian shim-signed; Fedora akmods)
MOK_KEYS: tuple[str, ...] = ("/var/lib/dkms/mok.pub", "/var/lib/shim-signed/mok/MOK.der",
                             "/etc/pki/akmods/certs/public_key.der")
# kernel messages that say a module was refused or loaded unsigned (kernel module signing docs, kernel_lockdown.7)
MODULE_MSG = re.compile(r"module verification failed|Lockdown: .*unsigned module|Key was rejected by service|"
                        r"Loading of unsigned module is rejected|module .* signature|amdgpu.*(?:error|fail)", re.I)
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
    os_id: str = ""  # /etc/os-release ID (ubuntu, fedora, rhel, sles, ...)
    os_like: list[str] = field(default_factory=list)  # ID_LIKE
    init: str = ""  # "systemd" when /run/systemd/system exists
    container_rootless: bool = False  # /run/.containerenv rootless=1 (Podman)
    container_engine: str = ""  # /run/.containerenv engine= ("podman-4.9.3")
    container_keep_groups: bool = False  # only set by a fix: podman --group-add keep-groups passes host groups
    tools: dict = field(default_factory=dict)  # docker / podman / apptainer / uv / conda / mokutil found on PATH
    # kernel module and Secure Boot
    kernel_release: str = ""  # /proc/sys/kernel/osrelease
    amdgpu_on_disk: str = ""  # an amdgpu.ko* under /lib/modules/<release>/ (DKMS: updates/dkms)
    secure_boot: bool | None = None  # from the EFI variable, else mokutil --sb-state; None: unknown / not UEFI
    secure_boot_source: str = ""
    lockdown: str = ""  # /sys/kernel/security/lockdown active mode: none | integrity | confidentiality
    mok_key: str = ""  # the module-signing public key found (DKMS / shim-signed / akmods)
    mok_enrolled: bool | None = None  # mokutil --test-key <mok_key>
    module_messages: list[str] = field(default_factory=list)  # dmesg lines about module signatures / amdgpu
    dkms_status: str = ""
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
    installers: dict[str, str] = field(default_factory=dict)  # distribution -> pip | uv | conda (INSTALLER file)
    system_cudnn: bool = False  # libcudnn in the linker cache (ldconfig -p): CUDA libraries outside pip
    stale: list[str] = field(default_factory=list)  # facts a fix changed that only a new probe can tell ("gpus")
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

    @property
    def pkg_manager(self) -> str:
        """The distribution's package manager from /etc/os-release: apt | dnf | yum | zypper | '' (unknown)."""
        ids = [self.os_id, *self.os_like]
        if any(i in ("ubuntu", "debian") for i in ids):
            return "apt"
        if any(i in ("sles", "suse", "opensuse", "opensuse-leap", "opensuse-tumbleweed") for i in ids):
            return "zypper"
        if any(i in ("rhel", "fedora", "centos", "rocky", "almalinux", "ol") for i in ids):
            old = self.os_id in ("centos", "rhel") and re.search(r"\b7(\.\d+)?$", self.os_release or "")
            return "yum" if old else "dnf"
        return ""

    @property
    def conda_env(self) -> str:
        return self.env.get("CONDA_DEFAULT_ENV", "") or (self.env.get("CONDA_PREFIX", "").rstrip("/").rsplit("/", 1)[-1])

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
        info = _read(root, "/run/.containerenv") or ""
        facts.container_rootless = bool(re.search(r"^rootless=1", info, re.M))
        m = re.search(r'^engine="?([^"\n]+)', info, re.M)
        facts.container_engine = m.group(1) if m else ""
    elif env.get("APPTAINER_CONTAINER") or env.get("SINGULARITY_CONTAINER") or (root / ".singularity.d").is_dir():
        facts.container = "apptainer"
    facts.init = "systemd" if (root / "run/systemd/system").is_dir() else ""
    for tool in ("docker", "podman", "apptainer", "singularity", "uv", "conda", "mamba", "mokutil"):
        path = probe.which(tool)
        if path:
            facts.tools[tool] = path
    _kernel_module_facts(facts, root, probe)
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
    m_id = re.search(r'^ID="?([^"\n]+)', osr, re.M)
    facts.os_id = m_id.group(1).strip().lower() if m_id else ""
    m_like = re.search(r'^ID_LIKE="?([^"\n]+)', osr, re.M)
    facts.os_like = m_like.group(1).lower().split() if m_like else []
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
    for dist in (*TF_DISTS, "numpy", "keras", "tf-keras", *CUDA_LIB_DISTS):
        facts.packages[dist] = probe.package_version(dist)
        installer = probe.package_installer(dist) if facts.packages[dist] else None
        if installer:
            facts.installers[dist] = installer
    if facts.platform == "nvidia":
        ld = probe.run("ldconfig", ["ldconfig", "-p"])
        facts.system_cudnn = ld.ok and "libcudnn.so" in ld.stdout
    if tensorflow:
        facts.tensorflow = parse_tf_result(probe.python("tensorflow", tf_timeout_s))
    return facts


def _kernel_module_facts(facts: Facts, root: Path, probe: Probe) -> None:
    """What tells "module not built" from "module built but refused": the module on disk, Secure Boot, lockdown,
    the MOK key and what the kernel said."""
    facts.kernel_release = (_read(root, "/proc/sys/kernel/osrelease") or "").strip()
    if facts.kernel_release:
        mods = root / "lib/modules" / facts.kernel_release
        if mods.is_dir():
            found = sorted(str(p.relative_to(root)) for p in mods.rglob("amdgpu.ko*"))
            dkms = [p for p in found if "/updates/" in p or "/extra/" in p]
            facts.amdgpu_on_disk = "/" + (dkms or found)[0] if found else ""
    raw = None
    with contextlib.suppress(OSError):
        raw = (root / SECURE_BOOT_VAR.lstrip("/")).read_bytes()
    if raw is not None and len(raw) >= 5:
        facts.secure_boot, facts.secure_boot_source = raw[4] == 1, SECURE_BOOT_VAR
    sb = probe.run("mokutil-sb", ["mokutil", "--sb-state"])
    if facts.secure_boot is None and sb.ok:
        text = sb.stdout.lower()
        if "secureboot enabled" in text or "secureboot disabled" in text:
            facts.secure_boot, facts.secure_boot_source = "secureboot enabled" in text, "mokutil --sb-state"
    lock = _read(root, "/sys/kernel/security/lockdown") or ""
    m = re.search(r"\[(\w+)\]", lock)
    facts.lockdown = m.group(1) if m else ""
    facts.mok_key = next((k for k in MOK_KEYS if (root / k.lstrip("/")).is_file()), "")
    if facts.mok_key:
        test = probe.run("mokutil-test-key", ["mokutil", "--test-key", facts.mok_key])
        out = (test.stdout + test.stderr).lower()
        if "is already enrolled" in out:
            facts.mok_enrolled = True
        elif "is not enrolled" in out:
            facts.mok_enrolled = False
    dmesg = probe.run("dmesg", ["dmesg"])
    if dmesg.ok:
        facts.module_messages = [line.strip() for line in dmesg.stdout.splitlines() if MODULE_MSG.search(line)][-20:]
    dkms = probe.run("dkms", ["dkms", "status"])
    if dkms.ok:
        facts.dkms_status = "\n".join(x for x in dkms.stdout.strip().splitlines() if "amdgpu" in x)[:500]


def _amd_hint(facts: Facts, root: Path) -> bool:
    """Worth asking amdsmi/rocminfo: a driver, a KFD node or a ROCm install is present."""
    return (facts.amdgpu_loaded or facts.kfd_exists or facts.dxg_exists or bool(facts.rocm_version)
            or (root / "sys/class/kfd").exists())
