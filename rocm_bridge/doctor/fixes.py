"""Fixes as data: every blocking check's fix is a list of Actions, and each action kind is ONE record that both
writes the commands for the machine in front of the doctor (its package manager, container runtime, Python
installer, init system) and transforms the probed facts the way running them would. So a fix can be checked: apply
it to the facts, run the checks again, and the check it was for must clear without a new blocking failure
(tests/test_doctor_fixes.py does this for every example system).

A fix that is not a transformation of facts (new hardware, reading a crash's stack, a setting on Windows) is not
an Action: the check carries `person`, a catalog reason (doctor.person.<reason>) that says who must do what and why.

    actions = [act("env_unset", var="HIP_VISIBLE_DEVICES"), act("env_set", var="ROCR_VISIBLE_DEVICES", value="0")]
    render(actions, facts)          # -> [("env_unset", {...}, ["unset HIP_VISIBLE_DEVICES"]), ...]
    after = apply(facts, actions)   # a new Facts; run_checks(after) must clear the check
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass

from rocm_bridge.doctor.facts import CUDA_LIB_DISTS, Facts, TensorFlowProbe

AMD_INSTALL_DOC = "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/"
UNMAPPED_GROUPS = ("nogroup", "nobody", "65534")  # how a rootless container shows host groups it cannot map


@dataclass(frozen=True)
class Action:
    kind: str
    params: tuple = ()  # sorted (key, value) pairs, values str or tuple of str

    @property
    def p(self) -> dict:
        return dict(self.params)


def act(kind: str, **params) -> Action:
    if kind not in KINDS:
        raise KeyError(kind)
    return Action(kind, tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items())))


@dataclass(frozen=True)
class Kind:
    render: Callable[[dict, Facts], list[str]]  # the commands, in the user's world
    apply: Callable[[Facts, dict], None]  # what running them changes in the facts


# --- the user's world --------------------------------------------------------------------------------------------

def sudo(f: Facts) -> str:
    return "" if f.user == "root" else "sudo "


PM_INSTALL = {"apt": "apt install -y", "dnf": "dnf install -y", "yum": "yum install -y", "zypper": "zypper install -y"}
PM_REMOVE = {"apt": "apt remove -y", "dnf": "dnf remove -y", "yum": "yum remove -y", "zypper": "zypper remove -y"}
# kernel headers DKMS needs, per AMD's install guide (Ubuntu: linux-headers + linux-modules-extra; RHEL:
# kernel-headers + kernel-devel; SLES: kernel-default-devel)
KERNEL_HEADERS = {"apt": ['"linux-headers-$(uname -r)"', '"linux-modules-extra-$(uname -r)"'],
                  "dnf": ['"kernel-headers-$(uname -r)"', '"kernel-devel-$(uname -r)"'],
                  "yum": ['"kernel-headers-$(uname -r)"', '"kernel-devel-$(uname -r)"'],
                  "zypper": ["kernel-default-devel"]}


def python_manager(f: Facts, dist: str | None = None) -> str:
    """The tool that owns the Python environment: the installer of `dist` (or of the TensorFlow in place), else uv
    or conda when the environment is theirs, else pip."""
    if dist and f.installers.get(dist):
        return f.installers[dist]
    tf = f.tf_dist
    if tf and f.installers.get(tf[0]) in ("uv", "conda"):
        return f.installers[tf[0]]
    if any(v == "uv" for v in f.installers.values()):
        return "uv"
    return "pip"


def container_runtime(f: Facts) -> str:
    """The runtime of the container the doctor runs in, else the one found on the host (docker, podman, apptainer)."""
    if f.container:
        return f.container
    for tool in ("docker", "podman", "apptainer", "singularity"):
        if tool in f.tools:
            return "apptainer" if tool == "singularity" else tool
    return ""


def run_command(f: Facts, image: str, gids: tuple = ()) -> str:
    """Start a ROCm container with the GPU in the runtime actually found."""
    runtime = container_runtime(f)
    if runtime == "podman":
        # rootless Podman cannot map host groups: keep-groups passes the caller's supplementary groups (crun only);
        # it is exclusive, so no other --group-add (podman-run(1), --group-add)
        return ("podman run -it --device /dev/kfd --device /dev/dri --group-add keep-groups "
                f"--security-opt seccomp=unconfined --security-opt label=disable --ipc=host {image}")
    if runtime == "apptainer":
        sif = image if image.endswith(".sif") else f"docker://{image}"
        return f"apptainer exec --rocm --bind /dev/kfd,/dev/dri {sif} python3"
    groups = " ".join(f"--group-add {g}" for g in gids) or "--group-add video --group-add $(getent group render | cut -d: -f3)"
    return (f"docker run -it --device=/dev/kfd --device=/dev/dri {groups} --security-opt seccomp=unconfined "
            f"--ipc=host {image}")


# --- the kinds -----------------------------------------------------------------------------------------------------

def _grant(f: Facts) -> None:
    """Node access follows group membership (or the host groups a keep-groups container passes)."""
    def acc(a: dict) -> dict:
        g = a.get("group")
        root = f.user == "root" and not f.container_rootless  # a rootless container's root is the host user
        ok = root or g in f.groups or (f.container_keep_groups and g in UNMAPPED_GROUPS)
        return {**a, "r": bool(ok), "w": bool(ok)}

    if f.kfd_exists:
        f.kfd_access = acc(f.kfd_access)
    f.render_nodes = {k: acc(v) for k, v in f.render_nodes.items()}


def _make_nodes(f: Facts, group: str) -> None:
    """/dev/kfd and one render node per GPU, where missing (the driver's udev rule gives them `group`)."""
    if not f.kfd_exists:
        f.kfd_exists = True
        f.kfd_access = {"group": group}
    count = max(1, len([g for g in f.pci_gpus if g["vendor"] == "amd"]), len(f.kfd_gpus))
    if not f.render_nodes:
        f.render_nodes = {f"/dev/dri/renderD{128 + i}": {"group": group} for i in range(count)}
    _grant(f)


def module_refused(f: Facts) -> bool:
    """By the doctor's own rules the kernel will refuse an out-of-tree amdgpu: Secure Boot (or lockdown) enforces
    signatures and the key DKMS signs with is not enrolled."""
    enforced = f.secure_boot is True or f.lockdown in ("integrity", "confidentiality")
    return enforced and f.mok_enrolled is not True


def out_of_tree(path: str) -> bool:
    """A DKMS / vendor build (updates/, extra/), as opposed to the kernel's own module the distribution signs."""
    return "/updates/" in path or "/extra/" in path


def _apply_modprobe(f: Facts, p: dict) -> None:
    if not f.amdgpu_on_disk or (out_of_tree(f.amdgpu_on_disk) and module_refused(f)):
        return  # nothing to load, or the kernel refuses it: the driver check must still fail
    f.amdgpu_loaded = True
    if out_of_tree(f.amdgpu_on_disk):  # the in-tree module has no /sys/module/amdgpu/version
        f.amdgpu_version = f.amdgpu_version or (re.search(r"amdgpu[/,]\s*([\w.\-]+)", f.dkms_status)
                                                or [None, "dkms"])[1]
    f.module_messages = [m for m in f.module_messages if "amdgpu" not in m.lower()]
    if not f.kfd_exists:
        _make_nodes(f, "render")
    if not f.kfd_gpus and not f.amd_gpus:
        f.stale = sorted({*f.stale, "gpus"})


def _render_pkg_install(p: dict, f: Facts) -> list[str]:
    pm, pkgs = f.pkg_manager, list(p["packages"])
    if "amdgpu-dkms" in pkgs:
        pre = KERNEL_HEADERS.get(pm, [])
        cmds = [f"{sudo(f)}{PM_INSTALL[pm]} {' '.join(pre)}"] if pm and pre else []
        if pm:
            return [*cmds, f"{sudo(f)}{PM_INSTALL[pm]} {' '.join(pkgs)}"]
        return [f"# no apt, dnf or zypper found: install {' '.join(pkgs)} with this distribution's tools ({AMD_INSTALL_DOC})"]
    if p.get("line"):  # a newer release than the configured repository holds: point the package manager at it first
        first = (f"# first point {pm or 'the package manager'} at AMD's ROCm {p['line']} repository (amdgpu-install "
                 f"{p['line']}.x for this distribution release): {AMD_INSTALL_DOC}install/quick-start.html")
        return [first, f"{sudo(f)}{PM_INSTALL[pm]} {' '.join(pkgs)}" if pm else f"# install {' '.join(pkgs)}"]
    if pm == "apt" and p.get("pin"):  # AMD's quick start: prefer repo.radeon.com over the distribution's copies
        return ["printf 'Package: *\\nPin: release o=repo.radeon.com\\nPin-Priority: 600\\n' | "
                f"{sudo(f)}tee /etc/apt/preferences.d/rocm-pin-600", f"{sudo(f)}apt update",
                f"{sudo(f)}{PM_INSTALL[pm]} {' '.join(pkgs)}"]
    if pm:
        return [f"{sudo(f)}{PM_INSTALL[pm]} {' '.join(pkgs)}"]
    return [f"# no apt, dnf or zypper found: install {' '.join(pkgs)} with this distribution's tools"]


def _apply_pkg_install(f: Facts, p: dict) -> None:
    if "rocm" in p["packages"]:  # which release the configured repository holds only a new probe can tell
        f.stale = sorted({*f.stale, "rocm", *(["gpus"] if f.wsl else [])})  # on WSL: a new runtime, a new GPU list
    if "amdgpu-dkms" in p["packages"]:
        f.amdgpu_on_disk = f"/lib/modules/{f.kernel_release or '$(uname -r)'}/updates/dkms/amdgpu.ko"
        f.dkms_status = f.dkms_status or "amdgpu/dkms: installed"


def _render_pkg_remove(p: dict, f: Facts) -> list[str]:
    pm = f.pkg_manager or "apt"
    return [f"{sudo(f)}{PM_REMOVE[pm]} {' '.join(p['packages'])}"]


def _apply_pkg_remove(f: Facts, p: dict) -> None:
    for name in p["packages"]:
        f.distro_rocm_pkgs.pop(name, None)
    if {"libhsa-runtime64-1", "libhsakmt1"} & set(p["packages"]):
        f.stale = sorted({*f.stale, "gpus"})


def _render_mok(p: dict, f: Facts) -> list[str]:
    key = f.mok_key
    cmds = [f"{sudo(f)}mokutil --import {key}", f"{sudo(f)}reboot"]
    if key == "/etc/pki/akmods/certs/public_key.der" and not f.mok_enrolled:
        cmds.insert(0, f"{sudo(f)}kmodgenca -a")
    return cmds


def _apply_mok(f: Facts, p: dict) -> None:
    f.mok_enrolled = True  # DKMS / akmods sign the module with this key: the kernel now accepts it


def _render_modprobe(p: dict, f: Facts) -> list[str]:
    cmds = [f"{sudo(f)}modprobe {p['module']}"]
    if f.init == "systemd":
        cmds.append(f"echo {p['module']} | {sudo(f)}tee /etc/modules-load.d/{p['module']}.conf")
    return [*cmds, f"lsmod | grep {p['module']}"]


def _render_group_add(p: dict, f: Facts) -> list[str]:
    groups = ",".join(p["groups"])
    return [f"{sudo(f)}usermod -a -G {groups} $LOGNAME", f"newgrp {p['groups'][0]}", "groups"]


def _apply_group_add(f: Facts, p: dict) -> None:
    f.groups = [*f.groups, *(g for g in p["groups"] if g not in f.groups)]
    _grant(f)


UDEV_RULE = '/etc/udev/rules.d/70-amdgpu-render.rules'


def _render_udev(p: dict, f: Facts) -> list[str]:
    g = p["group"]
    reload = (f"{sudo(f)}udevadm control --reload-rules && {sudo(f)}udevadm trigger" if f.init == "systemd"
              else f"{sudo(f)}udevadm trigger")
    return [f"echo 'KERNEL==\"kfd\", GROUP=\"{g}\", MODE=\"0660\"' | {sudo(f)}tee {UDEV_RULE}",
            f"echo 'SUBSYSTEM==\"drm\", KERNEL==\"renderD*\", GROUP=\"{g}\", MODE=\"0660\"' | {sudo(f)}tee -a {UDEV_RULE}",
            reload, "ls -l /dev/kfd /dev/dri/renderD*"]


def _apply_udev(f: Facts, p: dict) -> None:
    if f.kfd_exists:
        f.kfd_access = {**f.kfd_access, "group": p["group"]}
    f.render_nodes = {k: {**v, "group": p["group"]} for k, v in f.render_nodes.items()}
    _grant(f)


def _render_container(p: dict, f: Facts) -> list[str]:
    runtime = container_runtime(f)
    cmds = [run_command(f, p.get("image") or "<image>", tuple(p.get("gids", ())))]
    if runtime == "podman":
        cmds.insert(0, "podman info --format '{{.Host.OCIRuntime.Name}}'")
    return cmds


def _apply_container(f: Facts, p: dict) -> None:
    runtime = container_runtime(f)
    if runtime == "podman":
        f.container_keep_groups = True
    for g in p.get("gids", ()):
        if g not in f.groups:
            f.groups = [*f.groups, g]
    if not f.kfd_exists or not f.render_nodes:
        owner = (f.kfd_access.get("group") or ("nogroup" if runtime == "podman" and f.container_rootless else "render"))
        _make_nodes(f, owner)
    if runtime in ("docker", "podman"):  # --security-opt seccomp=unconfined --ipc=host
        f.seccomp_mode = 0 if f.seccomp_mode is not None else None
        f.shm_bytes = None
    _grant(f)


def _render_env_unset(p: dict, f: Facts) -> list[str]:
    return [f"unset {p['var']}"]


def _render_env_set(p: dict, f: Facts) -> list[str]:
    return [f"export {p['var']}={p['value']}"]


def _render_pip_uninstall(p: dict, f: Facts) -> list[str]:
    out = []
    by_manager: dict[str, list[str]] = {}
    for d in p["dists"]:
        by_manager.setdefault(python_manager(f, d), []).append(d)
    for manager, dists in by_manager.items():
        if manager == "conda":
            out.append(f"conda remove -y --force {' '.join(dists)}")
        elif manager == "uv":
            out.append(f"uv pip uninstall {' '.join(dists)}")
        else:
            out.append(f"python -m pip uninstall -y {' '.join(dists)}")
    return out


def _apply_pip_uninstall(f: Facts, p: dict) -> None:
    for d in p["dists"]:
        f.packages[d] = None
        f.installers.pop(d, None)


def _render_pip_install(p: dict, f: Facts) -> list[str]:
    spec, index = p["spec"], p.get("index", "")
    dist = p["dist"]
    manager = python_manager(f, p.get("owner") or dist)
    quoted = f"'{spec}'" if any(c in spec for c in "<>[") else spec
    if manager == "conda" and p.get("conda_ok") == "1":
        return [f"conda install -y -n {f.conda_env} {quoted}" if f.conda_env else f"conda install -y {quoted}"]
    tail = ""
    if index:
        tail = f" --index-url {index}" if index.startswith("https://pypi.org") else f" -f {index}"
    if manager == "uv":
        return [f"uv pip install {quoted}{tail}"]
    return [f"python -m pip install {quoted}{tail}"]


def _tf_requirements(f: Facts, version: str) -> None:
    """What pip's resolver does to a TensorFlow's pinned requirements (tensorflow/tools/pip_package/setup.py
    REQUIRED_PACKAGES): TF < 2.16 pins keras to its own minor (keras >= 2.X, < 2.X+1), TF >= 2.16 needs keras >= 3,
    TF < 2.18 needs numpy < 2."""
    from rocm_bridge import compat
    from rocm_bridge.versions import parse_version

    core = compat.raw_parts(compat.tensorflow_core(version))[:2]
    keras = f.packages.get("keras")
    if core < (2, 16):
        f.packages["keras"] = f"{core[0]}.{core[1]}.0"
    elif keras and parse_version(keras) < (3,):
        f.packages["keras"] = "3.6.0"
    numpy = f.packages.get("numpy")
    if core < (2, 18) and numpy and parse_version(numpy) >= (2,):
        f.packages["numpy"] = "1.26.4"


def _apply_pip_install(f: Facts, p: dict) -> None:
    f.packages[p["dist"]] = p["version"]
    if p["dist"] in ("tensorflow", "tensorflow-rocm", "tensorflow-cpu"):
        _tf_requirements(f, p["version"])
    manager = python_manager(f, p.get("owner") or p["dist"])
    f.installers[p["dist"]] = "pip" if manager == "conda" and p.get("conda_ok") != "1" else manager
    if "and-cuda" in p["spec"]:
        for d in CUDA_LIB_DISTS:
            if d.endswith(p.get("cuda_suffix", "cu12")):
                f.packages[d] = "from tensorflow[and-cuda]"
                f.installers[d] = f.installers[p["dist"]]


def _render_venv(p: dict, f: Facts) -> list[str]:
    py = p["python"]
    if "conda" in f.tools or f.conda_env:
        return [f"conda create -y -n tf{py.replace('.', '')} python={py} && conda activate tf{py.replace('.', '')}"]
    if "uv" in f.tools:
        return [f"uv venv --python {py} .venv && . .venv/bin/activate"]
    return [f"python{py} -m venv .venv && . .venv/bin/activate"]


def _apply_venv(f: Facts, p: dict) -> None:
    f.python = p["python"] + ".0"
    f.packages = {k: None for k in f.packages}
    f.installers = {}


def _render_image(p: dict, f: Facts) -> list[str]:
    return [run_command(f, p["image"])]


def _apply_image(f: Facts, p: dict) -> None:
    """Inside AMD's image: its own ROCm user space, Python and TensorFlow, the host's driver and devices."""
    f.container = f.container or container_runtime(f) or "docker"
    if p.get("rocm"):
        f.rocm_version, f.rocm_version_file, f.rocm_layout = p["rocm"], "/opt/rocm/.info/version", "legacy"
    f.packages = {k: None for k in f.packages}
    f.packages["tensorflow-rocm"] = p["tf"]
    f.installers = {"tensorflow-rocm": "pip"}
    if p.get("python"):
        f.python = p["python"] + ".0"


def _render_nv_driver(p: dict, f: Facts) -> list[str]:
    pm = f.pkg_manager
    if f.os_id == "ubuntu":
        cmd = f"{sudo(f)}ubuntu-drivers install"
    elif pm:  # NVIDIA's CUDA repository meta-package for the driver, on apt, dnf and zypper alike
        cmd = f"{sudo(f)}{PM_INSTALL[pm]} cuda-drivers"
    else:
        return [f"# no apt, dnf or zypper found: install an NVIDIA driver >= {p['minimum']} with this distribution's "
                "tools", f"{sudo(f)}reboot", "nvidia-smi"]
    return [cmd, f"{sudo(f)}reboot", "nvidia-smi"]


def _apply_nv_driver(f: Facts, p: dict) -> None:
    from rocm_bridge.versions import parse_version

    if not f.nvidia_driver or parse_version(f.nvidia_driver) < parse_version(p["minimum"]):
        f.nvidia_driver = p["minimum"]
    if not f.nvidia_gpus:
        f.stale = sorted({*f.stale, "gpus"})


def _render_inbox_driver(p: dict, f: Facts) -> list[str]:
    """Drop the amdgpu-dkms build that fails for this kernel and use the kernel's own amdgpu (what
    `amdgpu-install --usecase=rocm --no-dkms` sets up). Ubuntu ships that module in linux-modules-extra."""
    pm = f.pkg_manager
    if not pm:
        return ["# no apt, dnf or zypper found: remove amdgpu-dkms with this distribution's tools"]
    cmds = [f"{sudo(f)}{PM_REMOVE[pm]} amdgpu-dkms"]
    if f.os_id == "ubuntu":
        cmds.append(f'{sudo(f)}{PM_INSTALL[pm]} "linux-modules-extra-$(uname -r)"')
    return cmds


def _apply_inbox_driver(f: Facts, p: dict) -> None:
    f.dkms_status = ""
    f.amdgpu_on_disk = f"/lib/modules/{f.kernel_release or '$(uname -r)'}/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko"


def _render_ld_register(p: dict, f: Facts) -> list[str]:
    """ROCm's post-install step: register the library directory with the dynamic linker, then rebuild its cache."""
    return [f"echo {p['dir']} | {sudo(f)}tee -a /etc/ld.so.conf.d/rocm.conf", f"{sudo(f)}ldconfig",
            f"ldconfig -p | grep {p['lib']}"]


def _apply_ld_register(f: Facts, p: dict) -> None:
    f.ld_dirs = [*f.ld_dirs, p["dir"]]


KINDS: dict[str, Kind] = {
    "ld_register": Kind(_render_ld_register, _apply_ld_register),
    "inbox_driver": Kind(_render_inbox_driver, _apply_inbox_driver),
    "pkg_install": Kind(_render_pkg_install, _apply_pkg_install),
    "pkg_remove": Kind(_render_pkg_remove, _apply_pkg_remove),
    "mok_enroll": Kind(_render_mok, _apply_mok),
    "modprobe": Kind(_render_modprobe, _apply_modprobe),
    "group_add": Kind(_render_group_add, _apply_group_add),
    "udev_rule": Kind(_render_udev, _apply_udev),
    "container_run": Kind(_render_container, _apply_container),
    "env_unset": Kind(_render_env_unset, lambda f, p: f.env.pop(p["var"], None)),
    "env_set": Kind(_render_env_set, lambda f, p: f.env.__setitem__(p["var"], p["value"])),
    "pip_uninstall": Kind(_render_pip_uninstall, _apply_pip_uninstall),
    "pip_install": Kind(_render_pip_install, _apply_pip_install),
    "venv": Kind(_render_venv, _apply_venv),
    "use_image": Kind(_render_image, _apply_image),
    "nv_driver": Kind(_render_nv_driver, _apply_nv_driver),
}


def note_key(kind: str, f: Facts) -> str:
    """Catalog key of the sentence that says what a step does (per runtime where the runtimes differ)."""
    if kind == "container_run":
        return f"doctor.action.container_run_{container_runtime(f) or 'docker'}"
    return f"doctor.action.{kind}"


def render(actions: list[Action], f: Facts) -> list[tuple[str, dict, list[str]]]:
    """(kind, params, commands) per action, in the user's world."""
    return [(a.kind, a.p, KINDS[a.kind].render(a.p, f)) for a in actions]


def commands(actions: list[Action], f: Facts) -> list[str]:
    return [cmd for _, _, cmds in render(actions, f) for cmd in cmds]


def apply(f: Facts, actions: list[Action]) -> Facts:
    """The facts after running the fix. TensorFlow's subprocess answer described the machine before it: it is
    dropped (not run), so the re-check judges only what the fix provably changed."""
    after = copy.deepcopy(f)
    for a in actions:
        KINDS[a.kind].apply(after, a.p)
    after.tensorflow = TensorFlowProbe()
    return after
