"""Apply the fix, then check again: for every blocking failure of every example system, the doctor's fix is a
transformation of the probed facts (rocm_bridge.doctor.fixes). Applied to the facts, and the checks re-run, it must
clear that check and raise no new blocking failure. A fix that is not such a transformation says who must act and
why (Check.person, a translated reason). The printed commands come from the same actions (one definition)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rocm_bridge.doctor import EXAMPLE_ORDER, examine, fixes, probe_for_root
from rocm_bridge.doctor.facts import collect
from rocm_bridge.doctor.probes import FakeProbe
from rocm_bridge.doctor.rules import run_checks
from rocm_bridge.i18n import LANGS, t

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "doctor_examples"


def _blocking(checks):
    return {c.id: c for c in checks if c.status == "fail" and c.blocking}


def _facts(name):
    root = FIXTURES / name
    return collect(root, probe_for_root(root))


def test_every_action_kind_says_what_it_does_in_both_languages():
    from rocm_bridge.doctor.facts import Facts

    for kind in fixes.KINDS:
        for runtime in ("docker", "podman", "apptainer"):
            key = fixes.note_key(kind, Facts(root="/", container=runtime))
            for lang in LANGS:
                assert t(key, lang), key


@pytest.mark.parametrize("name", EXAMPLE_ORDER)
def test_applying_each_fix_clears_its_check_and_raises_no_new_blocking_one(name):
    facts = _facts(name)
    before = _blocking(run_checks(facts))
    for cid, check in before.items():
        if check.person and not check.actions:
            for lang in LANGS:
                assert t(f"doctor.person.{check.person}", lang), (name, cid)
            continue
        assert check.actions, (name, cid, check.outcome, "a blocking check needs actions or a person")
        assert check.fix[: len(fixes.commands(check.actions, facts))] == fixes.commands(check.actions, facts)
        after = _blocking(run_checks(fixes.apply(facts, check.actions)))
        if check.person:  # partly a transformation (e.g. unset the override) and partly a person (new hardware)
            continue
        assert cid not in after, (name, cid, check.outcome, after[cid].outcome if cid in after else None)
        new = set(after) - set(before)
        assert not new, (name, cid, check.outcome, [(c, after[c].outcome) for c in new])


@pytest.mark.parametrize("name", EXAMPLE_ORDER)
def test_a_warnings_suggestion_is_also_checked(name):
    """Non-blocking suggestions made of actions obey the same rule: applied, the warning goes and nothing blocks."""
    facts = _facts(name)
    checks = run_checks(facts)
    blocking = set(_blocking(checks))
    for c in checks:
        if c.status != "warn" or not c.actions:
            continue
        after = {x.id: x for x in run_checks(fixes.apply(facts, c.actions))}
        assert (after[c.id].status, after[c.id].outcome) != ("warn", c.outcome), (name, c.id, c.outcome)
        assert not set(_blocking(after.values())) - blocking, (name, c.id)


@pytest.mark.parametrize("name", EXAMPLE_ORDER)
def test_applying_every_fix_in_turn_leaves_no_blocking_failure(name):
    """Follow the doctor like a user: apply the verdict's fix, check again, repeat. It ends with nothing blocking, or
    at a check that needs a person, never in a loop."""
    facts = _facts(name)
    seen = []
    for _ in range(8):
        blocking = [c for c in run_checks(facts) if c.status == "fail" and c.blocking]
        if not blocking:
            return
        first = blocking[0]
        if first.person:
            return
        assert (first.id, first.outcome) not in seen, (name, seen, first.outcome)
        seen.append((first.id, first.outcome))
        facts = fixes.apply(facts, first.actions)
    pytest.fail(f"{name}: still blocking after 8 fixes: {seen}")


def test_a_fix_is_never_the_same_command_the_user_already_ran():
    """The Secure Boot case: the module is built and refused; "install amdgpu-dkms, modprobe" is what the user did."""
    report = examine(FIXTURES / "secure_boot_dkms_unsigned", probe_for_root(FIXTURES / "secure_boot_dkms_unsigned"))
    v = report.verdict
    assert v.outcome == "module_refused"
    assert not any("install" in cmd and "amdgpu-dkms" in cmd for cmd in v.fix)
    assert any(cmd.startswith("sudo mokutil --import /var/lib/dkms/mok.pub") for cmd in v.fix)
    # modprobe alone, applied to these facts, leaves the driver check failing by the doctor's own rules
    facts = report.facts
    after = run_checks(fixes.apply(facts, [fixes.act("modprobe", module="amdgpu")]))
    assert next(c for c in after if c.id == "driver").status == "fail"


def _probe(name, **changes):
    data = json.loads((FIXTURES / name / "probe.json").read_text(encoding="utf-8"))
    data.update(changes)
    return FakeProbe(data)


@pytest.mark.parametrize(("os_release", "expected"), [
    ('ID=ubuntu\nID_LIKE=debian\nPRETTY_NAME="Ubuntu 24.04.1 LTS"\n', "sudo apt install -y"),
    ('ID="rhel"\nID_LIKE="fedora"\nPRETTY_NAME="Red Hat Enterprise Linux 9.4 (Plow)"\n', "sudo dnf install -y"),
    ('ID="sles"\nID_LIKE="suse"\nPRETTY_NAME="SUSE Linux Enterprise Server 15 SP6"\n', "sudo zypper install -y"),
])
def test_driver_install_uses_the_package_manager_found(tmp_path, os_release, expected):
    import shutil

    root = tmp_path / "root"
    shutil.copytree(FIXTURES / "no_driver", root)
    (root / "etc").mkdir(exist_ok=True)
    (root / "etc/os-release").write_text(os_release, encoding="utf-8")
    report = examine(root, FakeProbe.from_file(root / "probe.json"))
    assert report.verdict.outcome == "driver_missing"
    assert any(cmd.startswith(expected) and "amdgpu-dkms" in cmd for cmd in report.verdict.fix), report.verdict.fix
    assert not any(cmd.startswith("sudo ") and expected.split()[1] not in cmd and "install" in cmd
                   and "amdgpu-dkms" in cmd for cmd in report.verdict.fix)


def test_python_fixes_use_the_tool_that_owns_the_package():
    facts = _facts("numpy2_old_tf")
    for installer, prefix in (("conda", "conda install -y 'numpy<2'"), ("uv", "uv pip install 'numpy<2'"),
                              ("pip", "python -m pip install 'numpy<2'")):
        facts.installers["numpy"] = installer
        check = next(c for c in run_checks(facts) if c.id == "python_packages")
        assert check.fix[0].startswith(prefix), check.fix


def test_visibility_fixes_never_leave_zero_gpus_by_the_doctors_own_rules():
    from rocm_bridge.doctor.checks import visible_after

    for name in EXAMPLE_ORDER:
        facts = _facts(name)
        for c in run_checks(facts):
            env_actions = [a for a in c.actions if a.kind in ("env_set", "env_unset")
                           and a.p["var"].endswith("VISIBLE_DEVICES")]
            if env_actions and facts.gpu_count:
                assert visible_after(facts, c.actions, "nv_" if facts.platform == "nvidia" else "") > 0, (name, c.id)


def test_conflicting_builds_are_removed_by_the_manager_that_owns_each():
    """conda owns the CUDA tensorflow, pip the ROCm one: each is removed with its own tool, the ROCm build goes back
    with the conda environment's pip (conda has no tensorflow-rocm), and the re-check is clean."""
    facts = _facts("tf_io_overwrites_rocm")
    facts.installers["tensorflow"] = "conda"
    facts.env["CONDA_DEFAULT_ENV"] = "tf"
    check = next(c for c in run_checks(facts) if c.id == "wheel_match")
    assert check.outcome == "tf_builds_conflict"
    assert "python -m pip uninstall -y tensorflow-rocm" in check.fix
    assert "conda remove -y --force tensorflow" in " ".join(check.fix)
    install = [cmd for cmd in check.fix if "install tensorflow-rocm==2.16.2" in cmd]
    assert install and install[0].startswith("python -m pip install") and "rocm-rel-6.3" in install[0]
    after = fixes.apply(facts, check.actions)
    assert [d for d in ("tensorflow-rocm", "tensorflow") if after.packages.get(d)] == ["tensorflow-rocm"]
    assert not _blocking(run_checks(after))


def test_the_and_cuda_check_is_silent_when_tensorflow_sees_the_gpu_or_the_libraries_are_there():
    facts = _facts("nvidia_tf_without_and_cuda")
    assert next(c for c in run_checks(facts) if c.id == "nv_cuda_libs").status == "fail"
    facts.system_cudnn = True  # cuDNN installed system-wide (ldconfig -p lists libcudnn)
    assert next(c for c in run_checks(facts) if c.id == "nv_cuda_libs").status == "ok"
    healthy = _facts("nvidia_healthy")
    assert next(c for c in run_checks(healthy) if c.id == "nv_cuda_libs").status == "ok"


def test_secure_boot_is_read_from_efi_then_mokutil():
    ubuntu, rhel = _facts("secure_boot_dkms_unsigned"), _facts("rhel_dkms_key_rejected")
    assert ubuntu.secure_boot is True and ubuntu.secure_boot_source.startswith("/sys/firmware/efi/efivars/SecureBoot-")
    assert ubuntu.lockdown == "integrity" and ubuntu.mok_enrolled is False
    assert rhel.secure_boot is True and rhel.secure_boot_source == "mokutil --sb-state" and rhel.lockdown == ""
    assert rhel.amdgpu_on_disk.endswith("/extra/amdgpu.ko.xz") and rhel.pkg_manager == "dnf"
    assert any("Loading of unsigned module is rejected" in m for m in rhel.module_messages)
    plain = _facts("no_driver")
    assert plain.secure_boot is None and plain.mok_enrolled is None and plain.amdgpu_on_disk == ""


def test_system_probe_reads_the_installer_of_a_real_distribution():
    from rocm_bridge.doctor.probes import SystemProbe

    probe = SystemProbe()
    assert probe.package_installer("packaging") in ("pip", "uv", "conda", "poetry")
    assert probe.package_installer("no-such-distribution-rocm-bridge") is None
    assert probe.which("sh") and probe.which("no-such-tool-rocm-bridge") is None


def _variant(name, **changes):
    from rocm_bridge.doctor.facts import TensorFlowProbe

    facts = _facts(name)
    facts.tensorflow = TensorFlowProbe()  # the recorded TensorFlow answer belongs to the unchanged system
    for key, value in changes.items():
        setattr(facts, key, value)
    return facts


VARIANTS = {
    # outcomes no recorded system reaches, made from one by changing the facts that decide them
    "rocm_missing": lambda: _variant("rocm_healthy", rocm_version="", rocm_version_file="", rocm_dirs=[]),
    "nv_driver_missing": lambda: _variant("nvidia_healthy", nvidia_driver="", nvidia_gpus=[],
                                          pci_gpus=[{"slot": "0000:01:00.0", "vendor": "nvidia", "device": "0x20b0"}]),
    "keras3_old_tf": lambda: _variant("numpy2_old_tf", packages={**_facts("numpy2_old_tf").packages, "numpy": "1.26.4",
                                                                 "keras": "3.3.3"}),
    "dri_missing": lambda: _variant("container_seccomp_shm", render_nodes={}),
    "group_missing_video": lambda: _variant("old_distro_video_group", groups=["wei"],
                                            kfd_access={"r": False, "w": False, "group": "video"},
                                            render_nodes={"/dev/dri/renderD128": {"r": False, "w": False,
                                                                                  "group": "video"}}),
    "driver_missing_secure_boot": lambda: _variant("no_driver", secure_boot=True, mok_key="/var/lib/dkms/mok.pub",
                                                   mok_enrolled=False, os_id="ubuntu"),
    "driver_not_loaded": lambda: _variant("no_driver", amdgpu_on_disk="/lib/modules/6.8.0-45-generic/updates/dkms/amdgpu.ko"),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_fixes_of_outcomes_no_recorded_system_reaches(variant):
    facts = VARIANTS[variant]()
    before = _blocking(run_checks(facts))
    assert before, variant
    for cid, check in before.items():
        if check.person and not check.actions:
            continue
        after = _blocking(run_checks(fixes.apply(facts, check.actions)))
        assert cid not in after, (variant, cid, check.outcome)
        assert not set(after) - set(before), (variant, cid, [(c, after[c].outcome) for c in set(after) - set(before)])
    if variant == "driver_missing_secure_boot":  # installing under Secure Boot includes enrolling the DKMS key
        fix = before["driver"].fix
        assert any("amdgpu-dkms" in c for c in fix) and "sudo mokutil --import /var/lib/dkms/mok.pub" in fix
