"""The ordered checklist over collected facts, its verdict and the Compatible formula on real versions.

AMD order: amdgpu driver -> ROCm install -> device nodes -> groups -> GPUs and gfx targets -> visible-device
variables -> gfx supported by this ROCm/TensorFlow -> ROCm <-> TensorFlow wheel -> Python / numpy / Keras ->
TensorFlow import -> build type -> GPU visible to TensorFlow -> matmul. NVIDIA hosts get the same against
tf_cuda_compat.csv; a host without any GPU gets one failing "GPU" check (what it means, what to install) and
the Python-side checks. The first failing check is the verdict.

Each check carries a catalog outcome key (doctor.outcome.<outcome>) with parameters, raw evidence lines
(paths, values, command output: shown as code, never as HTML), fix commands and a source from
data/env_checks.csv.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from rocm_bridge import compat
from rocm_bridge.doctor import visibility, wheels
from rocm_bridge.doctor.facts import Facts, gfx_from_override
from rocm_bridge.formulas import Compatibility, compatible
from rocm_bridge.versions import parse_version

STATUSES: tuple[str, ...] = ("ok", "warn", "fail", "skipped")

# check id -> env_checks.csv check_id whose source column backs it
SOURCE_ROWS: dict[str, str] = {
    "driver": "kmd_version",
    "rocm_install": "rocm_version_file",
    "device_nodes": "kfd_access",
    "groups": "groups",
    "gpus": "rocminfo",
    "env_vars": "visible_devices",
    "gfx_supported": "gfx_target",
    "wheel_match": "tf_wheel_match",
    "python_packages": "numpy_keras",
    "tf_import": "linker_config",
    "tf_build": "tf_rocm_build",
    "tf_gpu_visible": "tf_rocm_build",
    "matmul": "tf_rocm_build",
    "nv_driver": "nvidia_smi",
    "nv_cuda": "driver_vs_runtime",
    "nv_env_vars": "cuda_visible_devices",
    "nv_tf_gpu_visible": "tf_cuda_build",
    "no_gpu": "rocminfo",
}
# outcome -> env_checks.csv row whose source backs that particular rule (overrides the check's row)
OUTCOME_ROWS: dict[str, str] = {
    "devices_hidden": "visible_devices_hip", "devices_hidden_rocr": "visible_devices_rocr",
    "devices_dropped": "visible_devices_hip", "devices_dropped_rocr": "visible_devices_rocr",
    "devices_selected": "visible_devices_hip", "gpu_device_ordinal": "visible_devices_hip",
    "nv_devices_hidden": "cuda_visible_devices", "nv_devices_dropped": "cuda_visible_devices",
    "override_in_use": "hsa_override_target", "override_masks": "hsa_override_target",
    "override_bad": "hsa_override_target", "override_noop": "hsa_override_target",
    "override_unverified": "hsa_override_target",
    "wsl_driver": "wsl_dxg", "wsl_no_dxg": "wsl_dxg", "wsl_nodes": "wsl_dxg", "wsl_no_gpu_agent": "wsl_dxg",
    "wsl_gpu_unlisted": "wsl_dxg",
    "container_no_devices": "container_devices", "container_group_missing": "container_devices",
    "container_options": "container_options",
    "python_no_wheel": "python_wheel", "wheel_other_line": "tf_wheel_match", "not_rocm_wheel": "tf_vendor_wheel",
    "wrong_vendor_wheel": "tf_vendor_wheel", "cpu_wheel": "tf_vendor_wheel", "nv_wheel_ok": "tf_vendor_wheel",
    "rocm_core_sdk": "rocm_core_sdk", "contradicted": "tf_rocm_build",
}
TF_RELEASES_SOURCE = "github.com/tensorflow/tensorflow RELEASES.md (2.16: Keras 3 default; 2.18: NumPy 2.0 support)"
AMD_INSTALL_DOC = "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/"
TF_PIP_DOC = "https://www.tensorflow.org/install/pip"


@lru_cache(maxsize=1)
def _env_sources() -> dict[str, str]:
    from rocm_bridge.data import read_csv

    return {row["check_id"]: row["source"] for row in read_csv("env_checks.csv")}


def source_for(check_id: str, outcome: str = "") -> str:
    sources = _env_sources()
    if outcome in OUTCOME_ROWS and sources.get(OUTCOME_ROWS[outcome]):
        return sources[OUTCOME_ROWS[outcome]]
    return sources.get(SOURCE_ROWS.get(check_id, check_id), "")


@lru_cache(maxsize=1)
def _env_rows() -> dict[str, dict]:
    from rocm_bridge.data import read_csv

    return {row["check_id"]: row for row in read_csv("env_checks.csv")}


@lru_cache(maxsize=1)
def isa_families() -> dict[str, tuple[str, ...]]:
    """LLVM generic-target families (gfx10-3-generic: gfx1030 ... gfx1036) from env_checks.csv row hsa_override_target."""
    text = _env_rows().get("hsa_override_target", {}).get("healthy_expectation", "")
    out = {}
    for part in text.split(";"):
        if ":" in part:
            name, members = part.split(":", 1)
            out[name.strip()] = tuple(re.findall(r"gfx[0-9a-f]+", members))
    return out


def isa_family(gfx: str) -> str | None:
    return next((name for name, members in isa_families().items() if gfx in members), None)


@lru_cache(maxsize=1)
def wsl_gfx() -> tuple[str, ...]:
    """gfx targets of the Radeon parts AMD lists for ROCm on WSL (env_checks.csv row wsl_dxg)."""
    return tuple(re.findall(r"gfx[0-9a-f]+", _env_rows().get("wsl_dxg", {}).get("healthy_expectation", "")))


@dataclass
class Check:
    id: str
    status: str
    outcome: str  # catalog: doctor.outcome.<outcome>
    params: dict = field(default_factory=dict)
    evidence: list[str] = field(default_factory=list)
    fix: list[str] = field(default_factory=list)  # shell commands
    source: str = ""
    blocking: bool = True

    @property
    def title_key(self) -> str:
        return f"doctor.check.{self.id}.title"

    @property
    def why_key(self) -> str:
        return f"doctor.check.{self.id}.why"

    @property
    def message_key(self) -> str:
        return f"doctor.outcome.{self.outcome}"

    def as_dict(self) -> dict:
        return {
            "id": self.id,
            "status": self.status,
            "outcome": self.outcome,
            "params": {k: str(v) for k, v in self.params.items()},
            "evidence": list(self.evidence),
            "fix": list(self.fix),
            "source": self.source,
            "blocking": self.blocking,
        }


@dataclass(frozen=True)
class Factor:
    name: str  # driver | rocm | cuda | tensorflow
    installed: str | None
    minimum: str | None
    ok: bool | None  # None: not evaluated (see reason)
    source: str = ""
    reason: str = ""  # outcome-style catalog suffix doctor.formula.<reason> when not evaluated


@dataclass
class FormulaResult:
    platform: str  # rocm | cuda
    factors: list[Factor]
    compatibility: Compatibility | None
    target_tf: str | None = None  # set when no TensorFlow is installed: the version the minimums are for

    @property
    def value(self) -> int | None:
        return self.compatibility.value if self.compatibility else None

    @property
    def zero_factors(self) -> list[str]:
        return [f.name for f in self.factors if f.ok is False]

    def as_dict(self) -> dict:
        return {
            "platform": self.platform,
            "value": self.value,
            "zero_factors": self.zero_factors,
            "target_tf": self.target_tf,
            "factors": [f.__dict__ for f in self.factors],
        }


def _check(check_id: str, status: str, outcome: str, **kw) -> Check:
    return Check(check_id, status, outcome, source=source_for(check_id, outcome), **kw)


def _v(text: str | None) -> tuple[int, ...] | None:
    try:
        return parse_version(text) if text else None
    except ValueError:
        return None


def tf_version_of(facts: Facts) -> str:
    """The TensorFlow version: what the import reported, else the installed package's version."""
    if facts.tensorflow.version:
        return facts.tensorflow.version
    dist = facts.tf_dist
    return dist[1] if dist else ""


def _hidden(value: str | None) -> bool:
    """A *_VISIBLE_DEVICES value that hides every device ('' or '-1')."""
    return value is not None and value.strip() in ("", "-1")


def rocm_repo(rocm: str) -> str:
    major, minor = compat.rocm_line(rocm)
    return f"https://repo.radeon.com/rocm/manylinux/rocm-rel-{major}.{minor}/"


# --- AMD ---------------------------------------------------------------------------------------------------


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
            add(_check("driver", "fail", "wsl_no_dxg", evidence=ev,
                       fix=["wsl --update  # in Windows PowerShell, then: wsl --shutdown",
                            "wsl -l -v  # the distribution must run as VERSION 2",
                            "# install the AMD Software: Adrenalin Edition driver on Windows, then reopen WSL",
                            "ls -l /dev/dxg"]))
    else:
        ev = [f"/sys/module/amdgpu: {'present' if f.amdgpu_loaded else 'absent'}",
              f"/sys/module/amdgpu/version: {f.amdgpu_version or '(none)'}"]
        ev += [f"PCI {g['slot']}: AMD device {g['device']}" for g in pci_amd]
        if not f.amdgpu_loaded:
            add(_check("driver", "fail", "driver_missing", evidence=ev,
                       fix=["sudo apt install amdgpu-dkms  # or: sudo amdgpu-install --usecase=dkms",
                            "sudo modprobe amdgpu", "dkms status"]))
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
                       evidence=ev, fix=[f"export ROCM_PATH={prefix}"], blocking=False))
        elif f.rocm_layout == "core_sdk":
            add(_check("rocm_install", "ok", "rocm_core_sdk", params={"version": f.rocm_version, "prefix": prefix},
                       evidence=ev))
        else:
            add(_check("rocm_install", "ok", "rocm_ok", params={"version": f.rocm_version}, evidence=ev))
    else:
        add(_check("rocm_install", "fail", "rocm_missing", evidence=ev,
                   fix=["sudo apt install rocm  # after adding AMD's repository, see " + AMD_INSTALL_DOC,
                        "cat /opt/rocm/.info/version"]))

    # 3. device nodes (WSL: /dev/dxg; containers: the devices passed in)
    denied = _denied_nodes(f)
    group_fixable = [n for n in denied if n[1] and n[1] not in f.groups and n[1] != "root"]
    docker_fix = [wheels.DOCKER_RUN + " <image>", "# inside the container: ls -l /dev/kfd /dev/dri/renderD*"]
    if f.wsl:
        ev = [f"/dev/dxg: {_node_text(f.dxg_access) if f.dxg_exists else 'absent'}", "/dev/kfd: not used on WSL"]
        if f.dxg_exists:
            add(_check("device_nodes", "ok", "wsl_nodes", evidence=ev))
        elif f.container:
            add(_check("device_nodes", "fail", "container_no_devices", params={"runtime": f.container}, evidence=ev,
                       fix=[wheels.DOCKER_RUN_WSL + " <image>"]))
        else:
            add(_check("device_nodes", "skipped", "skipped_no_driver", evidence=ev))
    else:
        ev = [f"/dev/kfd: {_node_text(f.kfd_access) if f.kfd_exists else 'absent'}"]
        ev += [f"{path}: {_node_text(acc)}" for path, acc in f.render_nodes.items()] or ["/dev/dri/renderD*: absent"]
        if f.container:
            ev.append(f"container: {f.container} (/.dockerenv or /run/.containerenv)")
        if not f.kfd_exists and f.container:
            add(_check("device_nodes", "fail", "container_no_devices", params={"runtime": f.container}, evidence=ev,
                       fix=docker_fix))
        elif not f.kfd_exists:
            add(_check("device_nodes", "fail", "kfd_missing", evidence=ev,
                       fix=["sudo modprobe amdgpu", "ls -l /dev/kfd /dev/dri/renderD*", wheels.DOCKER_RUN + " <image>"]))
        elif not f.render_nodes:
            add(_check("device_nodes", "fail", "dri_missing", evidence=ev,
                       fix=["ls -l /dev/dri", wheels.DOCKER_RUN + " <image>"]))
        elif denied and not group_fixable:
            add(_check("device_nodes", "fail", "kfd_denied", params={"nodes": ", ".join(n[0] for n in denied)},
                       evidence=ev, fix=["ls -l /dev/kfd /dev/dri/renderD*",
                                         "# expected: crw-rw---- root render; udev rules come with the amdgpu driver",
                                         wheels.DOCKER_RUN + " <image>"]))
        elif f.container and not denied and _container_options(f):
            opts = _container_options(f)
            add(_check("device_nodes", "warn", "container_options", params={"options": " ".join(opts)},
                       evidence=ev + _container_evidence(f), fix=[wheels.DOCKER_RUN + " <image>"], blocking=False))
        else:
            add(_check("device_nodes", "ok", "nodes_ok", evidence=ev))

    # 4. groups: the group that owns each node is the one that counts (video on old distributions, render on new)
    ev = [f"user: {f.user}", f"groups: {', '.join(f.groups) or '(none)'}"]
    owners = sorted({acc.get("group") for acc in ([f.kfd_access] if f.kfd_exists else []) + list(f.render_nodes.values())
                     if acc.get("group")})
    ev.append(f"device node groups: {', '.join(owners) or '-'}")
    if f.wsl:
        add(_check("groups", "skipped", "skipped_wsl", evidence=ev))
    elif group_fixable and f.container:
        gids = sorted({n[1] for n in group_fixable})
        add(_check("groups", "fail", "container_group_missing", params={"user": f.user, "groups": ", ".join(gids)},
                   evidence=ev, fix=["docker run ... " + " ".join(f"--group-add {g}" for g in gids)
                                     + " ...  # the GID that owns /dev/kfd on the host",
                                     "getent group render video  # on the host: name -> GID"]))
    elif group_fixable:
        needed = sorted({n[1] for n in group_fixable})
        add(_check("groups", "fail", "group_missing", params={"user": f.user, "groups": ", ".join(needed)}, evidence=ev,
                   fix=[f"sudo usermod -a -G {','.join(needed)} $LOGNAME", "# then log out and in again (or reboot)",
                        "groups"]))
    elif f.kfd_exists and not denied:
        missing = [g for g in owners if g not in f.groups and not g.isdigit() and g != "root"]
        if missing and f.user != "root":
            add(_check("groups", "warn", "groups_partial", params={"groups": ", ".join(missing)}, evidence=ev,
                       fix=[f"sudo usermod -a -G {','.join(missing)} $LOGNAME"], blocking=False))
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
    elif f.wsl and f.dxg_exists:
        add(_check("gpus", "fail", "wsl_no_gpu_agent", evidence=ev or ["rocminfo lists no GPU agent"],
                   fix=["sudo apt remove libhsa-runtime64-1 libhsakmt1  # Ubuntu's old runtime has no WSL support",
                        "export HSA_ENABLE_DXG_DETECTION=1  # librocdxg: https://github.com/ROCm/librocdxg",
                        "# Windows: a current AMD Software: Adrenalin Edition driver for a supported Radeon GPU",
                        "rocminfo | grep -E 'Name:|Device Type'"]))
    elif f.wsl or not f.kfd_exists or not f.amdgpu_loaded:
        add(_check("gpus", "skipped", "skipped_no_driver", evidence=ev or ["no GPU agents: driver or /dev/kfd missing"]))
    else:
        add(_check("gpus", "fail", "no_amd_gpu", evidence=ev or ["amdsmi, rocminfo and /sys/class/kfd list no GPU"],
                   fix=["rocminfo | grep -E 'Name:|Device Type'", "ls /sys/class/kfd/kfd/topology/nodes"]))

    # 6. visible-device variables, with ROCr's and HIP's parsing rules
    add(_amd_env_check(f))

    # 7. gfx target supported by this ROCm / TensorFlow line, judged on the true target
    add(_gfx_check(f, gfx_list))

    # 8. ROCm <-> TensorFlow wheel (vendor, line, Python)
    add(_wheel_check(f))

    checks += python_checks(f, "rocm")
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


def _visibility_check(check_id: str, vis: visibility.Visibility, f: Facts, prefix: str = "") -> Check | None:
    """The verdict on the visibility variables: hidden (fail), entries dropped (warn), a subset chosen (ok)."""
    ev = vis.evidence()
    if f.tensorflow.status == "ok":
        ev.append(f"TensorFlow lists {len(f.tensorflow.gpus)} GPU(s)")
    unset = [f"unset {s.var}" for s in vis.steps]
    if not vis.steps:
        return None
    last = vis.steps[-1]
    culprit = next((s for s in vis.steps if not s.kept), last)
    rocr = culprit.var == "ROCR_VISIBLE_DEVICES"
    if vis.total and vis.visible == 0:
        outcome = prefix + ("devices_hidden_rocr" if rocr else "devices_hidden")
        return _check(check_id, "fail", outcome, params={"var": culprit.var, "value": repr(culprit.value),
                      "total": vis.total, "pool": culprit.pool}, evidence=ev, fix=_renumber_fix(vis, culprit) or unset)
    dropped = next((s for s in vis.steps if s.dropped), None)
    if dropped:
        outcome = prefix + ("devices_dropped_rocr" if dropped.var == "ROCR_VISIBLE_DEVICES" else "devices_dropped")
        return _check(check_id, "warn", outcome, params={"var": dropped.var, "value": repr(dropped.value),
                      "count": vis.visible, "total": vis.total, "kept": ", ".join(dropped.kept) or "-",
                      "dropped": ", ".join(dropped.dropped)}, evidence=ev,
                      fix=[f"export {dropped.var}={','.join(dropped.kept)}  # what the runtime uses now"], blocking=False)
    return _check(check_id, "ok", prefix + "devices_selected" if prefix else "devices_selected",
                  params={"count": vis.visible, "total": vis.total}, evidence=ev)


def _renumber_fix(vis: visibility.Visibility, culprit: visibility.Step) -> list[str]:
    """HIP indexes the GPUs ROCr kept: when the HIP entries name physical GPUs that ROCr kept, give their new numbers."""
    rocr = vis.steps[0] if vis.steps and vis.steps[0].var == "ROCR_VISIBLE_DEVICES" else None
    if rocr is None or culprit is rocr or not rocr.kept:
        return []
    wanted = [t.strip() for t in culprit.value.split(",")]
    if not all(t in rocr.kept for t in wanted):
        return []
    renumbered = ",".join(str(rocr.kept.index(t)) for t in wanted)
    return [f"export {culprit.var}={renumbered}  # physical GPU {','.join(wanted)} after ROCR_VISIBLE_DEVICES="
            f"{rocr.value} (HIP counts the GPUs ROCr kept)"]


def _amd_env_check(f: Facts) -> Check:
    vis = visibility.amd_visibility(f.env, f.gpu_count, [g.uuid for g in f.kfd_gpus],
                                    [u for u in f.gpu_uuids if u != "GPU-XX"])
    check = _visibility_check("env_vars", vis, f)
    if check is not None and check.status != "ok":
        return check
    if "GPU_DEVICE_ORDINAL" in f.env:
        return _check("env_vars", "warn", "gpu_device_ordinal", params={"value": repr(f.env["GPU_DEVICE_ORDINAL"])},
                      evidence=vis.evidence(), fix=["unset GPU_DEVICE_ORDINAL  # use ROCR_VISIBLE_DEVICES on Linux"],
                      blocking=False)
    if "CUDA_VISIBLE_DEVICES" in vis.ignored:
        return _check("env_vars", "warn", "devices_conflict", params={"vars": "HIP_VISIBLE_DEVICES, CUDA_VISIBLE_DEVICES"},
                      evidence=vis.evidence(), fix=["unset CUDA_VISIBLE_DEVICES"], blocking=False)
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
                          fix=[f"export LD_LIBRARY_PATH={prefix}/lib"], blocking=False)
    return check or _check("env_vars", "ok", "env_ok", evidence=vis.evidence())


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
        ev.append(f"the runtime reports: {', '.join(reported)} (HSA_OVERRIDE_GFX_VERSION changes what rocminfo shows)")
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
                          "value": override}, evidence=ev, fix=["unset HSA_OVERRIDE_GFX_VERSION"])
        ev.append(f"override -> {effective} (family {isa_family(effective) or '?'}); "
                  + "; ".join(f"{g}: family {isa_family(g) or '?'}" for g in gfx_list))
        if all(g == effective for g in gfx_list):
            return _check("gfx_supported", "ok", "override_noop", params={**common, "gfx": effective}, evidence=ev)
        masked = [g for g in gfx_list if g in supported and g != effective]
        if masked:
            return _check("gfx_supported", "fail", "override_masks",
                          params={**common, "gfx": ", ".join(masked), "value": override, "effective": effective},
                          evidence=ev, fix=["unset HSA_OVERRIDE_GFX_VERSION  # and remove it from ~/.bashrc, "
                                            "/etc/environment, the container's ENV"])
        foreign = [g for g in gfx_list if isa_family(g) is None or isa_family(g) != isa_family(effective)]
        if foreign or effective not in supported:
            return _check("gfx_supported", "fail", "override_bad",
                          params={**common, "gfx": ", ".join(foreign or gfx_list), "value": override}, evidence=ev,
                          fix=["unset HSA_OVERRIDE_GFX_VERSION",
                               "# use a GPU listed for your ROCm release (see the compatibility matrix)"])
        return _check("gfx_supported", "warn", "override_in_use",
                      params={**common, "gfx": ", ".join(unsupported), "effective": effective}, evidence=ev,
                      blocking=False)
    if f.wsl and wsl_gfx() and any(g not in wsl_gfx() for g in gfx_list):
        return _check("gfx_supported", "warn", "wsl_gpu_unlisted", params={"gfx": ", ".join(gfx_list),
                      "listed": ", ".join(wsl_gfx())}, evidence=ev, blocking=False)
    if not unsupported:
        return _check("gfx_supported", "ok", "gfx_ok", params={**common, "gfx": ", ".join(gfx_list)}, evidence=ev)
    gfx = ", ".join(unsupported)
    suggestion = override_suggestion(unsupported[0])
    fix = ["# use a GPU listed for your ROCm release (see the compatibility matrix)"]
    if suggestion and gfx_from_override(suggestion) in supported:
        fix.append(f"export HSA_OVERRIDE_GFX_VERSION={suggestion}  # unsupported community workaround")
    return _check("gfx_supported", "fail", "gfx_unsupported", params={**common, "gfx": gfx}, evidence=ev, fix=fix)


def _wheel_check(f: Facts) -> Check:
    dist = f.tf_dist
    ev = [f"pip: {name}=={version}" for name, version in f.packages.items() if version and "tensorflow" in name]
    ev = ev or ["no TensorFlow package installed"]
    ev.append(f"Python {f.python}")
    if f.rocm_version:
        ev.append(f"ROCm {f.rocm_version}")
    listed = compat.tensorflow_versions_for_rocm(f.rocm_version) if f.rocm_version else []
    if listed:
        ev.append(f"tf_rocm_compat.csv lists for this ROCm line: {', '.join(listed)}")
    if not f.rocm_version:
        if dist and dist[0] != "tensorflow-rocm":
            return _check("wheel_match", "fail", "not_rocm_wheel", params={"dist": dist[0], "version": dist[1]},
                          evidence=ev, fix=[f"pip uninstall -y {dist[0]}", "# install ROCm first, then tensorflow-rocm"])
        return _check("wheel_match", "skipped", "skipped_no_rocm", evidence=ev)
    same = compat.tensorflow_core(dist[1]) if dist else None
    pin, pins = wheels.best_pin(f.rocm_version, f.python, same)
    install = [pin.command] if pin else []
    images = wheels.docker_images(f.rocm_version, f.python) or wheels.docker_images(None, f.python)
    if pins:
        ev.append("published builds for this line: " + ", ".join(f"{p.version} (Python {', '.join(p.pythons) or '?'})"
                                                              for p in pins))
    if not pins:  # a preview line (or one without published wheels): offer its images
        images = wheels.docker_images(f.rocm_version) or images
        install = [f"{wheels.DOCKER_RUN} {images[0]}"] if images else []
    if dist is None or dist[0] != "tensorflow-rocm":
        if pins and pin is None:
            return _python_no_wheel(f, pins, ev, images)
        if dist is None:
            return _check("wheel_match", "fail", "tf_missing", evidence=ev, fix=install or [
                "# no published tensorflow-rocm build for this ROCm line in tf_rocm_compat.csv"])
        return _check("wheel_match", "fail", "not_rocm_wheel", params={"dist": dist[0], "version": dist[1]},
                      evidence=ev, fix=[f"pip uninstall -y {dist[0]}", *install])
    name, version = dist
    built = wheels.built_for(version)
    built_text = ", ".join(built)
    if built:
        ev.append(f"{name} {version} was built for ROCm {built_text}")
    row = compat.pair_listed(f.rocm_version, version)
    same_line = any(compat.rocm_line(b) == compat.rocm_line(f.rocm_version) for b in built)
    if row is not None and (same_line or not built):
        ev.append(f"listed: {row.record_type} ROCm {row.rocm} / TF {', '.join(row.tensorflow)}")
        return _check("wheel_match", "ok", "wheel_ok", params={"version": version, "rocm": f.rocm_version}, evidence=ev)
    same_major = any(compat.rocm_line(b)[0] == compat.rocm_line(f.rocm_version)[0] for b in built)
    if built and same_major:
        return _check("wheel_match", "warn", "wheel_other_line",
                      params={"version": version, "rocm": f.rocm_version, "built_for": built_text}, evidence=ev,
                      fix=install, blocking=False)
    if not built:
        return _check("wheel_match", "warn", "wheel_unlisted", params={"version": version, "rocm": f.rocm_version},
                      evidence=ev, fix=install, blocking=False)
    return _check("wheel_match", "fail", "wheel_mismatch",
                  params={"version": version, "rocm": f.rocm_version, "built_for": built_text,
                          "listed": ", ".join(p.version for p in pins) or ", ".join(listed) or "-"},
                  evidence=ev, fix=[f"pip uninstall -y {name}", *install])


def _python_no_wheel(f: Facts, pins: list, ev: list[str], images: list[str]) -> Check:
    pythons = sorted({p for pin in pins for p in pin.pythons}, key=_v, reverse=True)
    best = pythons[0] if pythons else "3.10"
    newest = pins[0]
    fix = [f"uv venv --python {best} .venv && . .venv/bin/activate  # or: python{best} -m venv .venv",
           newest.command]
    if images:
        image_rocm = next((r.rocm for r in compat.rows("docker_image") if r.docker_tag == images[0]), "")
        listed = compat.drivers_for_rocm(image_rocm) if image_rocm else ()
        host = compat.raw_parts(f.amdgpu_version)[:2] if f.amdgpu_version else None
        fits = host is not None and any(compat.raw_parts(d)[:2] == host for d in listed)
        note = (f"# or a ready image for Python {f.python.rsplit('.', 1)[0]}:" if fits or not listed else
                f"# or, after updating the amdgpu driver to one listed for ROCm {image_rocm} ({', '.join(listed)}):")
        fix += [note, f"{wheels.DOCKER_RUN} {images[0]}"]
    status = "fail" if any(p.pythons_exact for p in pins) else "warn"
    return _check("wheel_match", status, "python_no_wheel",
                  params={"python": f.python, "rocm": f.rocm_version, "pythons": ", ".join(pythons)},
                  evidence=ev, fix=fix, blocking=status == "fail")


# --- Python side and TensorFlow (both platforms) ---------------------------------------------------------


def python_checks(f: Facts, platform: str) -> list[Check]:
    checks: list[Check] = []
    tf_version = tf_version_of(f)
    tf_v = _v(compat.tensorflow_core(tf_version)) if tf_version else None
    numpy, keras, tf_keras = f.packages.get("numpy"), f.packages.get("keras"), f.packages.get("tf-keras")
    ev = [f"Python {f.python}", f"numpy {numpy or '-'}", f"keras {keras or '-'}", f"tf-keras {tf_keras or '-'}",
          f"TensorFlow {tf_version or '-'}"]
    if tf_v is None:
        checks.append(Check("python_packages", "skipped", "skipped_no_tf", evidence=ev, source=TF_RELEASES_SOURCE))
    elif numpy and _v(numpy) >= (2,) and tf_v < (2, 18):
        checks.append(Check("python_packages", "fail", "numpy2_old_tf", params={"numpy": numpy, "tf": tf_version},
                            evidence=ev, fix=['pip install "numpy<2"'],
                            source=source_for("python_packages") + " | " + TF_RELEASES_SOURCE))
    elif keras and _v(keras) >= (3,) and tf_v < (2, 16):
        checks.append(Check("python_packages", "fail", "keras3_old_tf", params={"keras": keras, "tf": tf_version},
                            evidence=ev, fix=[f'pip install "keras<{tf_v[0]}.{tf_v[1] + 1 if len(tf_v) > 1 else 0}"'],
                            source=TF_RELEASES_SOURCE))
    elif keras and _v(keras) < (3,) and tf_v >= (2, 16) and not tf_keras:
        checks.append(Check("python_packages", "warn", "keras2_new_tf", params={"keras": keras, "tf": tf_version},
                            evidence=ev, fix=["pip install tf-keras  # and export TF_USE_LEGACY_KERAS=1"],
                            source=TF_RELEASES_SOURCE, blocking=False))
    else:
        checks.append(Check("python_packages", "ok", "packages_ok", evidence=ev,
                            source=source_for("python_packages") + " | " + TF_RELEASES_SOURCE))

    tf = f.tensorflow
    tf_ev = [f"status: {tf.status}", f"exit code: {tf.rc}"] + ([f"error: {tf.error}"] if tf.error else [])
    if tf.stderr_tail:
        tf_ev.append("stderr (last lines):\n" + "\n".join(tf.stderr_tail.strip().splitlines()[-15:]))
    fix_import = (["# install the tensorflow-rocm build the wheel check above names (exact version and index URL)"]
                  if platform == "rocm" else ["pip install 'tensorflow[and-cuda]'"])
    if tf.status == "not_run" and f.tf_dist is None:
        checks.append(_check("tf_import", "fail", "tf_missing", evidence=["pip: no tensorflow, tensorflow-rocm, "
                                                                          "tensorflow-cpu or tensorflow-gpu package"],
                             fix=fix_import))
    elif tf.status == "not_run":
        checks.append(_check("tf_import", "skipped", "tf_not_run"))
    elif tf.status == "missing":
        checks.append(_check("tf_import", "fail", "tf_missing", evidence=tf_ev, fix=fix_import))
    elif tf.status == "import_error":
        checks.append(_check("tf_import", "fail", "tf_import_error", params={"error": tf.error[:300]}, evidence=tf_ev,
                             fix=["python -c 'import tensorflow'  # read the first error line",
                                  "ldconfig -p | grep -E 'amdhip64|hsa-runtime64|cudart'"]))
    elif tf.status == "crash":
        checks.append(_check("tf_import", "fail", "tf_crash", params={"rc": tf.rc, "error": tf.error[:300]},
                             evidence=tf_ev, fix=["python -X faulthandler -c 'import tensorflow'"]))
    elif tf.status == "timeout":
        checks.append(_check("tf_import", "fail", "tf_timeout", evidence=tf_ev,
                             fix=["timeout 120 python -X faulthandler -c 'import tensorflow'",
                                  "AMD_LOG_LEVEL=4 python -c 'import tensorflow as tf; tf.config.list_physical_devices()'"]))
    else:
        checks.append(_check("tf_import", "ok", "tf_ok", params={"version": tf.version}, evidence=tf_ev))
    if tf.status != "ok":
        for cid in ("tf_build", "tf_gpu_visible", "matmul"):
            checks.append(_check(cid, "skipped", "skipped_tf_not_imported"))
        return checks

    # build type
    build = "rocm" if tf.built_with_rocm else "cuda" if tf.built_with_cuda else "cpu"
    names = {"rocm": "ROCm", "cuda": "CUDA", "cpu": "CPU"}
    b_ev = [f"tf.test.is_built_with_rocm() = {tf.built_with_rocm}", f"tf.test.is_built_with_cuda() = {tf.built_with_cuda}"]
    b_ev += [f"build_info[{k}] = {v}" for k, v in sorted(tf.build_info.items()) if "version" in k or k.startswith("is_")]
    if build == platform:
        checks.append(_check("tf_build", "ok", "build_ok", params={"build": names[build]}, evidence=b_ev))
    else:
        checks.append(_check("tf_build", "fail", "build_wrong", params={"build": names[build], "platform": names[platform]},
                             evidence=b_ev, fix=fix_import))
    # GPU visible
    vis_id = "tf_gpu_visible" if platform == "rocm" else "nv_tf_gpu_visible"
    g_ev = [f"tf.config.list_physical_devices('GPU') = {tf.gpus}"]
    if tf.gpus:
        checks.append(Check("tf_gpu_visible", "ok", "tf_gpus", params={"count": len(tf.gpus)}, evidence=g_ev,
                            source=source_for(vis_id)))
    else:
        checks.append(Check("tf_gpu_visible", "fail", "tf_no_gpus", evidence=g_ev + tf_ev[2:],
                            fix=["python -c \"import tensorflow as tf; print(tf.config.list_physical_devices())\" 2>&1 | tail"],
                            source=source_for(vis_id)))
        checks.append(_check("matmul", "skipped", "skipped_no_tf_gpu"))
        return checks
    m_ev = [f"result.device = {tf.matmul_device or '-'}", f"finite = {tf.matmul_ok}"]
    if tf.error:
        checks.append(_check("matmul", "fail", "matmul_error", params={"error": tf.error[:300]}, evidence=m_ev + tf_ev[2:]))
    elif "GPU" not in tf.matmul_device.upper():
        checks.append(_check("matmul", "fail", "matmul_on_cpu", params={"device": tf.matmul_device or "-"}, evidence=m_ev))
    elif not tf.matmul_ok:
        checks.append(_check("matmul", "fail", "matmul_bad", evidence=m_ev))
    else:
        checks.append(_check("matmul", "ok", "matmul_ok", params={"device": tf.matmul_device}, evidence=m_ev))
    return checks


# --- NVIDIA and no GPU -----------------------------------------------------------------------------------


def nvidia_checks(f: Facts) -> list[Check]:
    checks: list[Check] = []
    ev = [f"{f.nvidia_driver_source or '/proc/driver/nvidia/version'}: {f.nvidia_driver or 'absent'}"]
    ev += [f"{g.source}: {g.name} (compute capability {g.compute_capability or '?'})" for g in f.nvidia_gpus]
    if f.nvidia_cuda:
        ev.append(f"driver supports CUDA {f.nvidia_cuda}")
    if f.cuda_toolkit:
        ev.append(f"/usr/local/cuda/version.json: {f.cuda_toolkit}")
    if not f.nvidia_driver:
        checks.append(_check("nv_driver", "fail", "nv_driver_missing", evidence=ev,
                             fix=["sudo ubuntu-drivers install  # or NVIDIA's driver packages", "nvidia-smi"]))
    elif not f.nvidia_gpus:
        checks.append(_check("nv_driver", "fail", "nv_no_gpu", params={"driver": f.nvidia_driver}, evidence=ev,
                             fix=["nvidia-smi", "dmesg | grep -i nvrm"]))
    else:
        checks.append(_check("nv_driver", "ok", "nv_ok", params={"driver": f.nvidia_driver, "count": len(f.nvidia_gpus)},
                             evidence=ev))
    vis = visibility.cuda_visibility(f.env, f.gpu_count)
    checks.append(_visibility_check("nv_env_vars", vis, f, prefix="nv_")
                  or _check("nv_env_vars", "ok", "env_ok", evidence=vis.evidence()))
    # the wrong vendor's build is the verdict, before the import crash it causes
    dist = f.tf_dist
    if dist and dist[0] == "tensorflow-rocm":
        checks.append(_check("nv_wheel", "fail", "wrong_vendor_wheel", params={"dist": dist[0], "version": dist[1]},
                             evidence=[f"pip: {dist[0]}=={dist[1]}", "tensorflow-rocm is AMD's ROCm build"],
                             fix=[f"pip uninstall -y {dist[0]}", "pip install 'tensorflow[and-cuda]'"]))
    elif dist and dist[0] == "tensorflow-cpu":
        checks.append(_check("nv_wheel", "fail", "cpu_wheel", params={"dist": dist[0]},
                             evidence=[f"pip: {dist[0]}=={dist[1]}"],
                             fix=[f"pip uninstall -y {dist[0]}", "pip install 'tensorflow[and-cuda]'"]))
    elif dist:
        checks.append(_check("nv_wheel", "ok", "nv_wheel_ok", params={"dist": dist[0], "version": dist[1]},
                             evidence=[f"pip: {dist[0]}=={dist[1]}"]))
    else:
        checks.append(_check("nv_wheel", "skipped", "skipped_no_tf"))

    tf_version = tf_version_of(f)
    if not tf_version:
        checks.append(_check("nv_cuda", "skipped", "skipped_no_tf"))
    elif dist and dist[0] in ("tensorflow-rocm", "tensorflow-cpu"):
        checks.append(_check("nv_cuda", "skipped", "skipped_wrong_wheel"))
    else:
        try:
            req = compat.requirements_for(tf_version, "cuda")
        except ValueError:
            req = None
        if req is None:
            checks.append(_check("nv_cuda", "skipped", "tf_unlisted", params={"tf": tf_version}))
        else:
            r_ev = [f"TensorFlow {tf_version}: built with CUDA {req.cuda}, cuDNN {req.cudnn} ({req.source})",
                    f"driver minimum for CUDA {req.cuda}: {req.driver_min or 'not sourced'} ({req.driver_source})"]
            if f.nvidia_driver and req.driver_min and _v(f.nvidia_driver) < _v(req.driver_min):
                checks.append(_check("nv_cuda", "fail", "nv_driver_old",
                                     params={"driver": f.nvidia_driver, "minimum": req.driver_min, "cuda": req.cuda},
                                     evidence=ev + r_ev, fix=["sudo apt install nvidia-driver-<newer>", "nvidia-smi"]))
            else:
                checks.append(_check("nv_cuda", "ok", "nv_cuda_ok", params={"cuda": req.cuda or "?", "tf": tf_version},
                                     evidence=r_ev))
    checks += python_checks(f, "cuda")
    return checks


def no_gpu_checks(f: Facts) -> list[Check]:
    ev = ["/sys/module/amdgpu: absent", "/dev/kfd: absent", "/proc/driver/nvidia/version: absent",
          "NVML: no driver", "PCI: no AMD or NVIDIA display controller / accelerator"]
    tf_version = tf_version_of(f)
    fix = [
        "# AMD: install the amdgpu driver and ROCm, then a matching TensorFlow wheel",
        "sudo apt install amdgpu-dkms rocm  # after adding AMD's repository, see " + AMD_INSTALL_DOC,
        "# then the tensorflow-rocm build for that ROCm line: the doctor prints the exact pip command once ROCm is in",
        "# NVIDIA: install the NVIDIA driver, then",
        "pip install 'tensorflow[and-cuda]'",
    ]
    outcome = "no_gpu" if tf_version else "no_gpu_no_tf"
    checks = [Check("no_gpu", "fail", outcome, params={"tf": tf_version}, evidence=ev, fix=fix,
                    source=f"{AMD_INSTALL_DOC} | {TF_PIP_DOC} | {source_for('no_gpu')}")]
    checks += python_checks(f, "cpu")
    for c in checks:  # on a CPU-only host the GPU-side results are context, not extra failures
        if c.id in ("tf_build",) and c.status == "fail":
            c.status, c.outcome, c.blocking = "ok", "build_cpu", False
        if c.id in ("tf_gpu_visible", "matmul") and c.status == "fail":
            c.status, c.outcome = "skipped", "skipped_no_gpu"
    return checks


# --- report ------------------------------------------------------------------------------------------------


KERNEL_SIDE = ("driver", "device_nodes", "groups", "gpus", "env_vars", "gfx_supported", "nv_driver", "nv_env_vars")


def run_checks(f: Facts) -> list[Check]:
    platform = f.platform
    if platform == "amd":
        checks = amd_checks(f)
    elif platform == "nvidia":
        checks = nvidia_checks(f)
    else:
        checks = no_gpu_checks(f)
    return reconcile(checks)


def reconcile(checks: list[Check]) -> list[Check]:
    """A later check that saw the GPU work outranks an earlier one that says it cannot: a matmul that ran on the GPU
    turns an earlier kernel-side failure into a warning that names the contradiction (the probe read the wrong place),
    so a report never says both "no driver" and "the matmul ran on the GPU"."""
    matmul = next((c for c in checks if c.id == "matmul"), None)
    if matmul is None or matmul.status != "ok":
        return checks
    for c in checks:
        if c.id in KERNEL_SIDE and c.status == "fail":
            c.evidence = [f"was: {c.outcome}", *c.evidence, f"TensorFlow ran a matmul on {matmul.params.get('device')}"]
            c.status, c.outcome, c.blocking = "warn", "contradicted", False
            c.params = {"device": matmul.params.get("device", "GPU")}
            c.source = source_for(c.id, "contradicted")
    return checks


def verdict(checks: list[Check]) -> Check | None:
    """The first failing check, else the first warning, else None (all good)."""
    for status in ("fail", "warn"):
        for c in checks:
            if c.status == status:
                return c
    return None


def target_tensorflow(f: Facts, platform: str) -> str | None:
    """Without TensorFlow installed: the newest version the tables list for this machine (ROCm line or CUDA)."""
    if platform == "cuda":
        listed = compat.choices("tensorflow_cuda")
    else:
        listed = (compat.tensorflow_versions_for_rocm(f.rocm_version, ("rocm_release",)) if f.rocm_version else []) \
            or compat.choices("tensorflow_rocm")
    return listed[0] if listed else None


def _requirements(version: str | None, platform: str):
    if not version:
        return None
    try:
        return compat.requirements_for(version, platform)
    except ValueError:
        return None


def formula(f: Facts) -> FormulaResult:
    """Compatible = 1[v_D >= D_min] x 1[v_R >= R_min] x 1[v_T >= T_min] on the detected versions.

    Without TensorFlow the minimums are those of the newest TensorFlow listed for this machine, and the
    TensorFlow factor is 0 (nothing installed).
    """
    installed_tf = tf_version_of(f)
    platform = "cuda" if f.platform == "nvidia" else "rocm"
    target = None if installed_tf else target_tensorflow(f, platform)
    req = _requirements(installed_tf or target, platform)
    tf_have = compat.tensorflow_core(installed_tf) if installed_tf else None
    reason = "tf_unlisted" if installed_tf else "no_tf"
    factors: list[Factor] = []
    if platform == "cuda":
        if req and req.driver_min:
            factors.append(Factor("driver", f.nvidia_driver or None, req.driver_min, None, req.driver_source))
        else:
            factors.append(Factor("driver", f.nvidia_driver or None, None, None, reason="no_minimum"))
        if req and req.cuda:
            # minor-version compatibility: a driver for CUDA 12.x runs any 12.y runtime, so the major is the bar
            factors.append(Factor("cuda", f.nvidia_cuda or None, str(compat.raw_parts(req.cuda)[0]), None, req.source))
        else:
            factors.append(Factor("cuda", f.nvidia_cuda or None, None, None, reason=reason))
        if req:
            factors.append(Factor("tensorflow", tf_have, req.tensorflow_min, None, req.source))
        else:
            factors.append(Factor("tensorflow", installed_tf or None, None, None, reason=reason))
        return _evaluate("cuda", factors, target)
    req = _without_preview(req, installed_tf or target)
    # driver
    if f.wsl:
        factors.append(Factor("driver", None, None, None, reason="wsl_driver"))
    elif req is None or not req.driver_min:
        factors.append(Factor("driver", f.amdgpu_version or None, None, None, reason="no_minimum"))
    elif f.amdgpu_loaded and not f.amdgpu_version:
        factors.append(Factor("driver", None, _floor(req.driver_min), None, req.driver_source, reason="inbox_driver"))
    else:
        factors.append(Factor("driver", f.amdgpu_version or None, _floor(req.driver_min), None, req.driver_source))
    # ROCm
    if req is None:
        factors.append(Factor("rocm", f.rocm_version or None, None, None, reason=reason))
    elif not req.rocm_min:
        factors.append(Factor("rocm", f.rocm_version or None, None, None, reason="preview_only"))
    else:
        factors.append(Factor("rocm", f.rocm_version or None, _floor(req.rocm_min), None, req.source))
    # TensorFlow: the oldest version listed for the installed ROCm line (a too-old wheel for a new ROCm fails here)
    row = compat.release_row(f.rocm_version) if f.rocm_version else None
    t_min = compat.tensorflow_min_for_rocm(f.rocm_version) if f.rocm_version else None
    t_min = t_min or (req.tensorflow_min if req else None)
    if t_min:
        t_source = row.source if row and t_min else (req.source if req else "")
        factors.append(Factor("tensorflow", tf_have, t_min, None, t_source))
    else:
        factors.append(Factor("tensorflow", tf_have, None, None, reason="no_minimum"))
    return _evaluate("rocm", factors, target)


def _without_preview(req, tf: str | None):
    """The requirement with its ROCm minimum taken from released lines only: a preview / rc line is never a
    minimum. None stays None; rocm_min None when only preview lines list this TensorFlow."""
    if req is None or req.platform != "rocm" or not req.rocm_min:
        return req
    row = compat.release_row(req.rocm_min) if req.rocm_min else None
    if row is None or not row.preview:
        return req
    from dataclasses import replace

    released = [r for r in compat.rows() if r.rocm and not r.preview and r.lists_tensorflow(tf or "")
                and r.record_type in ("rocm_release", "docker_image", "pypi_wheel")]
    if not released:
        return replace(req, rocm_min=None, driver_min=None)
    oldest = min(released, key=lambda r: parse_version(r.rocm))
    drivers = [_floor(d) for d in oldest.drivers]
    return replace(req, rocm_min=oldest.rocm, driver_min=min(drivers, key=parse_version) if drivers else None,
                   source=oldest.source, driver_source=oldest.source if drivers else "")


def _floor(version: str | None) -> str | None:
    return version[:-2] if version and version.endswith(".x") else version


def _evaluate(platform: str, factors: list[Factor], target: str | None = None) -> FormulaResult:
    usable = {x.name: (x.installed, x.minimum) for x in factors if x.minimum}
    if not usable:
        return FormulaResult(platform, factors, None, target)
    comp = compatible(**usable)
    by_name = {i.name: i.ok for i in comp.indicators}
    evaluated = [Factor(x.name, x.installed, x.minimum, by_name.get(x.name), x.source, x.reason) for x in factors]
    return FormulaResult(platform, evaluated, comp, target)


@dataclass
class Report:
    facts: Facts
    checks: list[Check]
    formula: FormulaResult
    log_findings: list = field(default_factory=list)  # rocm_bridge.doctor.logs.Finding from TensorFlow's stderr

    @property
    def verdict(self) -> Check | None:
        return verdict(self.checks)

    @property
    def blocking_failure(self) -> bool:
        return any(c.status == "fail" and c.blocking for c in self.checks)

    @property
    def exit_code(self) -> int:
        return 1 if self.blocking_failure else 0

    def as_dict(self) -> dict:
        v = self.verdict
        return {
            "platform": self.facts.platform,
            "verdict": v.as_dict() if v else None,
            "exit_code": self.exit_code,
            "checks": [c.as_dict() for c in self.checks],
            "formula": self.formula.as_dict(),
            "log_findings": [x.as_dict() for x in self.log_findings],
            "facts": self.facts.as_dict(),
        }
