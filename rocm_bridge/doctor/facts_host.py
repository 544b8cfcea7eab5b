"""Facts about the machine around the GPU: the PCI bus, the device nodes, WSL2, containers and the distribution.

pci_gpus() lists AMD and NVIDIA display controllers and accelerators on the PCI bus; host_facts() reads /dev/kfd,
/dev/dxg and /dev/dri/renderD* with this user's access and their owning groups, tells WSL2 (/proc/version,
WSL_DISTRO_NAME) and containers (Docker, Podman rootless or not, Apptainer) apart, finds the tools on PATH the fixes
may use, the seccomp mode and /dev/shm size a container runs with, and the distribution from /etc/os-release.
"""

from __future__ import annotations

import re
from pathlib import Path

from rocm_bridge.doctor.facts_model import Facts, read_text
from rocm_bridge.doctor.probes import Probe

PCI_VENDORS = {"0x1002": "amd", "0x10de": "nvidia"}


def pci_gpus(root: Path) -> list[dict]:
    """Display controllers (class 0x03) and processing accelerators (0x12) of AMD or NVIDIA on the PCI bus."""
    out = []
    devices = root / "sys/bus/pci/devices"
    if not devices.is_dir():
        return out
    for dev in sorted(devices.iterdir()):
        vendor = (read_text(dev, "vendor") or "").lower()
        klass = (read_text(dev, "class") or "").lower()
        if vendor in PCI_VENDORS and klass[:4] in ("0x03", "0x12"):
            out.append({"slot": dev.name, "vendor": PCI_VENDORS[vendor], "device": read_text(dev, "device") or ""})
    return out


def host_facts(facts: Facts, root: Path, env: dict[str, str], probe: Probe) -> None:
    """Device nodes, WSL2, the container, init, tools on PATH, seccomp and /dev/shm, the distribution."""
    # device nodes with this user's access: /dev/kfd, /dev/dxg (WSL2), /dev/dri/renderD*
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
    dri = root / "dev/dri"
    if dri.is_dir():
        for node in sorted(dri.glob("renderD*")):
            access = probe.node_access(f"/dev/dri/{node.name}", node)
            facts.render_nodes[f"/dev/dri/{node.name}"] = {"r": access.readable, "w": access.writable,
                                                          "group": access.group}

    # WSL2 and containers
    proc_version = read_text(root, "/proc/version") or ""
    if re.search(r"microsoft|WSL", proc_version, re.I):
        facts.wsl, facts.wsl_evidence = True, "/proc/version: " + proc_version.splitlines()[0][:120]
    elif env.get("WSL_DISTRO_NAME"):
        facts.wsl, facts.wsl_evidence = True, f"WSL_DISTRO_NAME={env['WSL_DISTRO_NAME']}"
    if (root / ".dockerenv").exists():
        facts.container = "docker"
    elif (root / "run/.containerenv").exists():
        facts.container = "podman"
        info = read_text(root, "/run/.containerenv") or ""
        facts.container_rootless = bool(re.search(r"^rootless=1", info, re.M))
        m = re.search(r'^engine="?([^"\n]+)', info, re.M)
        facts.container_engine = m.group(1) if m else ""
    elif env.get("APPTAINER_CONTAINER") or env.get("SINGULARITY_CONTAINER") or (root / ".singularity.d").is_dir():
        facts.container = "apptainer"

    # init system, tools the fixes may use, the sandbox a container runs in
    facts.init = "systemd" if (root / "run/systemd/system").is_dir() else ""
    for tool in ("docker", "podman", "apptainer", "singularity", "uv", "conda", "mamba", "mokutil"):
        path = probe.which(tool)
        if path:
            facts.tools[tool] = path
    status = read_text(root, "/proc/self/status") or ""
    m = re.search(r"^Seccomp:\s*(\d+)", status, re.M)
    facts.seccomp_mode = int(m.group(1)) if m else None
    for line in (read_text(root, "/proc/mounts") or "").splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[1] == "/dev/shm":
            m = re.search(r"size=(\d+)([kmg]?)", parts[3])
            if m:
                facts.shm_bytes = int(m.group(1)) * {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}[m.group(2)]

    # the distribution (its package manager is derived from ID / ID_LIKE)
    osr = read_text(root, "/etc/os-release") or ""
    m = re.search(r'^PRETTY_NAME="?([^"\n]+)', osr, re.M) or re.search(r'^NAME="?([^"\n]+)', osr, re.M)
    m_id = re.search(r'^ID="?([^"\n]+)', osr, re.M)
    facts.os_id = m_id.group(1).strip().lower() if m_id else ""
    m_like = re.search(r'^ID_LIKE="?([^"\n]+)', osr, re.M)
    facts.os_like = m_like.group(1).lower().split() if m_like else []
    if m:
        vid = re.search(r'^VERSION_ID="?([^"\n]+)', osr, re.M)
        facts.os_release = m.group(1) + (f" {vid.group(1)}" if vid and vid.group(1) not in m.group(1) else "")
