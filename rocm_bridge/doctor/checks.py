"""The pieces every checklist shares: the Check record, where each rule's source comes from (data/env_checks.csv),
the visibility verdict, and the Python-side checks (NumPy / Keras / TensorFlow import, build, GPUs, matmul).

Each check carries a catalog outcome key (doctor.outcome.<outcome>) with parameters, raw evidence lines (paths,
values, command output: shown as code, never as HTML), fix commands and the source of its rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from rocm_bridge import compat
from rocm_bridge.doctor import visibility
from rocm_bridge.doctor.facts import TF_DISTS, Facts
from rocm_bridge.doctor.fixes import Action, act
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
    "python_packages": "tf_numpy_keras_versions",
    "tf_import": "linker_config",
    "tf_build": "tf_rocm_build",
    "tf_gpu_visible": "tf_rocm_build",
    "matmul": "tf_rocm_build",
    "nv_driver": "nvidia_smi",
    "nv_cuda": "driver_vs_runtime",
    "nv_env_vars": "cuda_visible_devices",
    "nv_tf_gpu_visible": "tf_cuda_build",
    "no_gpu": "no_gpu_host",
    "nv_wheel": "tf_vendor_wheel",
    "nv_cuda_libs": "tf_and_cuda",
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
    "override_same_isa": "hsa_override_target", "gfx_partial": "gfx_igpu",
    "wsl_driver": "wsl_dxg", "wsl_no_dxg": "wsl_dxg", "wsl_nodes": "wsl_dxg", "wsl_no_gpu_agent": "wsl_dxg",
    "wsl_gpu_unlisted": "wsl_dxg", "wsl_no_stack": "wsl_dxg", "wsl_rocm_old": "wsl_dxg",
    "container_no_devices": "container_devices", "container_group_missing": "container_devices",
    "container_options": "container_options",
    "python_no_wheel": "python_wheel", "wheel_other_line": "tf_wheel_match", "not_rocm_wheel": "tf_vendor_wheel",
    "wrong_vendor_wheel": "tf_vendor_wheel", "cpu_wheel": "tf_vendor_wheel", "nv_wheel_ok": "tf_vendor_wheel",
    "rocm_core_sdk": "rocm_core_sdk", "contradicted": "tf_rocm_build",
    "module_refused": "module_signing", "module_refused_no_key": "module_signing", "driver_not_loaded": "kmd_version",
    "podman_keep_groups": "container_rootless", "apptainer_no_devices": "container_rootless",
    "tf_builds_conflict": "tf_vendor_wheel", "wheel_newer_rocm": "tf_wheel_match",
    "gfx_hidden_supported": "gfx_igpu", "nv_no_cuda_libs": "tf_and_cuda", "nv_cuda_libs_ok": "tf_and_cuda",
    "nv_cudnn_old": "tf_cudnn_version", "rocm_lib_not_linked": "linker_config",
    "dkms_other_kernel": "dkms_kernel", "rocm_distro_pkgs": "distro_rocm_pkgs", "tf_build_lacks_gfx": "tf_build_targets",
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
    actions: list[Action] = field(default_factory=list)  # the fix as fact transformations (fixes.KINDS)
    person: str = ""  # catalog reason doctor.person.<person>: the fix is not a transformation of facts

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
            "actions": [{"kind": a.kind, **{k: str(v) for k, v in a.p.items()}} for a in self.actions],
            "person": self.person,
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


def _visibility_check(check_id: str, vis: visibility.Visibility, f: Facts, prefix: str = "") -> Check | None:
    """The verdict on the visibility variables: hidden (fail), entries dropped (warn), a subset chosen (ok)."""
    ev = vis.evidence()
    if f.tensorflow.status == "ok":
        ev.append(f"TensorFlow lists {len(f.tensorflow.gpus)} GPU(s)")
    if not vis.steps:
        return None
    last = vis.steps[-1]
    culprit = next((s for s in vis.steps if not s.kept), last)
    rocr = culprit.var == "ROCR_VISIBLE_DEVICES"
    if vis.total and vis.visible == 0:
        outcome = prefix + ("devices_hidden_rocr" if rocr else "devices_hidden")
        actions = _renumber_fix(vis, culprit) or [act("env_unset", var=culprit.var)]
        if visible_after(f, actions, prefix) == 0:  # the doctor's own rules: never a setting that leaves no GPU
            actions = [act("env_unset", var=s.var) for s in vis.steps]
        return _check(check_id, "fail", outcome, params={"var": culprit.var, "value": repr(culprit.value),
                      "total": vis.total, "pool": culprit.pool, "vars": ", ".join(s.var for s in vis.steps)},
                      evidence=ev, actions=actions)
    dropped = next((s for s in vis.steps if s.dropped), None)
    if dropped:
        outcome = prefix + ("devices_dropped_rocr" if dropped.var == "ROCR_VISIBLE_DEVICES" else "devices_dropped")
        return _check(check_id, "warn", outcome, params={"var": dropped.var, "value": repr(dropped.value),
                      "count": vis.visible, "total": vis.total, "kept": ", ".join(dropped.kept) or "-",
                      "dropped": ", ".join(dropped.dropped)}, evidence=ev,
                      actions=[act("env_set", var=dropped.var, value=",".join(dropped.kept))], blocking=False)
    return _check(check_id, "ok", prefix + "devices_selected" if prefix else "devices_selected",
                  params={"count": vis.visible, "total": vis.total}, evidence=ev)


def visible_after(f: Facts, actions: list[Action], prefix: str = "") -> int:
    """GPUs the process sees once the environment actions ran, by the same parsing rules."""
    env = dict(f.env)
    for a in actions:
        if a.kind == "env_unset":
            env.pop(a.p["var"], None)
        elif a.kind == "env_set":
            env[a.p["var"]] = a.p["value"]
    if prefix == "nv_":
        return visibility.cuda_visibility(env, f.gpu_count).visible
    return visibility.amd_visibility(env, f.gpu_count, [g.uuid for g in f.kfd_gpus],
                                     [u for u in f.gpu_uuids if u != "GPU-XX"]).visible


def select_gpus(f: Facts, keep: list[int]) -> list[Action]:
    """Environment actions after which the process sees exactly the physical (KFD) GPUs `keep`: ROCR_VISIBLE_DEVICES
    names them, and every other visibility variable that would index the kept list (HIP_VISIBLE_DEVICES,
    CUDA_VISIBLE_DEVICES) is unset, so no leftover value can hide them."""
    actions = [act("env_unset", var=v) for v in ("HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL")
               if v in f.env]
    if len(keep) < f.gpu_count:
        actions.append(act("env_set", var="ROCR_VISIBLE_DEVICES", value=",".join(str(i) for i in keep)))
    elif "ROCR_VISIBLE_DEVICES" in f.env:
        actions.append(act("env_unset", var="ROCR_VISIBLE_DEVICES"))
    return actions


def _renumber_fix(vis: visibility.Visibility, culprit: visibility.Step) -> list[Action]:
    """HIP indexes the GPUs ROCr kept: when the HIP entries name physical GPUs that ROCr kept, give their new numbers."""
    rocr = vis.steps[0] if vis.steps and vis.steps[0].var == "ROCR_VISIBLE_DEVICES" else None
    if rocr is None or culprit is rocr or not rocr.kept:
        return []
    wanted = [t.strip() for t in culprit.value.split(",")]
    if not all(t in rocr.kept for t in wanted):
        return []
    renumbered = ",".join(str(rocr.kept.index(t)) for t in wanted)
    return [act("env_set", var=culprit.var, value=renumbered)]


def installed_tf_dists(f: Facts) -> list[str]:
    return [d for d in TF_DISTS if f.packages.get(d)]


def reinstall(f: Facts, dist: str, version: str, index: str = "", spec: str = "") -> list[Action]:
    """Remove every TensorFlow build installed (they share the `tensorflow` directory, so the last one written wins
    and a plain reinstall says "already satisfied"), then install the right one with the manager that owned it."""
    owner = next((d for d in installed_tf_dists(f)), dist)
    out = []
    present = installed_tf_dists(f)
    if present:
        out.append(act("pip_uninstall", dists=present))
    out.append(act("pip_install", spec=spec or f"{dist}=={version}", index=index, dist=dist, version=version,
                   owner=owner, cuda_suffix=_cuda_suffix(version) if "and-cuda" in spec else ""))
    return out


def _cuda_suffix(tf_version: str) -> str:
    try:
        req = compat.requirements_for(tf_version, "cuda")
    except ValueError:
        req = None
    return f"cu{compat.raw_parts(req.cuda)[0]}" if req and req.cuda else "cu12"


def rocm_install_actions(f: Facts, pin) -> list[Action]:
    """Install a published tensorflow-rocm pin, replacing whatever TensorFlow is installed."""
    return reinstall(f, "tensorflow-rocm", pin.version, pin.index)


def cuda_install_actions(f: Facts, version: str) -> list[Action]:
    return reinstall(f, "tensorflow", version, spec=f"tensorflow[and-cuda]=={version}")


MISSING_LIB = re.compile(r"(lib[\w.+-]+\.so(?:\.\d+)*): cannot open shared object file")


def unlinked_rocm_lib(f: Facts) -> tuple[str, str] | None:
    """(soname, directory) when TensorFlow's import names a library that a ROCm prefix holds but the dynamic linker
    is not told about (no /etc/ld.so.conf.d entry, not on LD_LIBRARY_PATH): ROCm's post-install step was skipped.
    A soname that no ROCm prefix holds (another major, libamdhip64.so.5 on ROCm 6) is the wheel check's matter."""
    m = MISSING_LIB.search(f.tensorflow.error or "")
    if not m or m.group(1) not in f.rocm_libs:
        return None
    where = f.rocm_libs[m.group(1)]
    searched = {*f.ld_dirs, *(d.rstrip("/") for d in f.env.get("LD_LIBRARY_PATH", "").split(":") if d)}
    return None if where in searched else (m.group(1), where)


def python_checks(f: Facts, platform: str, install: list[Action] | None = None) -> list[Check]:
    """The Python side. `install`: the actions that install the right TensorFlow here (from the wheel check)."""
    checks: list[Check] = []
    tf_version = tf_version_of(f)
    tf_v = _v(compat.tensorflow_core(tf_version)) if tf_version else None
    numpy, keras, tf_keras = f.packages.get("numpy"), f.packages.get("keras"), f.packages.get("tf-keras")
    ev = [f"Python {f.python}", f"numpy {numpy or '-'}", f"keras {keras or '-'}", f"tf-keras {tf_keras or '-'}",
          f"TensorFlow {tf_version or '-'}"]
    if tf_v is None:
        checks.append(_check("python_packages", "skipped", "skipped_no_tf", evidence=ev))
    elif numpy and _v(numpy) >= (2,) and tf_v < (2, 18):
        checks.append(_check("python_packages", "fail", "numpy2_old_tf", params={"numpy": numpy, "tf": tf_version},
                             evidence=ev, actions=[act("pip_install", spec="numpy<2", dist="numpy", version="1.26.4",
                                                       owner="numpy", conda_ok="1")]))
    elif keras and _v(keras) >= (3,) and tf_v < (2, 16):
        minor = tf_v[1] if len(tf_v) > 1 else 0
        checks.append(_check("python_packages", "fail", "keras3_old_tf", params={"keras": keras, "tf": tf_version},
                             evidence=ev, actions=[act("pip_install", spec=f"keras<{tf_v[0]}.{minor + 1}", dist="keras",
                                                       version=f"{tf_v[0]}.{minor}.0", owner="keras", conda_ok="1")]))
    elif keras and _v(keras) < (3,) and tf_v >= (2, 16) and not tf_keras:
        checks.append(_check("python_packages", "warn", "keras2_new_tf", params={"keras": keras, "tf": tf_version},
                             evidence=ev, actions=[act("pip_install", spec=f"tf-keras~={tf_v[0]}.{tf_v[1]}.0",
                                                       dist="tf-keras", version=f"{tf_v[0]}.{tf_v[1]}.0", owner="keras"),
                                                   act("env_set", var="TF_USE_LEGACY_KERAS", value="1")],
                             blocking=False))
    else:
        checks.append(_check("python_packages", "ok", "packages_ok", evidence=ev))

    tf = f.tensorflow
    tf_ev = [f"status: {tf.status}", f"exit code: {tf.rc}"] + ([f"error: {tf.error}"] if tf.error else [])
    if tf.stderr_tail:
        tf_ev.append("stderr (last lines):\n" + "\n".join(tf.stderr_tail.strip().splitlines()[-15:]))
    install = install or []
    missing_fix = ({"actions": install} if install else
                   {"person": "no_published_build" if platform == "rocm" and f.rocm_version else "install_stack_first"})
    if tf.status == "not_run" and f.tf_dist is None:
        checks.append(_check("tf_import", "fail", "tf_missing", evidence=["pip: no tensorflow, tensorflow-rocm, "
                                                                          "tensorflow-cpu or tensorflow-gpu package"],
                             **missing_fix))
    elif tf.status == "not_run":
        checks.append(_check("tf_import", "skipped", "tf_not_run"))
    elif tf.status == "missing":
        checks.append(_check("tf_import", "fail", "tf_missing", evidence=tf_ev, **missing_fix))
    elif tf.status == "import_error" and platform == "rocm" and unlinked_rocm_lib(f):
        lib, where = unlinked_rocm_lib(f)
        checks.append(_check("tf_import", "fail", "rocm_lib_not_linked", params={"lib": lib, "dir": where},
                             evidence=[*tf_ev, f"{where}/{lib}: present",
                                       "dynamic linker directories: " + (", ".join(f.ld_dirs) or "(none for ROCm)"),
                                       f"LD_LIBRARY_PATH={f.env.get('LD_LIBRARY_PATH', '(unset)')}"],
                             actions=[act("ld_register", dir=where, lib=lib)]))
    elif tf.status == "import_error":
        checks.append(_check("tf_import", "fail", "tf_import_error", params={"error": tf.error[:300]}, evidence=tf_ev,
                             fix=["python -c 'import tensorflow'  # read the first error line",
                                  "ldconfig -p | grep -E 'amdhip64|hsa-runtime64|cudart'"], person="tf_import_error"))
    elif tf.status == "crash":
        checks.append(_check("tf_import", "fail", "tf_crash", params={"rc": tf.rc, "error": tf.error[:300]},
                             evidence=tf_ev, fix=["python -X faulthandler -c 'import tensorflow'"], person="tf_crash"))
    elif tf.status == "timeout":
        checks.append(_check("tf_import", "fail", "tf_timeout", evidence=tf_ev,
                             fix=["timeout 120 python -X faulthandler -c 'import tensorflow'",
                                  "AMD_LOG_LEVEL=4 python -c 'import tensorflow as tf; tf.config.list_physical_devices()'"],
                             person="tf_timeout"))
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
                             evidence=b_ev, **missing_fix))
    # GPU visible
    vis_id = "tf_gpu_visible" if platform == "rocm" else "nv_tf_gpu_visible"
    g_ev = [f"tf.config.list_physical_devices('GPU') = {tf.gpus}"]
    if tf.gpus:
        checks.append(Check("tf_gpu_visible", "ok", "tf_gpus", params={"count": len(tf.gpus)}, evidence=g_ev,
                            source=source_for(vis_id)))
    else:
        checks.append(Check("tf_gpu_visible", "fail", "tf_no_gpus", evidence=g_ev + tf_ev[2:],
                            fix=["python -c \"import tensorflow as tf; print(tf.config.list_physical_devices())\" 2>&1 | tail"],
                            source=source_for(vis_id), person="tf_no_gpus"))
        checks.append(_check("matmul", "skipped", "skipped_no_tf_gpu"))
        return checks
    m_ev = [f"result.device = {tf.matmul_device or '-'}", f"finite = {tf.matmul_ok}"]
    if tf.error:
        checks.append(_check("matmul", "fail", "matmul_error", params={"error": tf.error[:300]}, evidence=m_ev + tf_ev[2:],
                             person="matmul"))
    elif "GPU" not in tf.matmul_device.upper():
        checks.append(_check("matmul", "fail", "matmul_on_cpu", params={"device": tf.matmul_device or "-"}, evidence=m_ev,
                             person="matmul"))
    elif not tf.matmul_ok:
        checks.append(_check("matmul", "fail", "matmul_bad", evidence=m_ev, person="matmul"))
    else:
        checks.append(_check("matmul", "ok", "matmul_ok", params={"device": tf.matmul_device}, evidence=m_ev))
    return checks
