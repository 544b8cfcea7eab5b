"""Version-matrix queries over data/tf_rocm_compat.csv and data/tf_cuda_compat.csv.

One table drives the doctor, the Compatible widget of the formula lab and quiz items, so every consumer asks
the same questions here instead of re-parsing the CSV text cells.

ROCm side (data/tf_rocm_compat.csv, three record types):

- ``rocm_release``: a ROCm release line ("7.2.x", "5.1.3", "10.0.0 (preview docs; rc4 packages)") with its
  TensorFlow versions ("2.20.0, 2.19.1, 2.18.1"; older rows hold several doc versions separated by " / "),
  gfx targets ("gfx950, gfx942, gfx90a (Instinct only: ...)") and amdgpu driver compatibility
  ("AMD GPU Driver (amdgpu) 30.30.x, 30.20.x, 30.10.x, 6.4.x (...)").
- ``docker_image``: a rocm/tensorflow image tag with its ROCm, TensorFlow and Python versions.
- ``pypi_wheel``: a tensorflow-rocm release on PyPI with the ROCm it was built on and its Python versions.

A ROCm version matches a row by its release line, major.minor ("6.3.3" and "6.3.0" both belong to "6.3.x"),
because AMD publishes one TensorFlow wheel directory per line (repo.radeon.com/rocm/manylinux/rocm-rel-X.Y).
A TensorFlow version matches a listed version on the listed components ("2.12" covers 2.12.1; "2.18.1" only
2.18.1); a tensorflow-rocm wheel version such as 2.14.0.600 counts as TensorFlow 2.14.0.

Public API (versions are strings; ordering uses rocm_bridge.versions.parse_version):

- ``rows(record_type=None) -> tuple[RocmRow, ...]``: parsed ROCm rows (each keeps its ``source`` and raw dict).
- ``cuda_rows() -> tuple[CudaRow, ...]``: parsed rows of tf_cuda_compat.csv.
- ``rocm_releases() -> list[str]``: release lines, newest first ("10.0.0", "7.2.x", ..., "5.0.2").
- ``tensorflow_versions_for_rocm(rocm, record_types=ALL) -> list[str]``: TF versions listed for that line.
- ``rocm_versions_for_tensorflow(tf, record_types=ALL) -> list[str]``: ROCm versions (row labels) listing tf.
- ``gfx_targets_for_rocm(rocm) -> tuple[str, ...]``: gfx targets of that release line (empty: not sourced).
- ``drivers_for_rocm(rocm) -> tuple[str, ...]``: amdgpu driver versions listed as compatible (empty: not sourced).
- ``pair_listed(rocm, tf) -> RocmRow | None``: the first row that lists this ROCm/TF pair.
- ``wheel_rocm_version(package_version) -> str | None``: ROCm encoded in a tensorflow-rocm version
  ("2.14.0.600" -> "6.0.0", "2.17.0+rocm6.3.3" -> "6.3.3").
- ``requirements_for(tf_version, platform="rocm"|"cuda") -> Requirements``: minimum driver, ROCm (or CUDA and
  cuDNN) and TensorFlow versions for that TensorFlow release, with the row they come from.
- ``tensorflow_min_for_rocm(rocm) -> str | None``: the oldest TF version listed for a ROCm line.
- ``choices(kind) -> list[str]``: real versions for pickers; kind in CHOICE_KINDS.

Unknown versions raise ``UnknownVersion`` (an InvalidInput with a translated message).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from rocm_bridge.data import read_csv
from rocm_bridge.errors import InvalidInput
from rocm_bridge.versions import parse_version

ROCM_CSV = "tf_rocm_compat.csv"
CUDA_CSV = "tf_cuda_compat.csv"
RECORD_TYPES: tuple[str, ...] = ("rocm_release", "docker_image", "pypi_wheel")
PLATFORMS: tuple[str, ...] = ("rocm", "cuda")
CHOICE_KINDS: tuple[str, ...] = (
    "rocm",
    "tensorflow_rocm",
    "tensorflow_cuda",
    "cuda",
    "cudnn",
    "amdgpu_driver",
    "nvidia_driver",
)

# Minimum Linux driver for CUDA minor-version compatibility, per CUDA major version (the "CUDA Toolkit and
# Minimum Required Driver Version for CUDA Minor Version Compatibility" table of the CUDA release notes).
# 12.x agrees with TensorFlow's pip guide (driver >= 525.60.13 for the CUDA 12.3 build; see tf_cuda_compat.csv).
NVIDIA_DRIVER_MIN_BY_CUDA_MAJOR: dict[int, str] = {12: "525.60.13", 11: "450.80.02"}
NVIDIA_DRIVER_SOURCE = (
    "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/ (minor version compatibility table)"
    " | github.com/tensorflow/docs site/en/install/pip.md"
)

_NUM = re.compile(r"\d+(?:\.(?:\d+|x))*")
_GFX = re.compile(r"\bgfx[0-9a-f]{3,5}\b", re.IGNORECASE)


class UnknownVersion(InvalidInput):
    """A version that the compatibility tables do not list."""

    key = "doctor.compat.unknown_version"


# --- cell parsing ----------------------------------------------------------------------------------------


def strip_parentheses(text: str) -> str:
    """Remove every (...) group, nested ones included: notes inside them name other versions."""
    out, depth = [], 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def version_list(cell: str) -> tuple[str, ...]:
    """Versions named in a cell, in order, without duplicates and without text in parentheses.

    >>> version_list("2.21 (2.21.0.dev0 build), 2.20 (2.20.0.dev0 build), 2.19.1")
    ('2.21', '2.20', '2.19.1')
    >>> version_list("2.12 (6.0.2 TF guide) / 2.12, 2.13 (5.7.1 matrix)")
    ('2.12', '2.13')
    >>> version_list("tested user space for this KMD: 6.3.x, 6.2.x (+/-2 releases policy)")
    ('6.3.x', '6.2.x')
    """
    text = strip_parentheses(cell or "")
    # A "label:" prefix ("7.1.0: 30.20.0, ...") names the column's ROCm release, not a listed version.
    if ":" in text:
        text = text.split(":", 1)[1]
    out: list[str] = []
    for match in _NUM.finditer(text):
        value = match.group(0)
        if "." not in value:  # a bare number ("+/-2") is not a version
            continue
        if value not in out:
            out.append(value)
    return tuple(out)


def raw_parts(version: str) -> tuple[int, ...]:
    """Numeric components as written ("6.0.x" -> (6, 0); "7.2.4-74" -> (7, 2, 4)); no trailing-zero folding."""
    match = re.match(r"\s*v?(\d+(?:\.\d+)*)", str(version))
    if not match:
        raise UnknownVersion(value=version)
    return tuple(int(p) for p in match.group(1).split("."))


def rocm_line(version: str) -> tuple[int, int]:
    """The release line (major, minor) of a ROCm version: '6.3.3' -> (6, 3); '10.0.0 (preview)' -> (10, 0)."""
    parts = raw_parts(version) + (0,)
    return parts[0], parts[1]


def tensorflow_core(version: str) -> str:
    """The TensorFlow version inside a package version: '2.14.0.600' -> '2.14.0'; '2.17.0+rocm6.3.3' -> '2.17.0'."""
    parts = raw_parts(str(version).split("+", 1)[0])
    return ".".join(str(p) for p in parts[:3])


def tf_matches(listed: str, installed: str) -> bool:
    """True when installed TF equals the listed version on the components the listing gives."""
    want = raw_parts(listed)
    have = raw_parts(tensorflow_core(installed)) + (0, 0)
    return have[: len(want)] == want


def wheel_rocm_version(package_version: str) -> str | None:
    """ROCm version encoded in a tensorflow-rocm version, or None when it encodes none.

    PyPI wheels from TF 2.10 on append the ROCm version without dots as a 4th field; AMD's own builds may
    carry a '+rocmX.Y.Z' local version.

    >>> wheel_rocm_version("2.14.0.600"), wheel_rocm_version("2.13.0.570"), wheel_rocm_version("2.9.4")
    ('6.0.0', '5.7.0', None)
    >>> wheel_rocm_version("2.17.0+rocm6.3.3")
    '6.3.3'
    """
    text = str(package_version).strip()
    local = re.search(r"\+rocm(\d+(?:\.\d+)*)", text)
    if local:
        return local.group(1)
    parts = text.split("+", 1)[0].split(".")
    if len(parts) >= 4 and parts[3].isdigit() and len(parts[3]) == 3:
        digits = parts[3]
        return f"{digits[0]}.{digits[1]}.{digits[2]}"
    return None


def _sort_desc(values) -> list[str]:
    return sorted(set(values), key=lambda v: (parse_version(v), v), reverse=True)


# --- rows ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RocmRow:
    record_type: str
    rocm: str  # the version as written, without notes: "7.2.x", "10.0.0", "6.0.0", "" (not sourced)
    preview: bool
    tensorflow: tuple[str, ...]
    package: str
    python: tuple[str, ...]
    gfx_targets: tuple[str, ...]
    drivers: tuple[str, ...]
    docker_tag: str
    source: str
    note: str
    raw: dict = field(repr=False, compare=False)

    @property
    def line(self) -> tuple[int, int] | None:
        return rocm_line(self.rocm) if self.rocm else None

    def covers_rocm(self, version: str) -> bool:
        return bool(self.rocm) and self.line == rocm_line(version)

    def lists_tensorflow(self, version: str) -> bool:
        return any(tf_matches(listed, version) for listed in self.tensorflow)


@dataclass(frozen=True)
class CudaRow:
    tensorflow: str
    package: str
    python: str
    cuda: str
    cudnn: str
    source: str
    note: str
    raw: dict = field(repr=False, compare=False)


def _parse_rocm_row(raw: dict[str, str]) -> RocmRow:
    cell = raw.get("rocm_version", "").strip()
    label = strip_parentheses(cell).strip()
    first = _NUM.search(label)
    rocm = first.group(0) if first else ""
    python = tuple(re.findall(r"\b3\.\d+\b", strip_parentheses(raw.get("python_versions", ""))))
    return RocmRow(
        record_type=raw["record_type"],
        rocm=rocm,
        preview="preview" in cell.lower(),
        tensorflow=version_list(raw.get("tensorflow_versions", "")),
        package=raw.get("tensorflow_rocm_package", "").strip(),
        python=python,
        gfx_targets=tuple(dict.fromkeys(g.lower() for g in _GFX.findall(raw.get("gpu_llvm_targets", "")))),
        drivers=version_list(raw.get("amdgpu_driver_or_kmd_compat", "")),
        docker_tag=raw.get("docker_image_tag", "").strip(),
        source=raw.get("source", "").strip(),
        note=raw.get("note", "").strip(),
        raw=raw,
    )


@lru_cache(maxsize=1)
def _rocm_rows() -> tuple[RocmRow, ...]:
    return tuple(_parse_rocm_row(r) for r in read_csv(ROCM_CSV))


def rows(record_type: str | None = None) -> tuple[RocmRow, ...]:
    """Parsed rows of tf_rocm_compat.csv, optionally of one record type."""
    if record_type is not None and record_type not in RECORD_TYPES:
        raise ValueError(f"record_type must be one of {RECORD_TYPES}")
    return tuple(r for r in _rocm_rows() if record_type is None or r.record_type == record_type)


@lru_cache(maxsize=1)
def cuda_rows() -> tuple[CudaRow, ...]:
    return tuple(
        CudaRow(
            tensorflow=r["tensorflow_version"].strip(),
            package=r.get("package", "").strip(),
            python=r.get("python_versions", "").strip(),
            cuda=r.get("cuda", "").strip(),
            cudnn=r.get("cudnn", "").strip(),
            source=r.get("source", "").strip(),
            note=r.get("note", "").strip(),
            raw=r,
        )
        for r in read_csv(CUDA_CSV)
    )


# --- queries ---------------------------------------------------------------------------------------------


def _check(version: str | None) -> str:
    if version is None or not str(version).strip():
        raise UnknownVersion(value=version)
    raw_parts(version)  # raises UnknownVersion on text without a number
    return str(version).strip()


def rocm_releases() -> list[str]:
    """ROCm release lines of the matrix, newest first."""
    return _sort_desc(r.rocm for r in rows("rocm_release") if r.rocm)


def release_row(rocm: str) -> RocmRow | None:
    """The rocm_release row of the line this version belongs to."""
    rocm = _check(rocm)
    return next((r for r in rows("rocm_release") if r.covers_rocm(rocm)), None)


def tensorflow_versions_for_rocm(rocm: str, record_types: tuple[str, ...] = RECORD_TYPES) -> list[str]:
    """TensorFlow versions listed for this ROCm line in the chosen record types, newest first."""
    rocm = _check(rocm)
    return _sort_desc(
        tf for r in rows() if r.record_type in record_types and r.covers_rocm(rocm) for tf in r.tensorflow
    )


def tensorflow_min_for_rocm(rocm: str) -> str | None:
    """The oldest TensorFlow version listed for this ROCm line (release rows first, then images and wheels)."""
    listed = tensorflow_versions_for_rocm(rocm, ("rocm_release",)) or tensorflow_versions_for_rocm(rocm)
    return listed[-1] if listed else None


def rocm_versions_for_tensorflow(tf: str, record_types: tuple[str, ...] = RECORD_TYPES) -> list[str]:
    """ROCm versions (as the rows write them) whose rows list this TensorFlow version, newest first."""
    tf = _check(tf)
    return _sort_desc(
        r.rocm for r in rows() if r.record_type in record_types and r.rocm and r.lists_tensorflow(tf)
    )


def gfx_targets_for_rocm(rocm: str) -> tuple[str, ...]:
    """gfx targets listed for this ROCm line (release row, else image rows); empty when not sourced."""
    rocm = _check(rocm)
    for record_type in ("rocm_release", "docker_image"):
        for r in rows(record_type):
            if r.covers_rocm(rocm) and r.gfx_targets:
                return r.gfx_targets
    return ()


def drivers_for_rocm(rocm: str) -> tuple[str, ...]:
    """amdgpu driver versions the matrix lists as compatible with this ROCm line; empty when not sourced."""
    row = release_row(rocm)
    return row.drivers if row else ()


def pair_listed(rocm: str, tf: str) -> RocmRow | None:
    """The first row (release, then image, then wheel) listing this ROCm line with this TensorFlow version."""
    rocm, tf = _check(rocm), _check(tf)
    for record_type in RECORD_TYPES:
        for r in rows(record_type):
            if r.covers_rocm(rocm) and r.lists_tensorflow(tf):
                return r
    return None


def cuda_row_for(tf: str) -> CudaRow | None:
    """The tested-build row of this TensorFlow release: exact version, else the same major.minor."""
    tf = tensorflow_core(_check(tf))
    exact = next((r for r in cuda_rows() if parse_version(r.tensorflow) == parse_version(tf)), None)
    if exact:
        return exact
    line = raw_parts(tf)[:2]
    return next((r for r in cuda_rows() if raw_parts(r.tensorflow)[:2] == line), None)


def nvidia_driver_min(cuda: str) -> str | None:
    """Minimum Linux NVIDIA driver for a CUDA version (minor-version compatibility), None when not sourced."""
    return NVIDIA_DRIVER_MIN_BY_CUDA_MAJOR.get(raw_parts(cuda)[0])


def _floor(version: str) -> str:
    """A listed version as a minimum: '6.4.x' -> '6.4'."""
    return version[:-2] if version.endswith(".x") else version


@dataclass(frozen=True)
class Requirements:
    """Minimum versions for one TensorFlow release on one platform, with the row they come from.

    ROCm: rocm_min is the oldest ROCm line whose row lists the TF version; driver_min the oldest amdgpu
    driver that row lists; tensorflow_min the oldest TF version of that row. CUDA: cuda/cudnn are the
    versions TensorFlow was built and tested with; driver_min the minimum driver for that CUDA major.
    """

    platform: str
    tensorflow: str
    tensorflow_min: str | None
    rocm_min: str | None = None
    cuda: str | None = None
    cudnn: str | None = None
    driver_min: str | None = None
    python: str = ""
    source: str = ""
    driver_source: str = ""
    row: dict = field(default_factory=dict, repr=False, compare=False)

    def as_dict(self) -> dict[str, str | None]:
        return {
            "platform": self.platform,
            "tensorflow": self.tensorflow,
            "tensorflow_min": self.tensorflow_min,
            "rocm_min": self.rocm_min,
            "cuda": self.cuda,
            "cudnn": self.cudnn,
            "driver_min": self.driver_min,
            "python": self.python,
            "source": self.source,
            "driver_source": self.driver_source,
        }


def requirements_for(tf_version: str, platform: str = "rocm") -> Requirements:
    """Minimum driver / ROCm (or CUDA, cuDNN) / TensorFlow versions for a TensorFlow release.

    >>> r = requirements_for("2.18.1")
    >>> r.rocm_min, r.driver_min, r.tensorflow_min
    ('6.4.x', '6.1', '2.16.2')
    >>> c = requirements_for("2.17.0", "cuda")
    >>> c.cuda, c.cudnn, c.driver_min
    ('12.3', '8.9', '525.60.13')
    """
    tf = _check(tf_version)
    if platform == "cuda":
        row = cuda_row_for(tf)
        if row is None:
            raise UnknownVersion(value=tf_version)
        return Requirements(
            platform="cuda",
            tensorflow=tf,
            tensorflow_min=row.tensorflow,
            cuda=row.cuda or None,
            cudnn=row.cudnn or None,
            driver_min=nvidia_driver_min(row.cuda) if row.cuda else None,
            python=row.python,
            source=row.source,
            driver_source=NVIDIA_DRIVER_SOURCE,
            row=row.raw,
        )
    if platform != "rocm":
        raise ValueError(f"platform must be one of {PLATFORMS}")
    # Prefer the release matrix; fall back to images and wheels for versions only they list.
    for record_types in (("rocm_release",), ("docker_image", "pypi_wheel")):
        candidates = [
            r for r in rows() if r.record_type in record_types and r.rocm and r.lists_tensorflow(tf)
        ]
        if candidates:
            break
    else:
        raise UnknownVersion(value=tf_version)
    oldest = min(candidates, key=lambda r: parse_version(r.rocm))
    drivers = [_floor(d) for d in oldest.drivers]
    return Requirements(
        platform="rocm",
        tensorflow=tf,
        tensorflow_min=_sort_desc(oldest.tensorflow)[-1] if oldest.tensorflow else None,
        rocm_min=oldest.rocm,
        driver_min=min(drivers, key=parse_version) if drivers else None,
        python=", ".join(oldest.python),
        source=oldest.source,
        driver_source=oldest.source if drivers else "",
        row=oldest.raw,
    )


def choices(kind: str) -> list[str]:
    """Real versions for a picker, newest first, one entry per version ("2.20" and "2.20.0" are one).

    kind: one of CHOICE_KINDS.
    """
    values = _choices(kind)
    seen: set[tuple[int, ...]] = set()
    out = []
    for value in values:
        key = parse_version(value)
        if key not in seen:
            seen.add(key)
            out.append(value)
    return out


def _choices(kind: str) -> list[str]:
    if kind == "rocm":
        return rocm_releases()
    if kind == "tensorflow_rocm":
        return _sort_desc(tf for r in rows() for tf in r.tensorflow)
    if kind == "tensorflow_cuda":
        return _sort_desc(r.tensorflow for r in cuda_rows())
    if kind == "cuda":
        return _sort_desc(r.cuda for r in cuda_rows() if r.cuda)
    if kind == "cudnn":
        return _sort_desc(r.cudnn for r in cuda_rows() if r.cudnn)
    if kind == "amdgpu_driver":
        return _sort_desc(_floor(d) for r in rows("rocm_release") for d in r.drivers)
    if kind == "nvidia_driver":
        return _sort_desc(NVIDIA_DRIVER_MIN_BY_CUDA_MAJOR.values())
    raise ValueError(f"kind must be one of {CHOICE_KINDS}")
