"""The AMD checklist: amdgpu driver (or WSL's /dev/dxg) -> ROCm user space (legacy or ROCm Core SDK layout) ->
device nodes (container-aware) -> groups (the group that owns each node) -> GPUs (runtime list and KFD topology) ->
visibility variables (ROCr then HIP) -> gfx support judged on the true target (HSA_OVERRIDE_GFX_VERSION) -> the
TensorFlow wheel (vendor, ROCm line, Python) -> the shared Python-side checks.
"""

from __future__ import annotations

import re

from rocm_bridge import compat
from rocm_bridge.doctor import visibility, wheels
from rocm_bridge.doctor.checks import (
    Check,
    _check,
    _v,
    _visibility_check,
    installed_tf_dists,
    isa_families,
    isa_family,
    python_checks,
    rocm_install_actions,
    select_gpus,
    wsl_gfx,
)
from rocm_bridge.doctor.facts import Facts, gfx_from_override
from rocm_bridge.doctor.fixes import UNMAPPED_GROUPS, act, module_refused

rocm_repo = wheels.repo_url  # the repo.radeon.com wheel directory of a ROCm line


def amd_checks(f: Facts) -> list[Check]:
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
    else:
        add(_check("rocm_install", "fail", "rocm_missing", evidence=ev,
                   actions=[act("pkg_install", packages=["rocm"])]))

    # 3. device nodes (WSL: /dev/dxg; containers: the devices passed in)
    denied = _denied_nodes(f)
    group_fixable = [n for n in denied if n[1] and n[1] not in f.groups and n[1] != "root"]
    run_fix = [act("container_run", image="<image>")]
    if f.wsl:
        ev = [f"/dev/dxg: {_node_text(f.dxg_access) if f.dxg_exists else 'absent'}", "/dev/kfd: not used on WSL"]
        if f.dxg_exists:
            add(_check("device_nodes", "ok", "wsl_nodes", evidence=ev))
        elif f.container:
            add(_check("device_nodes", "fail", "container_no_devices", params={"runtime": f.container}, evidence=ev,
                       fix=[wheels.DOCKER_RUN_WSL + " <image>"], person="wsl_container"))
        else:
            add(_check("device_nodes", "skipped", "skipped_no_driver", evidence=ev))
    else:
        ev = [f"/dev/kfd: {_node_text(f.kfd_access) if f.kfd_exists else 'absent'}"]
        ev += [f"{path}: {_node_text(acc)}" for path, acc in f.render_nodes.items()] or ["/dev/dri/renderD*: absent"]
        if f.container:
            ev.append(f"container: {f.container}" + (" (rootless)" if f.container_rootless else "")
                      + (f", engine {f.container_engine}" if f.container_engine else "")
                      + " (/.dockerenv, /run/.containerenv, APPTAINER_CONTAINER)")
        if not f.kfd_exists and f.container == "apptainer":
            add(_check("device_nodes", "fail", "apptainer_no_devices", evidence=ev, actions=run_fix))
        elif not f.kfd_exists and f.container:
            add(_check("device_nodes", "fail", "container_no_devices", params={"runtime": f.container}, evidence=ev,
                       actions=run_fix))
        elif not f.kfd_exists and not f.amdgpu_loaded:  # a consequence of the driver check, not a second cause
            add(_check("device_nodes", "skipped", "skipped_no_driver", evidence=ev))
        elif not f.kfd_exists:
            add(_check("device_nodes", "fail", "kfd_missing", evidence=ev, person="kfd_missing",
                       fix=["ls -l /dev/kfd /dev/dri/renderD*", "dmesg | grep -i kfd"]))
        elif not f.render_nodes:
            add(_check("device_nodes", "fail", "dri_missing", evidence=ev, **({"actions": run_fix} if f.container else
                       {"person": "kfd_missing", "fix": ["ls -l /dev/dri", "dmesg | grep -i drm"]})))
        elif denied and not group_fixable:
            nodes = ", ".join(n[0] for n in denied)
            if f.container:
                add(_check("device_nodes", "fail", "kfd_denied", params={"nodes": nodes}, evidence=ev,
                           person="host_udev", fix=["# on the host: ls -l /dev/kfd /dev/dri/renderD*"]))
            else:
                group = "render" if "render" in f.groups or "video" not in f.groups else "video"
                add(_check("device_nodes", "fail", "kfd_denied", params={"nodes": nodes}, evidence=ev,
                           actions=[act("udev_rule", group=group)]
                           + ([act("group_add", groups=[group])] if group not in f.groups and f.user != "root" else [])))
        elif f.container and not denied and _container_options(f):
            opts = _container_options(f)
            add(_check("device_nodes", "warn", "container_options", params={"options": " ".join(opts)},
                       evidence=ev + _container_evidence(f), actions=[act("container_run", image="<image>")],
                       blocking=False))
        else:
            add(_check("device_nodes", "ok", "nodes_ok", evidence=ev))

    # 4. groups: the group that owns each node is the one that counts (video on old distributions, render on new)
    ev = [f"user: {f.user}", f"groups: {', '.join(f.groups) or '(none)'}"]
    owners = sorted({acc.get("group") for acc in ([f.kfd_access] if f.kfd_exists else []) + list(f.render_nodes.values())
                     if acc.get("group")})
    ev.append(f"device node groups: {', '.join(owners) or '-'}")
    if f.wsl:
        add(_check("groups", "skipped", "skipped_wsl", evidence=ev))
    elif group_fixable and f.container and any(n[1] in UNMAPPED_GROUPS for n in group_fixable):
        # rootless: the host group is unmapped; --group-add <name or GID> adds a namespace group that grants nothing
        add(_check("groups", "fail", "podman_keep_groups",
                   params={"user": f.user, "groups": ", ".join(sorted({n[1] for n in group_fixable})),
                           "runtime": f.container}, evidence=ev,
                   actions=[act("container_run", image="<image>")] if f.container == "podman" else [],
                   person="" if f.container == "podman" else "rootless_runtime"))
    elif group_fixable and f.container:
        gids = sorted({n[1] for n in group_fixable})
        add(_check("groups", "fail", "container_group_missing", params={"user": f.user, "groups": ", ".join(gids)},
                   evidence=ev, actions=[act("container_run", image="<image>", gids=gids)]))
    elif group_fixable:
        needed = sorted({n[1] for n in group_fixable})
        add(_check("groups", "fail", "group_missing", params={"user": f.user, "groups": ", ".join(needed)}, evidence=ev,
                   actions=[act("group_add", groups=needed)]))
    elif f.kfd_exists and not denied:
        missing = [g for g in owners if g not in f.groups and not g.isdigit() and g != "root"
                   and not (f.container_keep_groups and g in UNMAPPED_GROUPS)]
        if missing and f.user != "root":
            add(_check("groups", "warn", "groups_partial", params={"groups": ", ".join(missing)}, evidence=ev,
                       actions=[act("group_add", groups=missing)], blocking=False))
        else:
            add(_check("groups", "ok", "groups_ok", evidence=ev))
    else:
        add(_check("groups", "skipped", "skipped_no_nodes", evidence=ev))

    # 5. GPUs: the runtime's list (rocminfo / amd-smi) and the true targets in the KFD topology
    ev = [f"{g.source}: {g.name} ({g.gfx})" for g in f.amd_gpus] + f.gpu_source_notes
    ev += [f"{g.source}: gfx_target_version -> {g.gfx}" for g in f.kfd_gpus if g not in f.amd_gpus]
    gfx_list = sorted({g.gfx for g in (f.kfd_gpus or f.amd_gpus)})
    if f.amd_gpus:
        add(_check("gpus", "ok", "gpus_found", params={"count": f.gpu_count, "gfx": ", ".join(gfx_list)}, evidence=ev))
    elif "gpus" in f.stale:
        add(_check("gpus", "skipped", "stale_reprobe", evidence=["a fix changed the driver or runtime: run the doctor "
                                                                "again to list the GPUs"]))
    elif f.wsl and f.dxg_exists:
        add(_check("gpus", "fail", "wsl_no_gpu_agent", evidence=ev or ["rocminfo lists no GPU agent"],
                   actions=[act("pkg_remove", packages=["libhsa-runtime64-1", "libhsakmt1"]),
                            act("env_set", var="HSA_ENABLE_DXG_DETECTION", value="1")],
                   fix=["ls /opt/rocm/lib/librocdxg.so  # if absent: build it, https://github.com/ROCm/librocdxg",
                        "rocminfo | grep -E 'Name:|Device Type'"]))
    elif f.wsl or not f.kfd_exists or not f.amdgpu_loaded:
        add(_check("gpus", "skipped", "skipped_no_driver", evidence=ev or ["no GPU agents: driver or /dev/kfd missing"]))
    else:
        add(_check("gpus", "fail", "no_amd_gpu", evidence=ev or ["amdsmi, rocminfo and /sys/class/kfd list no GPU"],
                   fix=["rocminfo | grep -E 'Name:|Device Type'", "ls /sys/class/kfd/kfd/topology/nodes"],
                   person="no_amd_gpu"))

    # 6. visible-device variables, with ROCr's and HIP's parsing rules
    add(_amd_env_check(f))

    # 7. gfx target supported by this ROCm / TensorFlow line, judged on the true target
    add(_gfx_check(f, gfx_list))

    # 8. ROCm <-> TensorFlow wheel (vendor, line, Python)
    wheel = _wheel_check(f)
    add(wheel)

    install = wheel.actions if wheel.outcome in ("tf_missing", "not_rocm_wheel", "wheel_mismatch", "python_no_wheel",
                                                 "tf_builds_conflict", "wheel_newer_rocm") else []
    if not install and f.rocm_version:
        pin, _ = wheels.best_pin(f.rocm_version, f.python)
        install = rocm_install_actions(f, pin) if pin else []
    checks += python_checks(f, "rocm", install)
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
    actions = [act("pkg_install", packages=["amdgpu-dkms"])]
    if module_refused(f) and f.mok_key:
        actions.append(act("mok_enroll"))
    elif module_refused(f):
        return _check("driver", "fail", "driver_missing", evidence=ev, actions=actions, person="secure_boot_sign")
    return _check("driver", "fail", "driver_missing", evidence=ev, actions=[*actions, load])


def _container_options(f: Facts) -> list[str]:
    opts = []
    if f.seccomp_mode == 2:
        opts.append("--security-opt seccomp=unconfined")
    if f.shm_bytes is not None and f.shm_bytes <= 64 * 1024**2:
        opts.append("--ipc=host")
    return opts


def _container_evidence(f: Facts) -> list[str]:
    ev = []
    if f.seccomp_mode is not None:
        ev.append(f"/proc/self/status Seccomp: {f.seccomp_mode} (2 = Docker's default filter)")
    if f.shm_bytes is not None:
        ev.append(f"/dev/shm size: {f.shm_bytes // 1024**2} MiB")
    return ev


def _node_text(acc: dict) -> str:
    rw = ("r" if acc.get("r") else "-") + ("w" if acc.get("w") else "-")
    return f"{rw} for this user, group {acc.get('group') or '?'}"


def _denied_nodes(f: Facts) -> list[tuple[str, str | None]]:
    nodes = ([("/dev/kfd", f.kfd_access)] if f.kfd_exists else []) + list(f.render_nodes.items())
    return [(path, acc.get("group")) for path, acc in nodes if not (acc.get("r") and acc.get("w"))]


def _amd_env_check(f: Facts) -> Check:
    vis = visibility.amd_visibility(f.env, f.gpu_count, [g.uuid for g in f.kfd_gpus],
                                    [u for u in f.gpu_uuids if u != "GPU-XX"])
    check = _visibility_check("env_vars", vis, f)
    if check is not None and check.status != "ok":
        return check
    if "GPU_DEVICE_ORDINAL" in f.env:
        return _check("env_vars", "warn", "gpu_device_ordinal", params={"value": repr(f.env["GPU_DEVICE_ORDINAL"])},
                      evidence=vis.evidence(), actions=[act("env_unset", var="GPU_DEVICE_ORDINAL")],
                      blocking=False)
    if "CUDA_VISIBLE_DEVICES" in vis.ignored:
        return _check("env_vars", "warn", "devices_conflict", params={"vars": "HIP_VISIBLE_DEVICES, CUDA_VISIBLE_DEVICES"},
                      evidence=vis.evidence(), actions=[act("env_unset", var="CUDA_VISIBLE_DEVICES")], blocking=False)
    ld = f.env.get("LD_LIBRARY_PATH", "")
    if f.rocm_version_file:
        prefix = f.rocm_version_file.rsplit("/.info", 1)[0]
        installed = _v(f.rocm_version)
        # /opt/rocm is usually a link to /opt/rocm-<installed version>: only another version is a problem
        others = sorted({m for m in re.findall(r"/opt/rocm-\d+(?:\.\d+)*", ld)
                         if not prefix.startswith(m) and _v(m.split("-", 1)[1]) != installed})
        if others:
            return _check("env_vars", "warn", "ld_path_other_rocm", params={"paths": ", ".join(others), "prefix": prefix},
                          evidence=vis.evidence() + [f"LD_LIBRARY_PATH={ld!r}"],
                          actions=[act("env_set", var="LD_LIBRARY_PATH", value=f"{prefix}/lib")], blocking=False)
    return check or _check("env_vars", "ok", "env_ok", evidence=vis.evidence())


SAME_ISA_FAMILIES = ("gfx10-3-generic",)


def override_suggestion(gfx: str) -> str | None:
    """The HSA_OVERRIDE_GFX_VERSION value naming the first target of this GPU's ISA family (unsupported workaround):
    gfx1032 -> 10.3.0 (gfx10-3-generic), gfx1102 -> 11.0.0 (gfx11-generic); None outside RDNA2/RDNA3."""
    family = isa_family(gfx)
    if family not in ("gfx10-3-generic", "gfx11-generic"):
        return None
    first = isa_families()[family][0]  # gfx1030 / gfx1100
    return f"{int(first[3:-2])}.{int(first[-2], 16)}.{int(first[-1], 16)}"


def _gfx_check(f: Facts, gfx_list: list[str]) -> Check:
    if not gfx_list:
        return _check("gfx_supported", "skipped", "skipped_no_gpu")
    if not f.rocm_version:
        return _check("gfx_supported", "skipped", "skipped_no_rocm")
    supported = compat.gfx_targets_for_rocm(f.rocm_version)
    if not supported:
        return _check("gfx_supported", "skipped", "gfx_list_unknown", params={"rocm": f.rocm_version})
    row = compat.release_row(f.rocm_version)
    source_of = "KFD topology (sysfs)" if f.kfd_gpus else "rocminfo / amd-smi"
    ev = [f"GPU gfx ({source_of}): {', '.join(gfx_list)}",
          f"ROCm {row.rocm if row else f.rocm_version} lists: {', '.join(supported)}"]
    reported = sorted({g.gfx for g in f.amd_gpus})
    if f.kfd_gpus and reported and reported != gfx_list:
        ev.append(f"the runtime reports: {', '.join(reported)} (differs from the KFD topology: an override or a "
                  "runtime misreport)")
    hidden = []
    if f.kfd_gpus:  # judge the GPUs this process will see; hidden ones do not matter
        vis = visibility.amd_visibility(f.env, len(f.kfd_gpus), [g.uuid for g in f.kfd_gpus])
        if vis.filtered and vis.physical:
            seen = {f.kfd_gpus[i].gfx for i in vis.physical}
            hidden = [g for g in gfx_list if g not in seen]
            gfx_list = sorted(seen)
            if hidden:
                ev.append(f"hidden by the visibility variables: {', '.join(hidden)}")
    override = f.env.get("HSA_OVERRIDE_GFX_VERSION")
    if override is not None:
        ev.append(f"HSA_OVERRIDE_GFX_VERSION={override!r}")
    common = {"supported": ", ".join(supported), "rocm": f.rocm_version}
    unsupported = [g for g in gfx_list if g not in supported]
    if override and not f.kfd_gpus:
        return _check("gfx_supported", "warn", "override_unverified", params={"value": override, "gfx": ", ".join(gfx_list)},
                      evidence=ev + ["no KFD topology in sysfs: the true target cannot be read"],
                      fix=["grep gfx_target_version /sys/class/kfd/kfd/topology/nodes/*/properties"], blocking=False)
    if override:
        effective = gfx_from_override(override)
        if effective is None:
            return _check("gfx_supported", "fail", "override_bad", params={**common, "gfx": ", ".join(gfx_list),
                          "value": override, "effective": "?"}, evidence=ev, **_unset_override(f, gfx_list, supported))
        ev.append(f"override -> {effective} (family {isa_family(effective) or '?'}); "
                  + "; ".join(f"{g}: family {isa_family(g) or '?'}" for g in gfx_list))
        if all(g == effective for g in gfx_list):
            return _check("gfx_supported", "ok", "override_noop", params={**common, "gfx": effective}, evidence=ev)
        masked = [g for g in gfx_list if g in supported and g != effective]
        if masked:
            return _check("gfx_supported", "fail", "override_masks",
                          params={**common, "gfx": ", ".join(masked), "value": override, "effective": effective},
                          evidence=ev, **_unset_override(f, gfx_list, supported))
        foreign = [g for g in gfx_list if isa_family(g) is None or isa_family(g) != isa_family(effective)]
        if foreign or effective not in supported:
            return _check("gfx_supported", "fail", "override_bad",
                          params={**common, "gfx": ", ".join(foreign or gfx_list), "value": override,
                                  "effective": effective}, evidence=ev, **_unset_override(f, gfx_list, supported))
        # RDNA2 parts share one ISA (LLVM gfx10-3-generic has no restrictions against gfx1030): the override is
        # harmless there; in other families (gfx11-generic: gfx1102/gfx1103 have fewer VGPRs) it is a gamble
        outcome = "override_same_isa" if isa_family(effective) in SAME_ISA_FAMILIES else "override_in_use"
        return _check("gfx_supported", "warn", outcome,
                      params={**common, "gfx": ", ".join(unsupported), "effective": effective,
                              "family": isa_family(effective) or "-"}, evidence=ev, blocking=False)
    if f.wsl and wsl_gfx() and any(g not in wsl_gfx() for g in gfx_list):
        return _check("gfx_supported", "warn", "wsl_gpu_unlisted", params={"gfx": ", ".join(gfx_list),
                      "listed": ", ".join(wsl_gfx())}, evidence=ev, blocking=False)
    if not unsupported:
        return _check("gfx_supported", "ok", "gfx_ok", params={**common, "gfx": ", ".join(gfx_list)}, evidence=ev)
    usable = [i for i, g in enumerate(f.kfd_gpus) if g.gfx in supported]
    seen_supported = [g for g in gfx_list if g in supported]
    if usable and f.kfd_gpus and not seen_supported:
        # every GPU this process sees is unsupported, yet a supported one is on the machine: the variables hide it
        actions = select_gpus(f, usable)
        variables = sorted({a.p["var"] for a in actions} | {v for v in ("ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
                                                                         "CUDA_VISIBLE_DEVICES") if v in f.env})
        return _check("gfx_supported", "fail", "gfx_hidden_supported",
                      params={**common, "gfx": ", ".join(unsupported), "hidden": ", ".join(hidden),
                              "keep": ",".join(map(str, usable)), "vars": ", ".join(variables)},
                      evidence=ev, actions=actions)
    if usable and f.kfd_gpus:  # a supported GPU next to an unsupported one (often a Ryzen iGPU): hide the others
        keep = ",".join(str(i) for i in usable)
        actions = select_gpus(f, usable)
        variables = sorted({a.p["var"] for a in actions})
        return _check("gfx_supported", "warn", "gfx_partial",
                      params={**common, "gfx": ", ".join(unsupported), "keep": keep, "vars": ", ".join(variables)},
                      evidence=ev, actions=actions, blocking=False)
    gfx = ", ".join(unsupported)
    suggestion = override_suggestion(unsupported[0])
    if suggestion and gfx_from_override(suggestion) in supported:
        return _check("gfx_supported", "fail", "gfx_unsupported", params={**common, "gfx": gfx}, evidence=ev,
                      actions=[act("env_set", var="HSA_OVERRIDE_GFX_VERSION", value=suggestion)])
    return _check("gfx_supported", "fail", "gfx_unsupported", params={**common, "gfx": gfx}, evidence=ev,
                  person="gfx_unsupported",
                  fix=["# use a GPU listed for your ROCm release (see the compatibility matrix)"])


def _unset_override(f: Facts, gfx_list: list[str], supported: tuple[str, ...]) -> dict:
    """Unset the override; where the true target is itself unsupported, that part needs a person (other hardware)."""
    actions = [act("env_unset", var="HSA_OVERRIDE_GFX_VERSION")]
    if all(g in supported for g in gfx_list):
        return {"actions": actions}
    suggestion = override_suggestion(next(g for g in gfx_list if g not in supported))
    if suggestion and gfx_from_override(suggestion) in supported and all(isa_family(g) == isa_family(gfx_list[0])
                                                                          for g in gfx_list):
        return {"actions": [act("env_set", var="HSA_OVERRIDE_GFX_VERSION", value=suggestion)]}
    return {"actions": actions, "person": "gfx_unsupported"}


def _image_action(tag: str):
    row = next((r for r in compat.rows("docker_image") if r.docker_tag == tag), None)
    return act("use_image", image=tag, tf=row.tensorflow[0] if row and row.tensorflow else "",
               python=row.python[0] if row and row.python else "", rocm=row.rocm if row else "")


def _wheel_check(f: Facts) -> Check:
    dist = f.tf_dist
    ev = [f"pip: {name}=={version}" + (f" ({f.installers[name]})" if f.installers.get(name) else "")
          for name, version in f.packages.items() if version and "tensorflow" in name]
    ev = ev or ["no TensorFlow package installed"]
    ev.append(f"Python {f.python}" + (f", conda environment {f.conda_env}" if f.conda_env else ""))
    if f.rocm_version:
        ev.append(f"ROCm {f.rocm_version}")
    listed = compat.tensorflow_versions_for_rocm(f.rocm_version) if f.rocm_version else []
    if listed:
        ev.append(f"tf_rocm_compat.csv lists for this ROCm line: {', '.join(listed)}")
    if not f.rocm_version:
        if dist and dist[0] != "tensorflow-rocm":
            return _check("wheel_match", "fail", "not_rocm_wheel", params={"dist": dist[0], "version": dist[1]},
                          evidence=ev, person="install_stack_first",
                          fix=[f"pip uninstall -y {dist[0]}", "# install ROCm first, then tensorflow-rocm"])
        return _check("wheel_match", "skipped", "skipped_no_rocm", evidence=ev)
    same = compat.tensorflow_core(dist[1]) if dist and dist[0] == "tensorflow-rocm" else None
    pin, pins = wheels.best_pin(f.rocm_version, f.python, same)
    install = rocm_install_actions(f, pin) if pin else []
    images = wheels.docker_images(f.rocm_version, f.python) or wheels.docker_images(None, f.python)
    if pins:
        ev.append("published builds for this line: " + ", ".join(f"{p.version} (Python {', '.join(p.pythons) or '?'})"
                                                              for p in pins))
    if not pins:  # a preview line (or one without published wheels): offer its images
        images = wheels.docker_images(f.rocm_version) or images
        install = [_image_action(images[0])] if images else []
    fixed = {"actions": install} if install else {"person": "no_published_build"}
    present = installed_tf_dists(f)
    if len(present) > 1:  # two builds share site-packages/tensorflow: the last one installed wins
        built = "CUDA" if f.tensorflow.built_with_cuda else "ROCm" if f.tensorflow.built_with_rocm else "?"
        return _check("wheel_match", "fail", "tf_builds_conflict",
                      params={"dists": ", ".join(f"{d}=={f.packages[d]}" for d in present), "build": built,
                              "managers": ", ".join(sorted({f.installers.get(d, "pip") for d in present}))},
                      evidence=ev + [f"import tensorflow reports a {built} build"], **fixed)
    if dist is None or dist[0] != "tensorflow-rocm":
        if pins and pin is None:
            return _python_no_wheel(f, pins, ev, images)
        if dist is None:
            return _check("wheel_match", "fail", "tf_missing", evidence=ev, **fixed)
        return _check("wheel_match", "fail", "not_rocm_wheel", params={"dist": dist[0], "version": dist[1]},
                      evidence=ev, **fixed)
    name, version = dist
    built = wheels.built_for(version)
    built_text = ", ".join(built)
    if built:
        ev.append(f"{name} {version} was built for ROCm {built_text}")
    row = compat.pair_listed(f.rocm_version, version)
    imaged = next((r for r in compat.rows("docker_image") if r.rocm and version in r.tensorflow
                   and compat.rocm_line(r.rocm) == compat.rocm_line(f.rocm_version)), None)
    row = row or imaged  # AMD's own image pairs this TensorFlow with this ROCm line
    same_line = imaged is not None or any(compat.rocm_line(b) == compat.rocm_line(f.rocm_version) for b in built)
    if row is not None and (same_line or not built):
        ev.append(f"listed: {row.record_type} ROCm {row.rocm} / TF {', '.join(row.tensorflow)}")
        return _check("wheel_match", "ok", "wheel_ok", params={"version": version, "rocm": f.rocm_version}, evidence=ev)
    same_major = any(compat.rocm_line(b)[0] == compat.rocm_line(f.rocm_version)[0] for b in built)
    host_line = compat.rocm_line(f.rocm_version)
    if built and row is None and all(compat.rocm_line(b) > host_line for b in built) and any(
            compat.rocm_line(b)[0] == host_line[0] for b in built):
        # ROCm's user-space libraries are backward- but not forward-compatible: a build against a newer line can
        # need symbols or code objects this ROCm lacks; it fails at the first kernel, not at import
        return _check("wheel_match", "fail", "wheel_newer_rocm",
                      params={"version": version, "rocm": f.rocm_version, "built_for": built_text,
                              "listed": ", ".join(p.version for p in pins) or ", ".join(listed) or "-"},
                      evidence=ev, **fixed)
    if built and same_major:
        return _check("wheel_match", "warn", "wheel_other_line",
                      params={"version": version, "rocm": f.rocm_version, "built_for": built_text}, evidence=ev,
                      actions=install, blocking=False)
    if not built:
        return _check("wheel_match", "warn", "wheel_unlisted", params={"version": version, "rocm": f.rocm_version},
                      evidence=ev, actions=install, blocking=False)
    return _check("wheel_match", "fail", "wheel_mismatch",
                  params={"version": version, "rocm": f.rocm_version, "built_for": built_text,
                          "listed": ", ".join(p.version for p in pins) or ", ".join(listed) or "-"},
                  evidence=ev, **fixed)


def _plain(a, f: Facts) -> list[str]:
    """Commands of an action offered as text only (a warning's suggestion, an alternative)."""
    from rocm_bridge.doctor.fixes import KINDS

    return KINDS[a.kind].render(a.p, f)


def _python_no_wheel(f: Facts, pins: list, ev: list[str], images: list[str]) -> Check:
    pythons = sorted({p for pin in pins for p in pin.pythons}, key=_v, reverse=True)
    best = pythons[0] if pythons else "3.10"
    newest = pins[0]
    actions = [act("venv", python=best), act("pip_install", spec=f"tensorflow-rocm=={newest.version}",
                                             index=newest.index, dist="tensorflow-rocm", version=newest.version)]
    fix = []
    if images:
        image_rocm = next((r.rocm for r in compat.rows("docker_image") if r.docker_tag == images[0]), "")
        listed = compat.drivers_for_rocm(image_rocm) if image_rocm else ()
        host = compat.raw_parts(f.amdgpu_version)[:2] if f.amdgpu_version else None
        fits = host is not None and any(compat.raw_parts(d)[:2] == host for d in listed)
        note = (f"# or a ready image for Python {f.python.rsplit('.', 1)[0]}:" if fits or not listed else
                f"# or, after updating the amdgpu driver to one listed for ROCm {image_rocm} ({', '.join(listed)}):")
        fix += [note, *_plain(_image_action(images[0]), f)]
    status = "fail" if any(p.pythons_exact for p in pins) else "warn"
    return _check("wheel_match", status, "python_no_wheel",
                  params={"python": f.python, "rocm": f.rocm_version, "pythons": ", ".join(pythons)},
                  evidence=ev, actions=actions, fix=fix, blocking=status == "fail")
