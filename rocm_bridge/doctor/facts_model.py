"""What the doctor knows about a machine: the Facts record and its parts (Gpu, TensorFlowProbe).

Facts holds everything the checklist judges, grouped by what it describes (AMD stack, WSL2 and containers, kernel
module and Secure Boot, NVIDIA, the Python side), each field with where it came from (a path, a command, a
variable) so the report can show its evidence; a few properties derive the platform, the GPU count, the installed
TensorFlow and the package manager. The collectors that fill it live in the facts_* modules and
rocm_bridge.doctor.facts.collect() runs them; read_text() is how every collector reads a file under the root.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

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
    rocm_libs: dict = field(default_factory=dict)  # libX.so.N found in a ROCm prefix's lib / lib64 -> that directory
    ld_dirs: list[str] = field(default_factory=list)  # directories in /etc/ld.so.conf and /etc/ld.so.conf.d/*.conf
    distro_rocm_pkgs: dict = field(default_factory=dict)  # ROCm components the distribution packaged (dpkg), name -> version
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


def read_text(root: Path, rel: str) -> str | None:
    """A file under the root (a recorded system's tree, or "/"), stripped; None when it cannot be read."""
    path = root / rel.lstrip("/")
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except (OSError, ValueError):
        return None
