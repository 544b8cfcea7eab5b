"""Facts about the AMD stack: the ROCm install, the amdgpu driver, the GPUs and their true gfx targets.

rocm_facts() finds the installed ROCm (ROCM_PATH, /opt/rocm, versioned /opt/rocm-<ver> prefixes, the ROCm Core SDK's
/opt/rocm/core-<ver>) and whether amdgpu is loaded; amd_gpu_facts() asks amd-smi, else rocminfo, and reads the KFD
topology in sysfs, whose gfx_target_version HSA_OVERRIDE_GFX_VERSION cannot change. The parsers (rocminfo output,
KFD properties, gfx names from target versions and override values) are plain functions the tests call directly.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from rocm_bridge.doctor.facts_model import Facts, Gpu, read_text
from rocm_bridge.doctor.probes import Probe

AMD_VENDOR_ID = 4098  # 0x1002 in KFD topology properties


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
        text = read_text(node, "properties") or ""
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[1].lstrip("-").isascii() and parts[1].lstrip("-").isdigit():
                props[parts[0]] = int(parts[1])
        target = props.get("gfx_target_version", 0)
        if not target or props.get("simd_count", 1) == 0:
            continue
        if props.get("vendor_id", AMD_VENDOR_ID) != AMD_VENDOR_ID:
            continue
        name = read_text(node, "name") or ""
        gfx = gfx_from_target_version(target)
        uid = props.get("unique_id")
        uuid = "" if uid is None else (f"GPU-{uid:016x}" if uid else "GPU-XX")  # as ROCr builds HSA_AMD_AGENT_INFO_UUID
        gpus.append(Gpu(name=name or gfx, gfx=gfx, source=f"kfd:/sys/class/kfd/kfd/topology/nodes/{node.name}/properties",
                        uuid=uuid))
    return gpus


def rocm_facts(facts: Facts, root: Path, env: dict[str, str]) -> None:
    """The ROCm user space (version, its file, the layout) and the amdgpu kernel driver."""
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
        text = read_text(root, f"{prefix}/.info/version")
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

    # the ROCm libraries on disk and where the dynamic linker looks (post-install: /etc/ld.so.conf.d/rocm.conf)
    prefixes = ["/opt/rocm"] + [f"/opt/{name}" for name in facts.rocm_dirs if name.startswith("rocm-")]
    for prefix in prefixes:
        for sub in ("lib", "lib64"):
            d = root / prefix.lstrip("/") / sub
            if d.is_dir():
                for lib in sorted(d.glob("lib*.so*")):
                    facts.rocm_libs.setdefault(lib.name, f"{prefix}/{sub}")
    conf = [read_text(root, "/etc/ld.so.conf") or ""]
    conf_d = root / "etc/ld.so.conf.d"
    if conf_d.is_dir():
        conf += [read_text(root, f"/etc/ld.so.conf.d/{p.name}") or "" for p in sorted(conf_d.glob("*.conf"))]
    facts.ld_dirs = [line.strip().rstrip("/") for text in conf for line in text.splitlines()
                     if line.strip().startswith("/")]

    facts.distro_rocm_pkgs = distro_rocm_packages(read_text(root, "/var/lib/dpkg/status") or "")

    # amdgpu kernel driver: the module directory exists when loaded; DKMS builds carry a version file.
    facts.amdgpu_loaded = (root / "sys/module/amdgpu").is_dir()
    facts.amdgpu_version = (read_text(root, "/sys/module/amdgpu/version") or "").strip()


def amd_gpu_facts(facts: Facts, root: Path, probe: Probe) -> None:
    """GPUs and gfx targets: amdsmi, else rocminfo, else the KFD topology in sysfs."""
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


def _amd_hint(facts: Facts, root: Path) -> bool:
    """Worth asking amdsmi/rocminfo: a driver, a KFD node or a ROCm install is present."""
    return (facts.amdgpu_loaded or facts.kfd_exists or facts.dxg_exists or bool(facts.rocm_version)
            or (root / "sys/class/kfd").exists())


# ROCm components Debian / Ubuntu package themselves (rocminfo 5.7.1-3build1 in Ubuntu 24.04 universe). AMD's own
# packages carry the release code in their version (1.0.0.60200-66~24.04, 6.2.60200-2009582.24.04); a distribution's
# copy does not, and apt prefers its higher-looking version, which breaks rocm-hip-runtime's exact dependency
# (ROCm/legacy-rocm-build#3656, #6367).
ROCM_COMPONENT = re.compile(r"^(rocminfo|hipcc|rocm-[\w.+-]+|hip-[\w.+-]+|lib(?:amdhip64|hsa-runtime64|hsakmt|rocblas|"
                            r"rocsolver|rocfft|rocrand|rocsparse|hipblas|miopen|rccl|rocm)[\w.+-]*)$")
AMD_VERSION = re.compile(r"\.\d{5}-")


def distro_rocm_packages(status: str) -> dict[str, str]:
    """Installed dpkg packages that are ROCm components from the distribution, not from repo.radeon.com."""
    out = {}
    for block in status.split("\n\n"):
        fields = dict(re.findall(r"^([A-Za-z-]+):\s*(.*)$", block, re.M))
        name, version = fields.get("Package", ""), fields.get("Version", "")
        if (ROCM_COMPONENT.match(name) and version and not AMD_VERSION.search(version)
                and "install ok installed" in fields.get("Status", "")):
            out[name] = version
    return out
