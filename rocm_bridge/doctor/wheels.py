"""Which ROCm a TensorFlow wheel was built for, and install commands that resolve to published wheels.

Everything comes from data/tf_rocm_compat.csv through rocm_bridge.compat:

- PyPI era (ROCm < 6.1): `pypi_wheel` rows name the exact package (tensorflow-rocm==2.14.0.600), the ROCm it was
  built on and the Python versions it has wheels for. The pin is that exact version; the index is PyPI.
- AMD repository era (ROCm >= 6.1, "As of ROCm 6.1, tensorflow-rocm packages are found at
  https://repo.radeon.com/rocm/manylinux", tensorflow-install.rst): wheels carry the TensorFlow version only
  (2.16.1), one directory per ROCm line (rocm-rel-X.Y). The `rocm_release` row of that line lists them; the
  Python versions known are those of the row and of the line's Docker images.
- Preview lines (rows marked preview) never give a pin or a minimum: their Docker images are offered instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from rocm_bridge import compat
from rocm_bridge.versions import parse_version

PYPI_INDEX = "https://pypi.org/simple"
REPO_ERA = (6, 1)


@dataclass(frozen=True)
class Pin:
    version: str  # exact published version: "2.14.0.600", "2.17.0"
    index: str  # PyPI simple index or the repo.radeon.com directory
    pythons: tuple[str, ...]  # major.minor with wheels (or images) for this build; empty: not sourced
    pythons_exact: bool  # True: wheel tags (PyPI rows); False: only the line's image Pythons are known
    source: str

    @property
    def command(self) -> str:
        if self.index == PYPI_INDEX:
            return f"pip install tensorflow-rocm=={self.version} --index-url {PYPI_INDEX}"
        return f"pip install tensorflow-rocm=={self.version} -f {self.index}"

    def has_python(self, python: str) -> bool | None:
        if not self.pythons:
            return None
        return _minor(python) in self.pythons


def _minor(python: str) -> str:
    parts = str(python).split(".")
    return ".".join(parts[:2])


def repo_url(rocm: str) -> str:
    major, minor = compat.rocm_line(rocm)
    return f"https://repo.radeon.com/rocm/manylinux/rocm-rel-{major}.{minor}/"


def built_for(package_version: str) -> list[str]:
    """ROCm the wheel was built for: the encoded suffix (2.14.0.600 -> 6.0.0), else the PyPI row of that exact release
    (2.9.4 -> 5.4.0), else the non-preview release lines
    whose row lists exactly this TensorFlow version (AMD repository names: 2.16.1 -> 6.2.x). Empty: not in the table."""
    encoded = compat.wheel_rocm_version(package_version)
    if encoded:
        return [encoded]
    on_pypi = [r.rocm for r in compat.rows("pypi_wheel") if r.rocm and r.package == f"tensorflow-rocm=={package_version}"]
    if on_pypi:  # PyPI releases before the 4th-field scheme (2.9.4 was built on ROCm 5.4.0)
        return on_pypi
    core = compat.tensorflow_core(package_version)
    lines = [r.rocm for r in compat.rows("rocm_release") if not r.preview and r.rocm
             and any(v.count(".") == 2 and compat.tf_matches(v, core) for v in r.tensorflow)]
    return sorted(set(lines), key=parse_version, reverse=True)


def _image_pythons(rocm: str) -> tuple[str, ...]:
    line = compat.rocm_line(rocm)
    out = {p for r in compat.rows("docker_image") if r.rocm and compat.rocm_line(r.rocm) == line for p in r.python}
    row = compat.release_row(rocm)
    out |= set(row.python) if row else set()
    out = {p for p in out if int(p.split(".")[1]) >= 5}  # "6.3.3 images" is not Python 3.3
    return tuple(sorted(out, key=parse_version, reverse=True))


def pins_for(rocm: str) -> list[Pin]:
    """Published tensorflow-rocm builds for this ROCm line, newest first."""
    line = compat.rocm_line(rocm)
    if line < REPO_ERA:
        out = []
        for r in compat.rows("pypi_wheel"):
            if r.rocm and compat.rocm_line(r.rocm) == line and r.package.startswith("tensorflow-rocm=="):
                out.append(Pin(r.package.split("==", 1)[1], PYPI_INDEX, r.python, True, r.source))
        return sorted(out, key=lambda p: parse_version(p.version), reverse=True)
    row = compat.release_row(rocm)
    if row is None or row.preview:
        return []
    pythons = _image_pythons(rocm)
    versions = [v for v in row.tensorflow if v.count(".") == 2]
    # Where AMD published rocm/tensorflow images for this line, keep the versions the images confirm: the release
    # row can name a later point build (7.0.x lists 2.19.1; rocm-rel-7.0 and its images hold 2.19.0).
    imaged = {v for r in compat.rows("docker_image") if r.rocm and not r.preview
              and compat.rocm_line(r.rocm) == line for v in r.tensorflow}
    if imaged:
        versions = [v for v in versions if v in imaged]
    return [Pin(v, repo_url(rocm), pythons, False, row.source)
            for v in sorted(versions, key=parse_version, reverse=True)]


def best_pin(rocm: str, python: str, same_minor_as: str | None = None) -> tuple[Pin | None, list[Pin]]:
    """The pin to print for this Python (preferring the TensorFlow minor of same_minor_as), and all pins."""
    pins = pins_for(rocm)
    fitting = [p for p in pins if p.has_python(python) is not False]
    if same_minor_as:
        want = compat.raw_parts(compat.tensorflow_core(same_minor_as))[:2]
        same = [p for p in fitting if compat.raw_parts(p.version)[:2] == want]
        fitting = same or fitting
    return (fitting[0] if fitting else None), pins


def docker_images(rocm: str | None, python: str | None = None) -> list[str]:
    """rocm/tensorflow image tags for this ROCm line (any line when rocm is None), non-preview first, newest first."""
    rows = [r for r in compat.rows("docker_image") if r.docker_tag and r.rocm]
    if rocm:
        rows = [r for r in rows if compat.rocm_line(r.rocm) == compat.rocm_line(rocm)] or []
    if python:
        rows = [r for r in rows if _minor(python) in r.python]
    # released lines first, then full TensorFlow releases (2.19.1) before dev builds (2.21), then newest
    rows.sort(key=lambda r: (not r.preview, r.tensorflow[0].count(".") == 2, parse_version(r.rocm),
                             parse_version(r.tensorflow[0])), reverse=True)
    return [r.docker_tag for r in rows]


DOCKER_RUN_WSL = ("docker run -it --device=/dev/dxg -v /usr/lib/wsl/lib/libdxcore.so:/usr/lib/libdxcore.so "
                  "-v /opt/rocm/lib/librocdxg.so:/usr/lib/librocdxg.so -e HSA_ENABLE_DXG_DETECTION=1 "
                  "--security-opt seccomp=unconfined --ipc=host")
DOCKER_RUN = ("docker run -it --device=/dev/kfd --device=/dev/dri --group-add video "
              "--group-add $(getent group render | cut -d: -f3) --security-opt seccomp=unconfined --ipc=host")
