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
TF_RELEASES_SOURCE = "github.com/tensorflow/tensorflow RELEASES.md (2.16: Keras 3 default; 2.18: NumPy 2.0 support)"
AMD_INSTALL_DOC = "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/"
TF_PIP_DOC = "https://www.tensorflow.org/install/pip"


@lru_cache(maxsize=1)
def _env_sources() -> dict[str, str]:
    from rocm_bridge.data import read_csv

    return {row["check_id"]: row["source"] for row in read_csv("env_checks.csv")}


def source_for(check_id: str) -> str:
    return _env_sources().get(SOURCE_ROWS.get(check_id, check_id), "")


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
    return Check(check_id, status, outcome, source=source_for(check_id), **kw)


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

    # 1. amdgpu kernel driver
    pci_amd = [g for g in f.pci_gpus if g["vendor"] == "amd"]
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

    # 2. ROCm user space
    ev = [f"ROCM_PATH={f.env.get('ROCM_PATH', '(unset)')}", f"/opt: {', '.join(f.rocm_dirs) or '(no rocm* directories)'}"]
    if f.rocm_version:
        ev.insert(0, f"{f.rocm_version_file}: {f.rocm_version}")
        rocm_path = f.env.get("ROCM_PATH", "").rstrip("/")
        if rocm_path and not f.rocm_version_file.startswith(rocm_path + "/"):
            add(_check("rocm_install", "warn", "rocm_path_mismatch", params={"version": f.rocm_version, "path": rocm_path},
                       evidence=ev, fix=[f"export ROCM_PATH={f.rocm_version_file.rsplit('/.info', 1)[0]}"], blocking=False))
        else:
            add(_check("rocm_install", "ok", "rocm_ok", params={"version": f.rocm_version}, evidence=ev))
    else:
        add(_check("rocm_install", "fail", "rocm_missing", evidence=ev,
                   fix=["sudo apt install rocm  # after adding AMD's repository, see " + AMD_INSTALL_DOC,
                        "cat /opt/rocm/.info/version"]))

    # 3. device nodes exist and can be opened (permission problems a group membership would not fix)
    ev = [f"/dev/kfd: {_node_text(f.kfd_access) if f.kfd_exists else 'absent'}"]
    ev += [f"{path}: {_node_text(acc)}" for path, acc in f.render_nodes.items()] or ["/dev/dri/renderD*: absent"]
    denied = _denied_nodes(f)
    group_fixable = [n for n in denied if n[1] and n[1] not in f.groups and n[1] != "root"]
    if not f.kfd_exists:
        add(_check("device_nodes", "fail", "kfd_missing", evidence=ev,
                   fix=["sudo modprobe amdgpu", "ls -l /dev/kfd /dev/dri/renderD*",
                        "docker run --device=/dev/kfd --device=/dev/dri --group-add video --group-add render ..."]))
    elif not f.render_nodes:
        add(_check("device_nodes", "fail", "dri_missing", evidence=ev,
                   fix=["ls -l /dev/dri", "docker run --device=/dev/kfd --device=/dev/dri ..."]))
    elif denied and not group_fixable:
        add(_check("device_nodes", "fail", "kfd_denied", params={"nodes": ", ".join(n[0] for n in denied)}, evidence=ev,
                   fix=["ls -l /dev/kfd /dev/dri/renderD*",
                        "# expected: crw-rw---- root render; udev rules come with the amdgpu driver package",
                        "docker run --device=/dev/kfd --device=/dev/dri --group-add video --group-add render ..."]))
    else:
        add(_check("device_nodes", "ok", "nodes_ok", evidence=ev))

    # 4. groups
    ev = [f"user: {f.user}", f"groups: {', '.join(f.groups) or '(none)'}"]
    if group_fixable:
        needed = sorted({n[1] for n in group_fixable})
        add(_check("groups", "fail", "group_missing", params={"user": f.user, "groups": ", ".join(needed)}, evidence=ev,
                   fix=["sudo usermod -a -G render,video $LOGNAME", "# then log out and in again (or reboot)", "groups"]))
    elif f.kfd_exists and not denied:
        missing = [g for g in ("render", "video") if g not in f.groups]
        if missing and f.user != "root":
            add(_check("groups", "warn", "groups_partial", params={"groups": ", ".join(missing)}, evidence=ev,
                       fix=["sudo usermod -a -G render,video $LOGNAME"], blocking=False))
        else:
            add(_check("groups", "ok", "groups_ok", evidence=ev))
    else:
        add(_check("groups", "skipped", "skipped_no_nodes", evidence=ev))

    # 5. GPUs and gfx targets
    ev = [f"{g.source}: {g.name} ({g.gfx})" for g in f.amd_gpus] + f.gpu_source_notes
    gfx_list = sorted({g.gfx for g in f.amd_gpus})
    if f.amd_gpus:
        add(_check("gpus", "ok", "gpus_found", params={"count": len(f.amd_gpus), "gfx": ", ".join(gfx_list)}, evidence=ev))
    elif not f.kfd_exists or not f.amdgpu_loaded:
        add(_check("gpus", "skipped", "skipped_no_driver", evidence=ev or ["no GPU agents: driver or /dev/kfd missing"]))
    else:
        add(_check("gpus", "fail", "no_amd_gpu", evidence=ev or ["amdsmi, rocminfo and /sys/class/kfd list no GPU"],
                   fix=["rocminfo | grep -E 'Name:|Device Type'", "ls /sys/class/kfd/kfd/topology/nodes"]))

    # 6. visible-device variables
    add(_env_check("env_vars", f, ("HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES",
                                   "GPU_DEVICE_ORDINAL")))

    # 7. gfx target supported by this ROCm / TensorFlow line
    add(_gfx_check(f, gfx_list))

    # 8. ROCm <-> TensorFlow wheel
    add(_wheel_check(f))

    checks += python_checks(f, "rocm")
    return checks


def _node_text(acc: dict) -> str:
    rw = ("r" if acc.get("r") else "-") + ("w" if acc.get("w") else "-")
    return f"{rw} for this user, group {acc.get('group') or '?'}"


def _denied_nodes(f: Facts) -> list[tuple[str, str | None]]:
    nodes = ([("/dev/kfd", f.kfd_access)] if f.kfd_exists else []) + list(f.render_nodes.items())
    return [(path, acc.get("group")) for path, acc in nodes if not (acc.get("r") and acc.get("w"))]


def _env_check(check_id: str, f: Facts, names: tuple[str, ...]) -> Check:
    ev = [f"{n}={f.env[n]!r}" for n in names if n in f.env] or ["no *_VISIBLE_DEVICES variable set"]
    hidden = [n for n in names if _hidden(f.env.get(n))]
    if hidden:
        return _check(check_id, "fail", "devices_hidden", params={"vars": ", ".join(hidden)}, evidence=ev,
                      fix=[f"unset {n}" for n in hidden])
    set_vars = [n for n in names if n in f.env]
    values = {f.env[n].strip() for n in set_vars}
    if len(values) > 1:
        return _check(check_id, "warn", "devices_conflict", params={"vars": ", ".join(set_vars)}, evidence=ev,
                      fix=[f"unset {n}" for n in set_vars[1:]], blocking=False)
    ld = f.env.get("LD_LIBRARY_PATH", "")
    if check_id == "env_vars" and f.rocm_version_file:
        prefix = f.rocm_version_file.rsplit("/.info", 1)[0]
        installed = _v(f.rocm_version)
        # /opt/rocm is usually a link to /opt/rocm-<installed version>: only another version is a problem
        others = sorted({m for m in re.findall(r"/opt/rocm-\d+(?:\.\d+)*", ld)
                         if not prefix.startswith(m) and _v(m.split("-", 1)[1]) != installed})
        if others:
            ev.append(f"LD_LIBRARY_PATH={ld!r}")
            return _check(check_id, "warn", "ld_path_other_rocm", params={"paths": ", ".join(others), "prefix": prefix},
                          evidence=ev, fix=[f"export LD_LIBRARY_PATH={prefix}/lib"], blocking=False)
    return _check(check_id, "ok", "env_ok", evidence=ev)


def override_suggestion(gfx: str) -> str | None:
    """The community HSA_OVERRIDE_GFX_VERSION value for a consumer RDNA GPU (unsupported workaround)."""
    if re.fullmatch(r"gfx103[0-9a-f]", gfx):
        return "10.3.0"
    if re.fullmatch(r"gfx110[0-9a-f]", gfx):
        return "11.0.0"
    return None


def _gfx_check(f: Facts, gfx_list: list[str]) -> Check:
    if not gfx_list:
        return _check("gfx_supported", "skipped", "skipped_no_gpu")
    if not f.rocm_version:
        return _check("gfx_supported", "skipped", "skipped_no_rocm")
    supported = compat.gfx_targets_for_rocm(f.rocm_version)
    if not supported:
        return _check("gfx_supported", "skipped", "gfx_list_unknown", params={"rocm": f.rocm_version})
    row = compat.release_row(f.rocm_version)
    ev = [f"GPU gfx: {', '.join(gfx_list)}", f"ROCm {row.rocm if row else f.rocm_version} lists: {', '.join(supported)}"]
    override = f.env.get("HSA_OVERRIDE_GFX_VERSION")
    if override is not None:
        ev.append(f"HSA_OVERRIDE_GFX_VERSION={override!r}")
    unsupported = [g for g in gfx_list if g not in supported]
    common = {"supported": ", ".join(supported), "rocm": f.rocm_version}
    if not unsupported:
        if override:
            return _check("gfx_supported", "warn", "override_on_supported", params={**common, "gfx": ", ".join(gfx_list)},
                          evidence=ev, fix=["unset HSA_OVERRIDE_GFX_VERSION"], blocking=False)
        return _check("gfx_supported", "ok", "gfx_ok", params={**common, "gfx": ", ".join(gfx_list)}, evidence=ev)
    gfx = ", ".join(unsupported)
    if override:
        effective = gfx_from_override(override)
        if effective and effective in supported:
            return _check("gfx_supported", "warn", "override_in_use", params={**common, "gfx": gfx, "effective": effective},
                          evidence=ev, blocking=False)
        return _check("gfx_supported", "fail", "override_bad", params={**common, "gfx": gfx, "value": override},
                      evidence=ev, fix=["unset HSA_OVERRIDE_GFX_VERSION"])
    suggestion = override_suggestion(unsupported[0])
    fix = ["# use a GPU listed for your ROCm release (see the compatibility matrix)"]
    if suggestion:
        fix.append(f"export HSA_OVERRIDE_GFX_VERSION={suggestion}  # unsupported community workaround")
    return _check("gfx_supported", "fail", "gfx_unsupported", params={**common, "gfx": gfx}, evidence=ev, fix=fix)


def _wheel_check(f: Facts) -> Check:
    dist = f.tf_dist
    ev = [f"pip: {name}=={version}" for name, version in f.packages.items() if version and "tensorflow" in name]
    ev = ev or ["no TensorFlow package installed"]
    if f.rocm_version:
        ev.append(f"ROCm {f.rocm_version}")
    listed = compat.tensorflow_versions_for_rocm(f.rocm_version) if f.rocm_version else []
    if listed:
        ev.append(f"tf_rocm_compat.csv lists for this ROCm line: {', '.join(listed)}")
    best = listed[0] if listed else ""
    install = (f"pip install tensorflow-rocm=={best} -f {rocm_repo(f.rocm_version)}" if best and f.rocm_version
               else "pip install tensorflow-rocm  # version matching your ROCm, see tf_rocm_compat.csv")
    if dist is None:
        return _check("wheel_match", "fail", "tf_missing", evidence=ev, fix=[install])
    name, version = dist
    if name != "tensorflow-rocm":
        return _check("wheel_match", "fail", "not_rocm_wheel", params={"dist": name, "version": version}, evidence=ev,
                      fix=[f"pip uninstall -y {name}", install])
    if not f.rocm_version:
        return _check("wheel_match", "skipped", "skipped_no_rocm", evidence=ev)
    row = compat.pair_listed(f.rocm_version, version)
    if row is not None:
        ev.append(f"listed: {row.record_type} ROCm {row.rocm} / TF {', '.join(row.tensorflow)}")
        return _check("wheel_match", "ok", "wheel_ok", params={"version": version, "rocm": f.rocm_version}, evidence=ev)
    built_for = compat.wheel_rocm_version(version)
    if built_for and compat.rocm_line(built_for) == compat.rocm_line(f.rocm_version):
        return _check("wheel_match", "warn", "wheel_unlisted", params={"version": version, "rocm": f.rocm_version},
                      evidence=ev, blocking=False)
    return _check("wheel_match", "fail", "wheel_mismatch",
                  params={"version": version, "rocm": f.rocm_version, "built_for": built_for or "?",
                          "listed": ", ".join(listed) or "-"},
                  evidence=ev + ([f"{version} encodes ROCm {built_for}"] if built_for else []),
                  fix=[f"pip uninstall -y {name}", install])


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
    fix_import = (["pip install tensorflow-rocm  # matching your ROCm, see the wheel check"] if platform == "rocm"
                  else ["pip install 'tensorflow[and-cuda]'"])
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
    checks.append(_env_check("nv_env_vars", f, ("CUDA_VISIBLE_DEVICES",)))

    tf_version = tf_version_of(f)
    dist = f.tf_dist
    if not tf_version:
        checks.append(_check("nv_cuda", "skipped", "skipped_no_tf"))
    else:
        try:
            req = compat.requirements_for(tf_version, "cuda")
        except ValueError:
            req = None
        if req is None:
            checks.append(_check("nv_cuda", "skipped", "tf_unlisted", params={"tf": tf_version}))
        elif dist and dist[0] == "tensorflow-cpu":
            checks.append(_check("nv_cuda", "fail", "cpu_wheel", params={"dist": dist[0]},
                                 evidence=[f"pip: {dist[0]}=={dist[1]}"],
                                 fix=[f"pip uninstall -y {dist[0]}", "pip install 'tensorflow[and-cuda]'"]))
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
        "pip install tensorflow-rocm==<version> -f https://repo.radeon.com/rocm/manylinux/rocm-rel-X.Y/",
        "# NVIDIA: install the NVIDIA driver, then",
        "pip install 'tensorflow[and-cuda]'",
    ]
    checks = [Check("no_gpu", "fail", "no_gpu", params={"tf": tf_version or "-"}, evidence=ev, fix=fix,
                    source=f"{AMD_INSTALL_DOC} | {TF_PIP_DOC} | {source_for('no_gpu')}")]
    checks += python_checks(f, "cpu")
    for c in checks:  # on a CPU-only host the GPU-side results are context, not extra failures
        if c.id in ("tf_build",) and c.status == "fail":
            c.status, c.outcome, c.blocking = "ok", "build_cpu", False
        if c.id in ("tf_gpu_visible", "matmul") and c.status == "fail":
            c.status, c.outcome = "skipped", "skipped_no_gpu"
    return checks


# --- report ------------------------------------------------------------------------------------------------


def run_checks(f: Facts) -> list[Check]:
    platform = f.platform
    if platform == "amd":
        return amd_checks(f)
    if platform == "nvidia":
        return nvidia_checks(f)
    return no_gpu_checks(f)


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
    # driver
    if req is None or not req.driver_min:
        factors.append(Factor("driver", f.amdgpu_version or None, None, None, reason="no_minimum"))
    elif f.amdgpu_loaded and not f.amdgpu_version:
        factors.append(Factor("driver", None, _floor(req.driver_min), None, req.driver_source, reason="inbox_driver"))
    else:
        factors.append(Factor("driver", f.amdgpu_version or None, _floor(req.driver_min), None, req.driver_source))
    # ROCm
    if req is None:
        factors.append(Factor("rocm", f.rocm_version or None, None, None, reason=reason))
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
