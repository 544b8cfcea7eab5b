"""The AMD checklist's TensorFlow wheel step: does the installed TensorFlow package fit this ROCm line and Python?

wheel_check() tells the vendor of the installed build (tensorflow-rocm or not, two builds sharing site-packages),
which ROCm line it was built for (rocm_bridge.doctor.wheels), whether the compatibility tables or AMD's own images
pair it with this ROCm, and a build against a newer line (ROCm libraries are backward- but not forward-compatible).
Its fixes are the published build for this line and Python, a virtual environment with a Python that has one, or a
ready Docker image.
"""

from __future__ import annotations

import re

from rocm_bridge import compat
from rocm_bridge.doctor import wheels
from rocm_bridge.doctor.checks import Check, _check, _v, installed_tf_dists, rocm_install_actions
from rocm_bridge.doctor.facts import Facts
from rocm_bridge.doctor.fixes import act


def _image_action(tag: str):
    row = next((r for r in compat.rows("docker_image") if r.docker_tag == tag), None)
    return act("use_image", image=tag, tf=row.tensorflow[0] if row and row.tensorflow else "",
               python=row.python[0] if row and row.python else "", rocm=row.rocm if row else "")


def wheel_check(f: Facts) -> Check:
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
    lacking = build_lacks_gfx(f)
    if lacking:
        return _build_lacks_gfx(f, lacking, version, pins, images, ev)
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


# TensorFlow's own list (tensorflow/core/common_runtime/gpu/gpu_device.cc): a GPU whose gfx is not one of the build's
# comma-separated targets is ignored; the list is compared token by token, so "gfx1030gfx1100" (the missing comma of
# the 2.14.0.600 wheels, ROCm/tensorflow-upstream#2410) holds neither gfx1030 nor gfx1100.
IGNORED = re.compile(r"Ignoring visible gpu device .{0,200}?AMDGPU version\s*:\s*(gfx[0-9a-f]+)\.\s*"
                     r"The supported AMDGPU versions are\s*([^\n]*?)\.?\s*$", re.M)


def build_lacks_gfx(f: Facts) -> tuple[str, list[str]] | None:
    """(gfx, the build's targets) when TensorFlow says it ignores a GPU that this ROCm line supports: the build, not
    the GPU, is what fails. A GPU the ROCm line does not list is the gfx check's verdict, not this one."""
    m = IGNORED.search(f.tensorflow.stderr_tail or "")
    if not m or not f.rocm_version:
        return None
    gfx, tokens = m.group(1), [t.strip() for t in m.group(2).split(",") if t.strip()]
    if gfx in tokens or gfx not in compat.gfx_targets_for_rocm(f.rocm_version):
        return None
    return gfx, tokens


def _build_lacks_gfx(f: Facts, lacking, version: str, pins: list, images: list[str], ev: list[str]) -> Check:
    """Another release of the same line may have been built from the same target list (2.13 predates gfx1100 in
    TensorFlow's list), so it is not offered; AMD's image of the newest line brings a build that lists the GPU."""
    gfx, tokens = lacking
    ev = [*ev, f"TensorFlow's log: ignoring {gfx}; the build's targets: {' | '.join(tokens)}"]
    params = {"version": version, "gfx": gfx, "targets": ", ".join(tokens), "rocm": f.rocm_version}
    newest = wheels.docker_images(None, f.python) or wheels.docker_images(None)
    if not newest:
        return _check("wheel_match", "fail", "tf_build_lacks_gfx", params=params, evidence=ev,
                      person="no_published_build")
    return _check("wheel_match", "fail", "tf_build_lacks_gfx", params=params, evidence=ev,
                  actions=[_image_action(newest[0])], fix=[_driver_note(f, newest[0], "")])


def _driver_note(f: Facts, tag: str, fits_text: str) -> str:
    """The line that says whether the host's amdgpu driver is one AMD lists for the image's ROCm."""
    image_rocm = next((r.rocm for r in compat.rows("docker_image") if r.docker_tag == tag), "")
    listed = compat.drivers_for_rocm(image_rocm) if image_rocm else ()
    host = compat.raw_parts(f.amdgpu_version)[:2] if f.amdgpu_version else None
    fits = host is not None and any(compat.raw_parts(d)[:2] == host for d in listed)
    if fits:
        return fits_text or f"# this host's amdgpu driver ({f.amdgpu_version}) is one AMD lists for ROCm {image_rocm}"
    if not listed:
        return fits_text or f"# check that this host's amdgpu driver is listed for ROCm {image_rocm or '?'}"
    return f"# the image needs an amdgpu driver listed for ROCm {image_rocm} ({', '.join(listed)}): update the host driver first"
