"""The doctor's rule engines on their own: visibility parsing (ROCr, HIP/CLR, CUDA), HSA override families, which
ROCm a wheel was built for, published pins, preview minimums and the contradiction pass. Expected values come from the
sources named in rocm_bridge/doctor/visibility.py and data/env_checks.csv, not from running the code."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rocm_bridge import compat
from rocm_bridge.doctor import FakeProbe, examine, wheels
from rocm_bridge.doctor.rules import isa_family, override_suggestion, wsl_gfx
from rocm_bridge.doctor.visibility import amd_visibility, cuda_visibility, hip_filter, rocr_filter

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "doctor_examples"


@pytest.mark.parametrize(("value", "kept", "reason"), [
    ("", [], "empty"),                 # set but empty: SelectZeroDevices
    ("1,0", ["1", "0"], ""),           # order is the new numbering
    (" 1 , 0 ", ["1", "0"], ""),       # tokens are trimmed
    ("0x1", ["1"], ""),                # strtol base 0
    ("0,0,1", ["0"], "repeated"),      # a repeat terminates the list
    ("0,5,1", ["0"], "out_of_range"),
    ("0,a,1", ["0"], "not_index"),
    ("0,1,2,3", ["0", "1"], "beyond_count"),  # only the first <GPU count> tokens are read
    ("GPU-BBBB", ["1"], ""),           # UUID prefix match
    ("GPU-ZZZZ,0", [], "uuid_unknown"),
])
def test_rocr_rules(value, kept, reason):
    step = rocr_filter(value, 2, ["GPU-aaaa0000", "GPU-bbbb1111"])
    assert (step.kept, step.reason) == (kept, reason)


@pytest.mark.parametrize(("value", "kept", "dropped"), [
    ("0,1", ["0", "1"], []),
    ("1,1,0", ["1", "0"], ["1"]),      # repeated index skipped, the rest kept
    ("-1", [], ["-1"]),                # negative: stop at once
    ("0,-1,1", ["0"], ["-1", "1"]),
    ("0, 1", ["0"], [" 1"]),           # " 1" does not round-trip through atoi
    ("0,4,1", ["0"], ["4", "1"]),
    ("0,", ["0"], []),                 # trailing comma ends the loop
])
def test_hip_rules(value, kept, dropped):
    step = hip_filter("HIP_VISIBLE_DEVICES", value, 4, [])
    assert (step.kept, step.dropped) == (kept, dropped)


def test_rocr_then_hip_and_precedence():
    vis = amd_visibility({"ROCR_VISIBLE_DEVICES": "2,3", "HIP_VISIBLE_DEVICES": "1"}, 8, [])
    assert vis.visible == 1 and vis.steps[1].pool == 2
    # HIP_VISIBLE_DEVICES wins over CUDA_VISIBLE_DEVICES; an empty HIP value falls back to CUDA's
    assert amd_visibility({"HIP_VISIBLE_DEVICES": "0", "CUDA_VISIBLE_DEVICES": "0,1"}, 2, []).visible == 1
    assert amd_visibility({"HIP_VISIBLE_DEVICES": "", "CUDA_VISIBLE_DEVICES": "1"}, 2, []).visible == 1
    assert amd_visibility({"HIP_VISIBLE_DEVICES": ""}, 2, []).visible == 2  # empty HIP value: no filter
    assert "GPU_DEVICE_ORDINAL" in amd_visibility({"GPU_DEVICE_ORDINAL": "0"}, 2, []).ignored
    assert cuda_visibility({"CUDA_VISIBLE_DEVICES": ""}, 2).visible == 0
    assert cuda_visibility({"CUDA_VISIBLE_DEVICES": "0,7,1"}, 2).visible == 1


def test_isa_families_from_the_data_row():
    assert isa_family("gfx1031") == isa_family("gfx1030") == "gfx10-3-generic"
    assert isa_family("gfx1012") == "gfx10-1-generic" and isa_family("gfx90a") is None
    assert override_suggestion("gfx1032") == "10.3.0" and override_suggestion("gfx1102") == "11.0.0"
    assert override_suggestion("gfx1012") is None and override_suggestion("gfx942") is None
    assert {"gfx1100", "gfx1201", "gfx1151"} <= set(wsl_gfx()) and "gfx1030" not in wsl_gfx()


@pytest.mark.parametrize(("version", "built"), [
    ("2.14.0.600", ["6.0.0"]), ("2.13.0.570", ["5.7.0"]), ("2.17.0+rocm6.3.3", ["6.3.3"]),
    ("2.16.1", ["6.2.x"]), ("2.15.0", ["6.1.x"]), ("2.20.0", ["7.2.x", "7.1.x"]), ("9.9.9", []),
])
def test_built_for(version, built):
    assert wheels.built_for(version) == built


@pytest.mark.parametrize("rocm", [r for r in compat.rocm_releases()])
def test_every_line_pins_only_published_builds(rocm):
    row = compat.release_row(rocm)
    pins = wheels.pins_for(rocm)
    if row.preview:
        assert pins == [] and wheels.docker_images(rocm)
        return
    for pin in pins:
        if compat.rocm_line(rocm) < (6, 1):
            listed = {r.package for r in compat.rows("pypi_wheel")}
            assert f"tensorflow-rocm=={pin.version}" in listed and "--index-url https://pypi.org/simple" in pin.command
        else:
            assert pin.version in row.tensorflow and f"rocm-rel-{compat.rocm_line(rocm)[0]}.{compat.rocm_line(rocm)[1]}/" \
                in pin.command


def test_preview_is_never_a_minimum():
    report = examine(FIXTURES / "cpu_only", FakeProbe.from_file(FIXTURES / "cpu_only" / "probe.json"))
    rocm = next(x for x in report.formula.factors if x.name == "rocm")
    assert rocm.minimum is None and rocm.reason == "preview_only"
    preview_lines = {compat.rocm_line(r.rocm) for r in compat.rows() if r.preview and r.rocm}
    for name in sorted(p.name for p in FIXTURES.iterdir() if p.is_dir()):
        root = FIXTURES / name
        fr = examine(root, FakeProbe.from_file(root / "probe.json")).formula
        for x in fr.factors:
            if x.name == "rocm" and x.minimum:
                assert compat.rocm_line(x.minimum) not in preview_lines, (name, x.minimum)


def test_a_working_matmul_outranks_an_earlier_failure(tmp_path):
    """amdgpu reported absent (e.g. built into the kernel, no /sys/module entry) while TensorFlow computes on the GPU."""
    root = tmp_path / "sys"
    shutil.copytree(FIXTURES / "rocm_healthy", root)
    shutil.rmtree(root / "sys" / "module" / "amdgpu")
    report = examine(root, FakeProbe(json.loads((root / "probe.json").read_text())))
    driver = next(c for c in report.checks if c.id == "driver")
    assert (driver.status, driver.outcome, driver.blocking) == ("warn", "contradicted", False)
    assert report.exit_code == 0 and "was: driver_missing" in driver.evidence[0]


def test_uuids_from_the_kfd_topology(tmp_path):
    """ROCr's UUID is GPU-<16 hex digits of the KFD unique_id>; ROCR_VISIBLE_DEVICES may name a GPU by a prefix of it."""
    from rocm_bridge.doctor.facts_amd import kfd_topology

    nodes = tmp_path / "sys/class/kfd/kfd/topology/nodes"
    for i, uid in enumerate((0, 11259375, 3735928559)):
        (nodes / str(i)).mkdir(parents=True)
        target = 0 if i == 0 else 90010
        (nodes / str(i) / "properties").write_text(f"simd_count {0 if i == 0 else 416}\nvendor_id 4098\n"
                                                   f"gfx_target_version {target}\nunique_id {uid}\n")
    gpus = kfd_topology(tmp_path)
    assert [g.uuid for g in gpus] == ["GPU-0000000000abcdef", "GPU-00000000deadbeef"]
    uuids = [g.uuid for g in gpus]
    vis = amd_visibility({"ROCR_VISIBLE_DEVICES": "GPU-00000000DEAD"}, 2, uuids)
    assert vis.visible == 1 and vis.steps[0].kept == ["1"]
    vis = amd_visibility({"ROCR_VISIBLE_DEVICES": "GPU-0000"}, 2, uuids)  # ambiguous prefix ends the list
    assert vis.visible == 0 and vis.steps[0].reason == "uuid_unknown"
    # HIP's UUID entries without any known UUID: assumed valid, not reported as an error
    assert amd_visibility({"HIP_VISIBLE_DEVICES": "GPU-1234"}, 2, []).visible == 1


def test_every_published_wheel_knows_its_rocm():
    """No published build the table knows gets "built for ?": every PyPI release with a ROCm in its row, and every
    three-part version a released line lists (AMD repository names)."""
    for r in compat.rows("pypi_wheel"):
        version = r.package.split("==", 1)[1]
        if r.rocm:
            assert wheels.built_for(version) == [r.rocm] or wheels.built_for(version)[0].startswith(r.rocm), version
    for r in compat.rows("rocm_release"):
        if r.preview:
            continue
        for v in r.tensorflow:
            if v.count(".") == 2:
                assert r.rocm in wheels.built_for(v), (r.rocm, v)


def test_tensorflow_listing_a_gpu_outranks_every_gpu_hidden(tmp_path):
    """HIP_VISIBLE_DEVICES=-1 would hide every GPU, yet the recorded TensorFlow run lists 2 (the variable was set only
    in the shell that ran the doctor): the visibility failure becomes a non-blocking contradiction."""
    root = tmp_path / "sys"
    shutil.copytree(FIXTURES / "rocm_healthy", root)
    probe = json.loads((root / "probe.json").read_text())
    probe["env"]["HIP_VISIBLE_DEVICES"] = "-1"
    tf = json.loads(probe["python"]["tensorflow"]["stdout"].split("@@", 2)[2])
    tf.update(matmul_device="", matmul_ok=None, gpu_error="InternalError: kernel launch failed")
    probe["python"]["tensorflow"]["stdout"] = "@@ROCM_BRIDGE_DOCTOR@@" + json.dumps(tf)
    report = examine(root, FakeProbe(probe))
    env = next(c for c in report.checks if c.id == "env_vars")
    assert (env.status, env.outcome) == ("warn", "contradicted_listed") and env.params["count"] == 2
    assert report.verdict.id == "matmul"  # the real failure stays the verdict


def test_core_sdk_tree_without_a_version_file(tmp_path):
    root = tmp_path / "sys"
    shutil.copytree(FIXTURES / "core_sdk_10", root)
    (root / "opt/rocm/core-10.0/.info/version").unlink()
    (root / "opt/rocm/core-10.0/bin").mkdir()
    report = examine(root, FakeProbe.from_file(root / "probe.json"))
    f = report.facts
    assert (f.rocm_version, f.rocm_layout) == ("10.0", "core_sdk")
    assert next(c for c in report.checks if c.id == "rocm_install").outcome == "rocm_core_sdk"


@pytest.mark.parametrize(("packages", "outcome", "status"), [
    ({"keras": "3.3.3"}, "keras3_old_tf", "fail"),                          # Keras 3 with TF 2.14
    ({"numpy": "2.1.3"}, "numpy2_old_tf", "fail"),
    ({"numpy": "1.26.4", "keras": "2.14.0"}, "packages_ok", "ok"),
])
def test_python_side_rules_cite_their_row(packages, outcome, status):
    root = FIXTURES / "numpy2_old_tf"
    probe = json.loads((root / "probe.json").read_text())
    probe["packages"] = {"tensorflow-rocm": "2.14.0.600", **packages}
    check = next(c for c in examine(root, FakeProbe(probe)).checks if c.id == "python_packages")
    assert (check.outcome, check.status) == (outcome, status)
    assert "RELEASES.md" in check.source


def test_rdna3_override_is_a_workaround_not_same_isa(tmp_path):
    """RX 7600 (gfx1102) forced to 11.0.0 on ROCm 6.3: same gfx11-generic family, but not ISA-identical to gfx1100."""
    root = tmp_path / "sys"
    shutil.copytree(FIXTURES / "override_rdna2_harmless", root)
    props = root / "sys/class/kfd/kfd/topology/nodes/1/properties"
    props.write_text(props.read_text().replace("gfx_target_version 100301", "gfx_target_version 110002"))
    probe = json.loads((root / "probe.json").read_text())
    probe["env"]["HSA_OVERRIDE_GFX_VERSION"] = "11.0.0"
    check = next(c for c in examine(root, FakeProbe(probe)).checks if c.id == "gfx_supported")
    assert (check.status, check.outcome, check.params["family"]) == ("warn", "override_in_use", "gfx11-generic")
