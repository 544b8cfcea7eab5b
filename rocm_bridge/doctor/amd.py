"""The AMD checklist: amdgpu driver (or WSL's /dev/dxg) -> ROCm user space (legacy or ROCm Core SDK layout) ->
device nodes (container-aware) -> groups (the group that owns each node) -> GPUs (runtime list and KFD topology) ->
visibility variables (ROCr then HIP) -> gfx support judged on the true target (HSA_OVERRIDE_GFX_VERSION) -> the
TensorFlow wheel (vendor, ROCm line, Python) -> the shared Python-side checks.

The steps live by probe family: amd_driver (driver, ROCm install), amd_nodes (device nodes, groups), amd_gfx (GPUs,
visibility variables, gfx support) and amd_wheel (the TensorFlow wheel); this module runs them in order.
"""

from __future__ import annotations

from rocm_bridge.doctor import wheels
from rocm_bridge.doctor.amd_driver import driver_checks
from rocm_bridge.doctor.amd_gfx import gpu_checks
from rocm_bridge.doctor.amd_nodes import node_checks
from rocm_bridge.doctor.amd_wheel import wheel_check
from rocm_bridge.doctor.checks import Check, python_checks, rocm_install_actions
from rocm_bridge.doctor.facts import Facts

rocm_repo = wheels.repo_url  # the repo.radeon.com wheel directory of a ROCm line


def amd_checks(f: Facts) -> list[Check]:
    # 1-2. kernel driver, ROCm user space; 3-4. device nodes, groups; 5-7. GPUs, visible-device variables, gfx target
    checks = [*driver_checks(f), *node_checks(f), *gpu_checks(f)]

    # 8. ROCm <-> TensorFlow wheel (vendor, line, Python)
    wheel = wheel_check(f)
    checks.append(wheel)

    install = wheel.actions if wheel.outcome in ("tf_missing", "not_rocm_wheel", "wheel_mismatch", "python_no_wheel",
                                                 "tf_builds_conflict", "wheel_newer_rocm") else []
    if not install and f.rocm_version:
        pin, _ = wheels.best_pin(f.rocm_version, f.python)
        install = rocm_install_actions(f, pin) if pin else []
    checks += python_checks(f, "rocm", install)
    return checks
