"""rocm_bridge.compat: the version-matrix queries, checked against rows of the CSV files read by hand."""

from __future__ import annotations

import pytest

from rocm_bridge import compat
from rocm_bridge.errors import InvalidInput


def test_record_types_all_parsed():
    counts = {t: len(compat.rows(t)) for t in compat.RECORD_TYPES}
    # data/README.upstream.md: 102 rows = 17 releases + 20 images + 65 wheels
    assert counts == {"rocm_release": 17, "docker_image": 20, "pypi_wheel": 65}


def test_version_list_cells():
    assert compat.version_list("2.20.0, 2.19.1, 2.18.1") == ("2.20.0", "2.19.1", "2.18.1")
    # notes in parentheses name ROCm versions, which must not leak into the TF list
    cell = "2.12, 2.13 (5.7.1 docs; 6.0.2 TF guide: 5.7.0 -> 2.12, 2.13) / 2.12, 2.13, 2.14 (6.0.2 and 6.3.0 matrices)"
    assert compat.version_list(cell) == ("2.12", "2.13", "2.14")
    drivers = "AMD GPU Driver (amdgpu) 30.30.x, 30.20.x, 30.10.x, 6.4.x (7.2.3 and 7.2.2/7.2.1 columns)"
    assert compat.version_list(drivers) == ("30.30.x", "30.20.x", "30.10.x", "6.4.x")
    assert compat.version_list("7.1.0: 30.20.0, 30.10.2, 30.10.1, 30.10, 6.4.x") == (
        "30.20.0", "30.10.2", "30.10.1", "30.10", "6.4.x",
    )
    assert compat.version_list("") == ()


def test_release_row_parsing():
    row = compat.release_row("7.2.4")
    assert row.rocm == "7.2.x"
    assert row.tensorflow == ("2.20.0", "2.19.1", "2.18.1")
    assert row.drivers == ("30.30.x", "30.20.x", "30.10.x", "6.4.x")
    assert "gfx1100" in row.gfx_targets and "gfx90a" in row.gfx_targets
    assert row.source  # every row keeps its source
    preview = compat.release_row("10.0.0")
    assert preview.preview and preview.python == ("3.12",)


def test_rocm_releases_newest_first_and_text_order_is_not_used():
    releases = compat.rocm_releases()
    assert releases[0] == "10.0.0" and releases[-1] == "5.0.2"
    assert releases.index("7.2.x") < releases.index("6.4.x") < releases.index("5.7.x")
    assert len(releases) == 17


def test_tensorflow_versions_for_rocm():
    assert compat.tensorflow_versions_for_rocm("6.3.3", ("rocm_release",)) == ["2.17.0", "2.16.2", "2.15.1"]
    # 6.3.0 belongs to the same line as 6.3.3; the 6.3.3 images list the same versions
    assert compat.tensorflow_versions_for_rocm("6.3.0") == ["2.17.0", "2.16.2", "2.15.1"]
    # the PyPI wheel built on ROCm 5.7.0 adds 2.13.0 and 2.12.1 to the 5.7 line
    tf57 = compat.tensorflow_versions_for_rocm("5.7.1")
    assert "2.13.0" in tf57 and "2.12.1" in tf57
    assert compat.tensorflow_versions_for_rocm("1.0") == []


def test_rocm_versions_for_tensorflow():
    assert compat.rocm_versions_for_tensorflow("2.18.1", ("rocm_release",)) == ["7.2.x", "7.1.x", "7.0.x", "6.4.x"]
    # a PyPI package version counts as its TensorFlow version
    assert "6.0.0" in compat.rocm_versions_for_tensorflow("2.14.0.600", ("pypi_wheel",))
    # "2.12" in an old release row covers 2.12.1
    assert "5.7.x" in compat.rocm_versions_for_tensorflow("2.12.1")


def test_gfx_targets():
    assert compat.gfx_targets_for_rocm("6.2.4") == ("gfx1100", "gfx1030", "gfx942", "gfx90a", "gfx908")
    assert compat.gfx_targets_for_rocm("10.0") == ("gfx950", "gfx942", "gfx90a")
    assert "gfx1032" not in compat.gfx_targets_for_rocm("7.2.0")
    assert compat.gfx_targets_for_rocm("5.7.1") == ()  # not sourced, not "none supported"


def test_pair_listed_and_wheel_suffix():
    assert compat.pair_listed("7.2.1", "2.19.1").record_type == "rocm_release"
    assert compat.pair_listed("7.2.1", "2.14.0") is None
    assert compat.pair_listed("6.0.2", "2.14.0.600") is not None
    assert compat.wheel_rocm_version("2.12.0.560") == "5.6.0"
    assert compat.wheel_rocm_version("2.21.0") is None


def test_requirements_rocm():
    req = compat.requirements_for("2.18.1")
    assert (req.rocm_min, req.driver_min, req.tensorflow_min) == ("6.4.x", "6.1", "2.16.2")
    assert "compatibility" in req.source or "rocm" in req.source.lower()
    assert req.row["rocm_version"] == "6.4.x"
    # a version only the wheel list knows falls back to the wheel rows
    old = compat.requirements_for("1.15.3")
    assert old.rocm_min == "3.3" and old.row["record_type"] == "pypi_wheel"


def test_requirements_cuda():
    req = compat.requirements_for("2.16.2", "cuda")  # same major.minor as the 2.16.1 tested row
    assert (req.cuda, req.cudnn, req.tensorflow_min, req.driver_min) == ("12.3", "8.9", "2.16.1", "525.60.13")
    assert compat.requirements_for("2.11.0", "cuda").driver_min == "450.80.02"
    assert compat.requirements_for("1.12.0", "cuda").driver_min is None  # CUDA 9: not sourced


@pytest.mark.parametrize("bad", ["", None, "latest", "0.1"])
def test_unknown_versions_raise_translated_error(bad):
    with pytest.raises(InvalidInput) as err:
        compat.requirements_for(bad)
    assert "compat" in err.value.key
    assert err.value.message("zh") != err.value.message("en")


def test_bad_platform_and_kind():
    with pytest.raises(ValueError):
        compat.requirements_for("2.18.1", "metal")
    with pytest.raises(ValueError):
        compat.choices("nope")


def test_choices_real_and_unique():
    tf = compat.choices("tensorflow_rocm")
    assert tf[0] in ("2.21", "2.21.0") and "2.20.0" in tf and "2.20" not in tf
    from rocm_bridge.versions import parse_version

    for kind in compat.CHOICE_KINDS:
        values = compat.choices(kind)
        assert values, kind
        keys = [parse_version(v) for v in values]
        assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)
    assert compat.choices("cuda")[0] == "12.5"
