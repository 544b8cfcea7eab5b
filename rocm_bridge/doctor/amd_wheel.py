"""The AMD checklist's TensorFlow wheel step: does the installed TensorFlow package fit this ROCm line and Python?

wheel_check() tells the vendor of the installed build (tensorflow-rocm or not, two builds sharing site-packages),
which ROCm line it was built for (rocm_bridge.doctor.wheels), whether the compatibility tables or AMD's own images
pair it with this ROCm, and a build against a newer line (ROCm libraries are backward- but not forward-compatible).
Its fixes are the published build for this line and Python, a virtual environment with a Python that has one, or a
ready Docker image.
"""

from __future__ import annotations

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
