"""The AMD checklist's GPU steps: which GPUs there are, which ones this process sees, and whether their gfx targets
are supported.

gpu_checks() lists the GPUs (amd-smi / rocminfo, and the true targets from the KFD topology), applies the visibility
variables with ROCr's then HIP's parsing rules (rocm_bridge.doctor.visibility), and judges each visible GPU's gfx
target against the ROCm release's list, seeing through HSA_OVERRIDE_GFX_VERSION: an override inside one ISA family
(RDNA2's gfx10-3-generic) is harmless, one that masks a supported GPU or crosses families is not.
override_suggestion() names the override value an unsupported RDNA2/RDNA3 part could try.
"""

from __future__ import annotations

import re

from rocm_bridge import compat
from rocm_bridge.doctor import visibility
from rocm_bridge.doctor.checks import (
    Check,
    _check,
    _v,
    _visibility_check,
    isa_families,
    isa_family,
    select_gpus,
    wsl_gfx,
)
from rocm_bridge.doctor.facts import Facts
from rocm_bridge.doctor.facts_amd import gfx_from_override
from rocm_bridge.doctor.fixes import act

# the oldest ROCm line whose runtime librocdxg works with (env_checks.csv wsl_dxg: "librocdxg needs the ROCm 7.1+
# runtime"; its compatibility matrix lists ROCm 7.2.x)
WSL_MIN_ROCM = (7, 1)


def gpu_checks(f: Facts) -> list[Check]:
    """The GPUs check, the visibility-variables check, then the gfx-target check."""
    checks: list[Check] = []
    add = checks.append

    # 5. GPUs: the runtime's list (rocminfo / amd-smi) and the true targets in the KFD topology
    ev = [f"{g.source}: {g.name} ({g.gfx})" for g in f.amd_gpus] + f.gpu_source_notes
    ev += [f"{g.source}: gfx_target_version -> {g.gfx}" for g in f.kfd_gpus if g not in f.amd_gpus]
    gfx_list = sorted({g.gfx for g in (f.kfd_gpus or f.amd_gpus)})
    if f.amd_gpus:
        add(_check("gpus", "ok", "gpus_found", params={"count": f.gpu_count, "gfx": ", ".join(gfx_list)}, evidence=ev))
    elif "gpus" in f.stale:
        add(_check("gpus", "skipped", "stale_reprobe", evidence=["a fix changed the driver or runtime: run the doctor "
                                                                "again to list the GPUs"]))
    elif f.wsl and f.dxg_exists and f.rocm_version and compat.rocm_line(f.rocm_version) < WSL_MIN_ROCM:
        # librocdxg needs the ROCm 7.1+ runtime (its README); this line's runtime cannot reach /dev/dxg, so the
        # librocdxg steps alone cannot work: a newer ROCm comes first
        add(_check("gpus", "fail", "wsl_rocm_old", params={"rocm": f.rocm_version,
                   "minimum": ".".join(map(str, WSL_MIN_ROCM))}, evidence=ev or ["rocminfo lists no GPU agent"],
                   actions=[act("pkg_install", packages=["rocm"], line="7.2"),
                            act("env_set", var="HSA_ENABLE_DXG_DETECTION", value="1")],
                   fix=["# then build and install librocdxg: https://github.com/ROCm/librocdxg",
                        "rocminfo | grep -E 'Name:|Device Type'"]))
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
    return checks


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
