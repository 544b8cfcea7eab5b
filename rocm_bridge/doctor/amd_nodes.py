"""The AMD checklist's access steps: the device nodes a process needs and the groups that grant them.

node_checks() reads /dev/kfd and /dev/dri/renderD* (on WSL2 /dev/dxg) with their permissions for this user, whether
it runs in a container (Docker, Podman rootless or not, Apptainer) and with which options (seccomp, /dev/shm size),
then judges the groups by the group that owns each node (video on old distributions, render on new; in a rootless
container a host group is unmapped and --group-add cannot grant it).
"""

from __future__ import annotations

from rocm_bridge.doctor import wheels
from rocm_bridge.doctor.checks import Check, _check
from rocm_bridge.doctor.facts import Facts
from rocm_bridge.doctor.fixes import UNMAPPED_GROUPS, act


def node_checks(f: Facts) -> list[Check]:
    """The device-nodes check, then the groups check."""
    checks: list[Check] = []
    add = checks.append

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
    return checks


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
