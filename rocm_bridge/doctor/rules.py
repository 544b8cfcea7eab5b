"""The checklist's verdict and the Compatible formula on real versions; NVIDIA and no-GPU checklists.

AMD checks live in rocm_bridge/doctor/amd.py (its steps in the amd_* modules), the shared pieces (Check, sources,
Python side) in checks.py. NVIDIA hosts get driver -> CUDA_VISIBLE_DEVICES -> the TensorFlow package's vendor ->
CUDA/driver minimums from tf_cuda_compat.csv -> the Python side; a host without any GPU gets one failing "GPU" check
(what it means, what to install) and the Python side. A final pass (reconcile) keeps a report from contradicting
itself. The first failing check is the verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rocm_bridge import compat
from rocm_bridge.doctor import fixes, visibility
from rocm_bridge.doctor.amd import amd_checks, rocm_repo
from rocm_bridge.doctor.amd_gfx import override_suggestion
from rocm_bridge.doctor.checks import (
    AMD_INSTALL_DOC,
    OUTCOME_ROWS,
    SOURCE_ROWS,
    STATUSES,
    TF_RELEASES_SOURCE,
    Check,
    _check,
    _v,
    _visibility_check,
    cuda_install_actions,
    installed_tf_dists,
    isa_families,
    isa_family,
    python_checks,
    source_for,
    tf_version_of,
    wsl_gfx,
)
from rocm_bridge.doctor.facts import Facts
from rocm_bridge.formulas import Compatibility, compatible
from rocm_bridge.versions import parse_version

__all__ = ["OUTCOME_ROWS", "SOURCE_ROWS", "STATUSES", "TF_RELEASES_SOURCE", "Check", "Factor", "FormulaResult",
           "Report", "amd_checks", "formula", "isa_families", "isa_family", "override_suggestion", "reconcile",
           "rocm_repo", "run_checks", "source_for", "verdict", "wsl_gfx"]


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
                             actions=[fixes.act("nv_driver", minimum="525.60.13")]))
    elif not f.nvidia_gpus and "gpus" in f.stale:
        checks.append(_check("nv_driver", "skipped", "stale_reprobe"))
    elif not f.nvidia_gpus:
        checks.append(_check("nv_driver", "fail", "nv_no_gpu", params={"driver": f.nvidia_driver}, evidence=ev,
                             fix=["nvidia-smi", "dmesg | grep -i nvrm"], person="nv_no_gpu"))
    else:
        checks.append(_check("nv_driver", "ok", "nv_ok", params={"driver": f.nvidia_driver, "count": len(f.nvidia_gpus)},
                             evidence=ev))
    vis = visibility.cuda_visibility(f.env, f.gpu_count)
    checks.append(_visibility_check("nv_env_vars", vis, f, prefix="nv_")
                  or _check("nv_env_vars", "ok", "env_ok", evidence=vis.evidence()))
    # the wrong vendor's build is the verdict, before the import crash it causes
    dist = f.tf_dist
    target = _cuda_target(f, dist)
    present = installed_tf_dists(f)
    w_ev = [f"pip: {d}=={f.packages[d]} ({f.installers.get(d, 'pip')})" for d in present]
    if dist and dist[0] == "tensorflow-rocm":
        checks.append(_check("nv_wheel", "fail", "wrong_vendor_wheel", params={"dist": dist[0], "version": dist[1],
                             "dists": ", ".join(present)},
                             evidence=[*w_ev, "tensorflow-rocm is AMD's ROCm build"],
                             actions=cuda_install_actions(f, target)))
    elif dist and dist[0] == "tensorflow-cpu" or len(present) > 1:
        checks.append(_check("nv_wheel", "fail", "cpu_wheel", params={"dist": dist[0], "dists": ", ".join(present)},
                             evidence=w_ev, actions=cuda_install_actions(f, target)))
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
                                     evidence=ev + r_ev, actions=[fixes.act("nv_driver", minimum=req.driver_min)]))
            else:
                checks.append(_check("nv_cuda", "ok", "nv_cuda_ok", params={"cuda": req.cuda or "?", "tf": tf_version},
                                     evidence=r_ev))
    checks.append(_cuda_libs_check(f, dist))
    checks += python_checks(f, "cuda", cuda_install_actions(f, target))
    return checks


def _cuda_target(f: Facts, dist) -> str:
    """The TensorFlow version to (re)install on NVIDIA: the installed one where it has a CUDA build, else the newest."""
    if dist:
        core = compat.tensorflow_core(dist[1])
        if any(r.tensorflow == core for r in compat.cuda_rows()):
            return core
    return compat.choices("tensorflow_cuda")[0]


def _cuda_libs_check(f: Facts, dist) -> Check:
    """`pip install tensorflow` on Linux ships no CUDA libraries; `tensorflow[and-cuda]` pulls cuDNN, cuBLAS and the
    runtime from PyPI (TensorFlow's pip.md, from 2.14). Without them, and without a system cuDNN, TensorFlow lists
    no GPU ("Cannot dlopen some GPU libraries") even though the import works."""
    if not dist or dist[0] != "tensorflow" or compat.raw_parts(compat.tensorflow_core(dist[1]))[:2] < (2, 14):
        return _check("nv_cuda_libs", "skipped", "skipped_no_tf")
    libs = [d for d in fixes.CUDA_LIB_DISTS if f.packages.get(d)]
    ev = [f"pip: {d}" for d in libs] or ["pip: no nvidia-cudnn-cu* / nvidia-cuda-runtime-cu* package"]
    ev.append(f"ldconfig -p: {'libcudnn found' if f.system_cudnn else 'no libcudnn'}")
    if f.tensorflow.status == "ok":
        ev.append(f"TensorFlow lists {len(f.tensorflow.gpus)} GPU(s)")
    old = _pip_cudnn_too_old(f, dist)
    if old:
        name, have, need = old
        ev.append(f"TensorFlow {dist[1]} was built with cuDNN {need} (data/tf_cuda_compat.csv)")
        return _check("nv_cuda_libs", "fail", "nv_cudnn_old", params={"dist": name, "have": have, "need": need},
                      evidence=ev, actions=[fixes.act("pip_install", spec=f"{name}>={need}", dist=name,
                                                      version=f"{need}.0", owner=name)])
    if libs or f.system_cudnn or f.tensorflow.gpus:
        return _check("nv_cuda_libs", "ok", "nv_cuda_libs_ok", evidence=ev)
    return _check("nv_cuda_libs", "fail", "nv_no_cuda_libs", params={"version": dist[1]}, evidence=ev,
                  actions=[fixes.act("pip_install", spec=f"tensorflow[and-cuda]=={compat.tensorflow_core(dist[1])}",
                                     dist="tensorflow", version=dist[1], owner="tensorflow",
                                     cuda_suffix=_cuda_suffix_of(dist[1]))])


def _pip_cudnn_too_old(f: Facts, dist) -> tuple[str, str, str] | None:
    """(package, installed, needed) when the pip cuDNN of TensorFlow's CUDA major is older than the cuDNN the build was
    compiled with. cuDNN must have the same major and an equal or higher minor version (TensorFlow's cuda_dnn.cc:
    "Loaded runtime CuDNN library: X but source was compiled with: Y"); another package (e.g. PyTorch) pinning an
    older nvidia-cudnn-cu12 in the same environment is the usual cause. A newer pip cuDNN, or none, is not judged."""
    try:
        req = compat.requirements_for(compat.tensorflow_core(dist[1]), "cuda")
    except ValueError:
        return None
    need = _v(req.cudnn if req else None)
    if not need or len(need) < 2:
        return None
    name = f"nvidia-cudnn-{_cuda_suffix_of(dist[1])}"
    have = f.packages.get(name)
    got = _v(have) if have and have[0] in "0123456789" else None
    if got and got[0] == need[0] and got[:2] < need[:2]:
        return name, have, f"{need[0]}.{need[1]}"
    return None


def _cuda_suffix_of(version: str) -> str:
    from rocm_bridge.doctor.checks import _cuda_suffix

    return _cuda_suffix(compat.tensorflow_core(version))


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
    if f.wsl and f.dxg_exists:  # WSL shares a Windows GPU through /dev/dxg: only the Linux-side stack is missing
        outcome = "wsl_no_stack"
        ev = [f.wsl_evidence, "/dev/dxg: present (a GPU is shared with WSL)", "ROCm: not installed",
              "NVML: no NVIDIA driver library"]
        fix = ["# AMD Radeon: ROCm for Linux in WSL, then librocdxg (https://github.com/ROCm/librocdxg)",
               "sudo apt install rocm  # after adding AMD's repository, see " + AMD_INSTALL_DOC,
               "export HSA_ENABLE_DXG_DETECTION=1",
               "# NVIDIA: the Windows NVIDIA driver provides CUDA in WSL; then pip install 'tensorflow[and-cuda]'"]
    checks = [_check("no_gpu", "fail", outcome, params={"tf": tf_version}, evidence=ev, fix=fix,
                     person="wsl_no_stack" if outcome == "wsl_no_stack" else "no_gpu")]
    checks += python_checks(f, "cpu")
    for c in checks:  # on a CPU-only host the GPU-side results are context, not extra failures
        if c.id in ("tf_build",) and c.status == "fail":
            c.status, c.outcome, c.blocking = "ok", "build_cpu", False
        if c.id in ("tf_gpu_visible", "matmul") and c.status == "fail":
            c.status, c.outcome = "skipped", "skipped_no_gpu"
    return checks


KERNEL_SIDE = ("driver", "device_nodes", "groups", "gpus", "env_vars", "gfx_supported", "nv_driver", "nv_env_vars")
# failures whose claim is that the first GPU kernel (the matmul) will fail: a matmul that ran contradicts them
MATMUL_CLAIMS = ("wheel_newer_rocm",)


def run_checks(f: Facts) -> list[Check]:
    platform = f.platform
    if platform == "amd":
        checks = amd_checks(f)
    elif platform == "nvidia":
        checks = nvidia_checks(f)
    else:
        checks = no_gpu_checks(f)
    checks = reconcile(checks)
    for c in checks:  # the fix text comes from the same actions the apply-the-fix test runs
        if c.actions:
            c.fix = fixes.commands(c.actions, f) + [x for x in c.fix if x not in fixes.commands(c.actions, f)]
    return checks


# failures that say the GPU cannot be reached at all: contradicted as soon as TensorFlow lists a GPU
NO_GPU_OUTCOMES = frozenset({
    "driver_missing", "kfd_missing", "dri_missing", "container_no_devices", "no_amd_gpu", "devices_hidden",
    "devices_hidden_rocr", "wsl_no_dxg", "wsl_no_gpu_agent", "nv_driver_missing", "nv_no_gpu", "nv_devices_hidden",
})


def reconcile(checks: list[Check]) -> list[Check]:
    """A later check that saw the GPU work outranks an earlier one that says it cannot. A matmul that ran on the GPU
    contradicts every earlier kernel-side failure; TensorFlow listing a GPU contradicts "no GPU can be reached"
    (no driver, no /dev/kfd, every GPU hidden). Such a failure becomes a warning that names the contradiction (the
    probe read the wrong place), so a report never says both "no driver" and "the matmul ran on the GPU"."""
    matmul = next((c for c in checks if c.id == "matmul" and c.status == "ok"), None)
    listed = next((c for c in checks if c.id == "tf_gpu_visible" and c.status == "ok"), None)
    if matmul is None and listed is None:
        return checks
    device = matmul.params.get("device", "GPU") if matmul else "GPU:0"
    for c in checks:
        side = c.id in KERNEL_SIDE or (matmul is not None and c.outcome in MATMUL_CLAIMS)
        if side and c.status == "fail" and (matmul is not None or c.outcome in NO_GPU_OUTCOMES):
            seen = (f"TensorFlow ran a matmul on {device}" if matmul else
                    f"TensorFlow lists {listed.params.get('count')} GPU(s)")
            c.evidence = [f"was: {c.outcome}", *c.evidence, seen]
            c.status, c.outcome, c.blocking = "warn", "contradicted" if matmul else "contradicted_listed", False
            c.params = {"device": device, "count": listed.params.get("count", "") if listed else ""}
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
            or sorted({v for r in compat.rows("rocm_release") if not r.preview for v in r.tensorflow},
                      key=parse_version, reverse=True)  # a preview line's dev build is no target
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
