"""The doctor on fake systems: fixture trees under data/doctor_examples (files under a fake /) + probe.json.

Expected verdicts were worked out by hand from each fixture's story (see the comment in the table) and the
compatibility tables, not copied from the program's output.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rocm_bridge.doctor import FakeProbe, SystemProbe, examine, probe_for_root
from rocm_bridge.doctor.facts_amd import gfx_from_override, gfx_from_target_version, kfd_topology, parse_rocminfo
from rocm_bridge.doctor.facts_python import parse_tf_result
from rocm_bridge.doctor.probes import TF_SCRIPT
from rocm_bridge.doctor.rules import STATUSES, override_suggestion
from rocm_bridge.i18n import LANGS, t

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "doctor_examples"

# name: (platform, verdict check id or None, verdict outcome, exit code, factors of Compatible that are 0)
EXPECTED = {
    # ROCm 6.3.3, tensorflow-rocm 2.16.2 (listed for 6.3), MI250X: all green; 6.10.5>=6.1, 6.3.3>=6.3, 2.16.2>=2.15.1
    "rocm_healthy": ("amd", None, None, 0, []),
    # /dev/kfd owned by root, user already in render/video: a node permission problem, not a group one
    "kfd_denied": ("amd", "device_nodes", "kfd_denied", 1, []),
    # /dev/kfd owned by render, user only in video
    "not_in_render_group": ("amd", "groups", "group_missing", 1, []),
    # gfx1032 is not in ROCm 6.2's list (gfx1100, gfx1030, gfx942, gfx90a, gfx908)
    "gfx1032_no_override": ("amd", "gfx_supported", "gfx_unsupported", 1, []),
    # HSA_OVERRIDE_GFX_VERSION=10.3.0 -> runs as gfx1030 (listed): a warning, not blocking
    "gfx1032_override": ("amd", "gfx_supported", "override_same_isa", 0, []),
    # ROCm 5.7 with a wheel listed only for ROCm 6.3/6.4: R_min 6.3 > 5.7.1 -> the ROCm factor is 0
    "wheel_rocm_mismatch": ("amd", "wheel_match", "wheel_mismatch", 1, ["rocm"]),
    # AMD GPU on the PCI bus, no amdgpu module: driver factor has no installed version -> 0
    "no_driver": ("amd", "driver", "driver_missing", 1, ["driver"]),
    # container without --device=/dev/kfd
    "container_no_kfd": ("amd", "device_nodes", "kfd_missing", 1, []),
    # NumPy 2.1 with tensorflow-rocm 2.14 (needs numpy<2); the pair itself is listed for ROCm 6.0
    "numpy2_old_tf": ("amd", "python_packages", "numpy2_old_tf", 1, []),
    # the interpreter dies during import tensorflow
    "tf_import_crash": ("amd", "tf_import", "tf_crash", 1, []),
    # import tensorflow never returns
    "tf_import_hang": ("amd", "tf_import", "tf_timeout", 1, []),
    # driver 550.54.15 >= 525.60.13 (CUDA 12.x), CUDA 12.4 >= 12, TF 2.17.0 >= 2.17.0
    "nvidia_healthy": ("nvidia", None, None, 0, []),
    # driver 470 < 525.60.13 needed by TF 2.17's CUDA 12.3; the driver only supports CUDA 11.4 < 12
    "nvidia_old_driver": ("nvidia", "nv_cuda", "nv_driver_old", 1, ["driver", "cuda"]),
    # no GPU at all: only the ROCm 10.0 preview line lists TF 2.21, and a preview is never a minimum -> not evaluated
    "cpu_only": ("none", "no_gpu", "no_gpu", 1, []),
}


def _report(name: str):
    root = FIXTURES / name
    return examine(root, probe_for_root(root))


def test_every_fixture_has_an_expectation():
    # the first 14 systems, with their Compatible factors; all systems: tests/test_doctor_examples.py
    assert set(EXPECTED) <= {p.name for p in FIXTURES.iterdir() if p.is_dir()}
    assert len(EXPECTED) >= 14


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_verdict(name):
    platform, check_id, outcome, exit_code, zero = EXPECTED[name]
    report = _report(name)
    assert report.facts.platform == platform
    verdict = report.verdict
    if check_id is None:
        assert verdict is None, [(c.id, c.status, c.outcome) for c in report.checks if c.status != "ok"]
    else:
        assert (verdict.id, verdict.outcome) == (check_id, outcome)
        # the verdict is the FIRST failing check (or first warning when nothing fails)
        first = next((c for c in report.checks if c.status == "fail"), None) or next(
            c for c in report.checks if c.status == "warn"
        )
        assert first is verdict
    assert report.exit_code == exit_code
    assert report.formula.zero_factors == zero
    if not zero and report.formula.value is not None:
        assert report.formula.value == 1


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_checks_are_complete_and_translated(name):
    report = _report(name)
    for c in report.checks:
        assert c.status in STATUSES
        for lang in LANGS:
            assert t(c.title_key, lang) and t(c.why_key, lang)
            assert t(c.message_key, lang, **c.params)  # every parameter the text needs is there
        if c.status == "fail":
            assert c.fix, c.id
            assert c.source, c.id
            assert c.evidence, c.id


def test_healthy_rocm_evidence_reads_the_tree():
    report = _report("rocm_healthy")
    f = report.facts
    assert f.rocm_version.startswith("6.3.3") and f.amdgpu_version == "6.10.5"
    assert [g.gfx for g in f.amd_gpus] == ["gfx90a", "gfx90a"] and f.amd_gpus[0].source == "rocminfo"
    by_id = {c.id: c for c in report.checks}
    assert any("/opt/rocm/.info/version: 6.3.3" in e for e in by_id["rocm_install"].evidence)
    assert "GPU" in by_id["matmul"].params["device"]


def test_gfx1032_explains_and_suggests_override():
    report = _report("gfx1032_no_override")
    check = report.verdict
    assert check.params["gfx"] == "gfx1032"
    assert any("HSA_OVERRIDE_GFX_VERSION=10.3.0" in cmd for cmd in check.fix)
    assert [x.id for x in report.log_findings] == ["unsupported_gfx"]  # found in TensorFlow's own stderr


def test_wheel_mismatch_offers_matching_wheel():
    report = _report("wheel_rocm_mismatch")
    fix = " ".join(report.verdict.fix)
    # ROCm 5.7 line: PyPI era; the newest published build for 5.7 is 2.13.0.570 (an ==2.14 pin matches nothing)
    assert "tensorflow-rocm==2.13.0.570 --index-url https://pypi.org/simple" in fix
    assert report.verdict.params["built_for"] == "6.4.x, 6.3.x"
    assert "rocm_lib_missing" in [x.id for x in report.log_findings]


def test_cpu_only_verdict_is_useful():
    report = _report("cpu_only")
    v = report.verdict
    text = t(v.message_key, "en", **v.params)
    assert "No GPU found" in text and "2.21.0" in text
    assert any("tensorflow-rocm" in cmd for cmd in v.fix) and any("and-cuda" in cmd for cmd in v.fix)
    by_id = {c.id: c for c in report.checks}
    assert by_id["tf_import"].status == "ok" and by_id["tf_gpu_visible"].status == "skipped"


def test_visible_devices_hidden(tmp_path):
    import json
    import shutil

    root = tmp_path / "sys"
    shutil.copytree(FIXTURES / "rocm_healthy", root)
    probe = json.loads((root / "probe.json").read_text())
    probe["env"]["HIP_VISIBLE_DEVICES"] = "-1"
    tf = json.loads(probe["python"]["tensorflow"]["stdout"].split("@@", 2)[2])
    tf.update(gpus=[], matmul_device="", matmul_ok=None)  # what TensorFlow then reports
    probe["python"]["tensorflow"]["stdout"] = "@@ROCM_BRIDGE_DOCTOR@@" + json.dumps(tf)
    report = examine(root, FakeProbe(probe))
    assert (report.verdict.id, report.verdict.outcome) == ("env_vars", "devices_hidden")
    assert report.verdict.params["var"] == "HIP_VISIBLE_DEVICES" and report.verdict.params["total"] == 2


def test_gfx_conversions():
    assert gfx_from_target_version(90010) == "gfx90a"
    assert gfx_from_target_version(110000) == "gfx1100"
    assert gfx_from_target_version(90402) == "gfx942"
    assert gfx_from_override("10.3.0") == "gfx1030" and gfx_from_override("nonsense") is None
    assert override_suggestion("gfx1032") == "10.3.0" and override_suggestion("gfx1102") == "11.0.0"
    assert override_suggestion("gfx90a") is None


def test_rocminfo_and_kfd_parsing():
    text = (FIXTURES / "rocm_healthy" / "probe.json").read_text()
    import json

    gpus = parse_rocminfo(json.loads(text)["commands"]["rocminfo"]["stdout"])
    assert [(g.name, g.gfx) for g in gpus] == [("AMD Instinct MI250X", "gfx90a")] * 2  # the CPU agent is skipped
    kfd = kfd_topology(FIXTURES / "gfx1032_no_override")
    assert [g.gfx for g in kfd] == ["gfx1032"]  # CPU node (gfx_target_version 0) skipped


def test_tf_result_parsing_distinguishes_failures():
    from rocm_bridge.doctor.probes import CommandResult

    assert parse_tf_result(CommandResult(rc=None, timed_out=True)).status == "timeout"
    assert parse_tf_result(CommandResult(rc=-11, stderr="Segmentation fault")).status == "crash"
    missing = FakeProbe({}).python("tensorflow", 1)
    assert parse_tf_result(missing).status == "missing"


def test_real_subprocess_timeout_and_crash():
    """The real probe's mechanism: a hanging or aborting interpreter is reported, never raised."""
    hang = SystemProbe(python_argv=[sys.executable, "-c", "import time; time.sleep(30)"])
    result = hang.python("tensorflow", timeout_s=0.5)
    assert result.timed_out and parse_tf_result(result).status == "timeout"
    crash = SystemProbe(python_argv=[sys.executable, "-c", "import os; os.abort()"])
    assert parse_tf_result(crash.python("tensorflow", timeout_s=20)).status == "crash"


def test_tf_script_reports_missing_tensorflow_without_importing_it_here(tmp_path):
    """TF_SCRIPT run by an interpreter that cannot find tensorflow reports 'missing' through its JSON line."""
    blocker = tmp_path / "tensorflow"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'tensorflow'\")\n")
    probe = SystemProbe(python_argv=[sys.executable, "-c", f"import sys; sys.path.insert(0, {str(tmp_path)!r}); exec(sys.argv[-1])"])
    result = probe.python("tensorflow", timeout_s=30)
    assert parse_tf_result(result).status == "missing", result
    assert "import tensorflow" in TF_SCRIPT


def test_this_host_without_tensorflow_never_raises():
    report = examine("/", SystemProbe(), tensorflow=False)
    assert report.checks
    host_has_gpu = Path("/dev/kfd").exists() or Path("/proc/driver/nvidia/version").exists()
    if not host_has_gpu and not report.facts.pci_gpus:
        assert report.verdict.id == "no_gpu"


def test_without_tensorflow_installed_the_formula_targets_the_newest_release():
    """Like the H200 measurement host: NVIDIA driver 580 / CUDA 13.0, no TensorFlow package, import not run."""
    import json

    probe = json.loads((FIXTURES / "nvidia_healthy" / "probe.json").read_text())
    probe["packages"] = {"numpy": "2.5.2"}
    probe["python"]["nvml"]["stdout"] = json.dumps(
        {"driver": "580.159.04", "cuda": "13.0", "gpus": [{"name": "NVIDIA H200", "compute_capability": "9.0"}]})
    report = examine(FIXTURES / "nvidia_healthy", FakeProbe(probe), tensorflow=False)
    assert (report.verdict.id, report.verdict.outcome) == ("tf_import", "tf_missing")
    fr = report.formula
    # newest tested build: TF 2.21.0 with CUDA 12.5 -> driver >= 525.60.13 (1), CUDA 13.0 >= 12 (1), no TF (0)
    assert fr.target_tf == "2.21.0"
    assert fr.zero_factors == ["tensorflow"] and fr.value == 0


def test_tensorflow_not_run_gives_a_partial_verdict():
    from rocm_bridge.doctor.report import verdict_text

    root = FIXTURES / "rocm_healthy"
    report = examine(root, probe_for_root(root), tensorflow=False)
    assert report.verdict is None and report.exit_code == 0
    assert verdict_text(report, "en") == t("doctor.verdict.partial", "en")


@pytest.mark.parametrize(("ld", "outcome"), [("/opt/rocm-6.3.3/lib:/usr/lib", "env_ok"),
                                             ("/opt/rocm-5.7.1/lib:/opt/rocm/lib", "ld_path_other_rocm")])
def test_ld_library_path_with_another_rocm(ld, outcome):
    import json

    probe = json.loads((FIXTURES / "rocm_healthy" / "probe.json").read_text())
    probe["env"]["LD_LIBRARY_PATH"] = ld
    report = examine(FIXTURES / "rocm_healthy", FakeProbe(probe))
    env = next(c for c in report.checks if c.id == "env_vars")
    assert env.outcome == outcome
    assert report.exit_code == 0  # a warning, not a blocking failure
