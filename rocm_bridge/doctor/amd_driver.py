"""The AMD checklist's first two steps: the kernel driver and the ROCm user space.

driver_checks() looks at amdgpu (loaded, its DKMS version, the module on disk, Secure Boot, lockdown, the MOK key and
what the kernel said, to tell "not built" from "built but refused") or, on WSL2, at the Windows driver reached through
/dev/dxg; then at the installed ROCm (legacy /opt/rocm-<ver> or the ROCm Core SDK's /opt/rocm/core-<ver>, and whether
ROCM_PATH points at it). Each failure carries the fix actions of rocm_bridge.doctor.fixes.
"""

from __future__ import annotations

import re

from rocm_bridge.doctor.checks import Check, _check
from rocm_bridge.doctor.facts import Facts
from rocm_bridge.doctor.fixes import act, module_refused


def driver_checks(f: Facts) -> list[Check]:
    """The driver check, then the ROCm install check."""
    checks: list[Check] = []
    add = checks.append

    # 1. kernel driver: amdgpu on Linux; on WSL2 the Windows (Adrenalin) driver reached through /dev/dxg
    pci_amd = [g for g in f.pci_gpus if g["vendor"] == "amd"]
    if f.wsl:
        ev = [f.wsl_evidence, f"/dev/dxg: {'present' if f.dxg_exists else 'absent'}", "/dev/kfd: "
              + ("present" if f.kfd_exists else "absent (expected on WSL)")]
        if f.dxg_exists:
            add(_check("driver", "ok", "wsl_driver", evidence=ev))
        else:
            add(_check("driver", "fail", "wsl_no_dxg", evidence=ev, person="wsl_windows",
                       fix=["wsl --update  # in Windows PowerShell, then: wsl --shutdown",
                            "wsl -l -v  # the distribution must run as VERSION 2",
                            "# install the AMD Software: Adrenalin Edition driver on Windows, then reopen WSL",
                            "ls -l /dev/dxg"]))
    else:
        ev = [f"/sys/module/amdgpu: {'present' if f.amdgpu_loaded else 'absent'}",
              f"/sys/module/amdgpu/version: {f.amdgpu_version or '(none)'}"]
        ev += [f"PCI {g['slot']}: AMD device {g['device']}" for g in pci_amd]
        ev += _module_evidence(f)
        if not f.amdgpu_loaded:
            add(_driver_not_loaded(f, ev))
        elif not f.amdgpu_version:
            add(_check("driver", "warn", "driver_inbox", evidence=ev, fix=["dkms status", "uname -r"], blocking=False))
        else:
            add(_check("driver", "ok", "driver_ok", params={"version": f.amdgpu_version}, evidence=ev))

    # 2. ROCm user space (legacy /opt/rocm-<ver>, or the ROCm Core SDK's /opt/rocm/core-<ver>)
    ev = [f"ROCM_PATH={f.env.get('ROCM_PATH', '(unset)')}", f"/opt: {', '.join(f.rocm_dirs) or '(no rocm* directories)'}"]
    if f.rocm_version:
        ev.insert(0, f"{f.rocm_version_file}: {f.rocm_version}")
        prefix = f.rocm_version_file.rsplit("/.info", 1)[0]
        rocm_path = f.env.get("ROCM_PATH", "").rstrip("/")
        if rocm_path and not f.rocm_version_file.startswith(rocm_path + "/"):
            add(_check("rocm_install", "warn", "rocm_path_mismatch", params={"version": f.rocm_version, "path": rocm_path},
                       evidence=ev, actions=[act("env_set", var="ROCM_PATH", value=prefix)], blocking=False))
        elif f.rocm_layout == "core_sdk":
            add(_check("rocm_install", "ok", "rocm_core_sdk", params={"version": f.rocm_version, "prefix": prefix},
                       evidence=ev))
        else:
            add(_check("rocm_install", "ok", "rocm_ok", params={"version": f.rocm_version}, evidence=ev))
    elif "rocm" in f.stale:
        add(_check("rocm_install", "skipped", "stale_reprobe", evidence=ev))
    elif f.distro_rocm_pkgs:  # the distribution's copies block AMD's packages' exact dependencies
        pkgs = sorted(f.distro_rocm_pkgs)
        ev += [f"dpkg: {n} {v} (from the distribution, not repo.radeon.com)" for n, v in sorted(f.distro_rocm_pkgs.items())]
        add(_check("rocm_install", "fail", "rocm_distro_pkgs", params={"pkgs": ", ".join(
                   f"{n} {f.distro_rocm_pkgs[n]}" for n in pkgs)}, evidence=ev,
                   actions=[act("pkg_remove", packages=pkgs), act("pkg_install", packages=["rocm"], pin="1")]))
    else:
        add(_check("rocm_install", "fail", "rocm_missing", evidence=ev,
                   actions=[act("pkg_install", packages=["rocm"])]))
    return checks


def _module_evidence(f: Facts) -> list[str]:
    ev = []
    if f.kernel_release:
        ev.append(f"kernel {f.kernel_release}; amdgpu.ko on disk: {f.amdgpu_on_disk or 'none'}")
    if f.secure_boot is not None:
        ev.append(f"Secure Boot: {'enabled' if f.secure_boot else 'disabled'} ({f.secure_boot_source})")
    if f.lockdown:
        ev.append(f"/sys/kernel/security/lockdown: {f.lockdown}")
    if f.mok_key:
        state = {True: "enrolled", False: "not enrolled", None: "unknown"}[f.mok_enrolled]
        ev.append(f"module signing key {f.mok_key}: {state} (mokutil --test-key)")
    if f.dkms_status:
        ev.append("dkms status: " + f.dkms_status.replace("\n", "; "))
    ev += [f"dmesg: {line}" for line in f.module_messages[-5:]]
    return ev


def _driver_not_loaded(f: Facts, ev: list[str]) -> Check:
    """No amdgpu loaded: not built / built but refused under Secure Boot / built, simply not loaded."""
    load = act("modprobe", module="amdgpu")
    if f.amdgpu_on_disk and module_refused(f):
        why = "Secure Boot" if f.secure_boot else f"lockdown={f.lockdown}"
        if not f.mok_key:
            return _check("driver", "fail", "module_refused_no_key", params={"why": why, "path": f.amdgpu_on_disk},
                          evidence=ev, person="secure_boot_sign",
                          fix=["sudo mokutil --sb-state", "dmesg | grep -iE 'module verification|lockdown'"])
        return _check("driver", "fail", "module_refused", params={"why": why, "path": f.amdgpu_on_disk,
                      "key": f.mok_key}, evidence=ev, actions=[act("mok_enroll"), load])
    if f.amdgpu_on_disk:
        return _check("driver", "fail", "driver_not_loaded", params={"path": f.amdgpu_on_disk}, evidence=ev,
                      actions=[load])
    built = dkms_kernels(f)
    if built and f.kernel_release and f.kernel_release not in built:
        # amdgpu-dkms is installed, but its build for the running kernel failed (a kernel newer than the module
        # supports): reinstalling repeats the failing build. The kernel's own amdgpu is the way forward.
        return _check("driver", "fail", "dkms_other_kernel", params={"kernel": f.kernel_release,
                      "built": ", ".join(built)}, evidence=ev, actions=[act("inbox_driver"), load])
    actions = [act("pkg_install", packages=["amdgpu-dkms"])]
    if module_refused(f) and f.mok_key:
        actions.append(act("mok_enroll"))
    elif module_refused(f):
        return _check("driver", "fail", "driver_missing", evidence=ev, actions=actions, person="secure_boot_sign")
    return _check("driver", "fail", "driver_missing", evidence=ev, actions=[*actions, load])


def dkms_kernels(f: Facts) -> list[str]:
    """Kernels `dkms status` says amdgpu is built or installed for ("amdgpu/<ver>, <kernel>, <arch>: installed")."""
    out = []
    for line in f.dkms_status.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) >= 3 and parts[0].startswith("amdgpu") and re.search(r":\s*(installed|built)", line):
            out.append(parts[1])
    return out
