"""The Formula lab's Compatible widget: installed driver / ROCm / TensorFlow against the minimums of
data/tf_rocm_compat.csv, one pick and the whole grid (re-exported by rocm_bridge.formulas.lab)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rocm_bridge import formulas
from rocm_bridge.errors import InvalidInput
from rocm_bridge.versions import parse_version


@dataclass(frozen=True)
class CompatCheck:
    """The Compatible formula for picked versions, with the minimums' sources and unsourced factors."""

    result: formulas.Compatibility
    minimums: dict[str, str | None]  # driver / rocm / tensorflow -> minimum (None: not in the data)
    sources: dict[str, str]
    listed_pair: bool  # whether some row of the matrix lists this ROCm line with this TF version

    @property
    def unsourced(self) -> tuple[str, ...]:
        return tuple(k for k, v in self.minimums.items() if v is None)


def _floor(version: str) -> str:
    return version[:-2] if version.endswith(".x") else version


def compat_choices() -> dict[str, list[str]]:
    """Real versions to pick from (newest first): amdgpu drivers, ROCm release lines, TensorFlow versions."""
    from rocm_bridge import compat  # noqa: PLC0415

    return {
        "driver": compat.choices("amdgpu_driver"),
        "rocm": compat.choices("rocm"),
        "tensorflow": compat.choices("tensorflow_rocm"),
    }


def compat_check(driver: str, rocm: str, tensorflow: str) -> CompatCheck:
    """Compatible = 1[v_D >= D_min] x 1[v_R >= R_min] x 1[v_T >= T_min], minimums from tf_rocm_compat.csv:

    - D_min: the oldest amdgpu driver the matrix lists as compatible with the installed ROCm line;
    - R_min: the oldest ROCm line whose row lists the installed TensorFlow version;
    - T_min: the oldest TensorFlow version listed for the installed ROCm line.
    A minimum the data does not give is left out of the product and reported in `unsourced`.

    >>> c = compat_check(driver="6.4", rocm="6.3.x", tensorflow="2.18.1")
    >>> c.result.value, [i.name for i in c.result.failing], c.minimums["rocm"]
    (0, ['rocm'], '6.4.x')
    """
    from rocm_bridge import compat  # noqa: PLC0415

    for name, value in (("driver", driver), ("rocm", rocm), ("tensorflow", tensorflow)):
        if not value or not str(value).strip():
            raise InvalidInput("errors.bad_version", value=f"{name}: {value!r}")
        parse_version(value)
    drivers = [_floor(d) for d in compat.drivers_for_rocm(rocm)]
    d_min = min(drivers, key=parse_version) if drivers else None
    release = compat.release_row(rocm)
    req = compat.requirements_for(tensorflow)
    r_min = req.rocm_min
    t_min = compat.tensorflow_min_for_rocm(rocm)
    minimums = {"driver": d_min, "rocm": r_min, "tensorflow": t_min}
    installed = {"driver": driver, "rocm": rocm, "tensorflow": tensorflow}
    components = {k: (installed[k], m) for k, m in minimums.items() if m is not None}
    if not components:
        raise InvalidInput("errors.no_components")
    sources = {
        "driver": release.source if (release and d_min) else "",
        "rocm": req.source,
        "tensorflow": release.source if (release and t_min) else "",
    }
    return CompatCheck(
        formulas.compatible(**components), minimums, sources, compat.pair_listed(rocm, tensorflow) is not None
    )


@dataclass(frozen=True)
class CompatGrid:
    rocm: tuple[str, ...]  # rows, newest first
    tensorflow: tuple[str, ...]  # columns, oldest first
    values: tuple[tuple[int | None, ...], ...]  # Compatible per (rocm, tf); None where the data has no minimum


@lru_cache(maxsize=64)
def compat_grid(driver: str) -> CompatGrid:
    """Compatible over every ROCm release line x every TensorFlow version the release rows list, for a driver."""
    from rocm_bridge import compat  # noqa: PLC0415

    rocm_lines = tuple(compat.choices("rocm"))
    by_version: dict[tuple[int, ...], str] = {}
    for r in compat.rows("rocm_release"):
        for tf in r.tensorflow:
            by_version.setdefault(parse_version(tf), tf)
    tfs = tuple(by_version[k] for k in sorted(by_version))
    values = []
    for rocm in rocm_lines:
        row: list[int | None] = []
        for tf in tfs:
            try:
                row.append(compat_check(driver, rocm, tf).result.value)
            except InvalidInput:
                row.append(None)
        values.append(tuple(row))
    return CompatGrid(rocm_lines, tfs, tuple(values))
