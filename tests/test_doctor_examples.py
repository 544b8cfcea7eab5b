"""Every recorded example system: verdict, exit code and key facts, worked out by hand from each system's NOTES.md
(the story and its source) and the data tables, before the rules were written. Plus the report-wide invariants:
no self-contradiction, every printed pin exists, every check cites a source.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from rocm_bridge import compat
from rocm_bridge.doctor import EXAMPLE_ORDER, examine, probe_for_root
from rocm_bridge.doctor.report import to_markdown, to_text, verdict_text
from rocm_bridge.i18n import LANGS, t

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "doctor_examples"

# name: (platform, verdict check id, verdict outcome, exit code,
#        true gfx targets (KFD sysfs, else the runtime's list; NVIDIA: []), GPU count, ROCm, TF package version, Python, NumPy, NVIDIA driver)
EXPECTED = {
    "rocm_healthy": ("amd", None, None, 0, ["gfx90a", "gfx90a"], 2, "6.3.3-74", "2.16.2", "3.12.4", "1.26.4", ""),
    "no_driver": ("amd", "driver", "driver_missing", 1, [], 0, "6.3.3-74", "2.16.2", "3.12.4", "1.26.4", ""),
    "container_no_kfd": ("amd", "device_nodes", "kfd_missing", 1, [], 0, "6.3.3-74", "2.16.2", "3.12.4", "1.26.4", ""),
    "kfd_denied": ("amd", "device_nodes", "kfd_denied", 1, ["gfx90a"], 1, "6.3.3-74", "2.16.2", "3.12.4", "1.26.4", ""),
    "not_in_render_group": ("amd", "groups", "group_missing", 1, ["gfx90a"], 1, "6.3.3-74", "2.16.2", "3.12.4",
                            "1.26.4", ""),
    "gfx1032_no_override": ("amd", "gfx_supported", "gfx_unsupported", 1, ["gfx1032"], 1, "6.2.4-74", "2.16.1",
                            "3.10.12", "1.26.4", ""),
    "gfx1032_override": ("amd", "gfx_supported", "override_same_isa", 0, ["gfx1032"], 1, "6.2.4-74", "2.16.1", "3.10.12",
                         "1.26.4", ""),
    # 2.16.2 is an AMD-repository name (no ROCm suffix): the table lists it for 6.3.x/6.4.x, another major than 5.7.1
    "wheel_rocm_mismatch": ("amd", "wheel_match", "wheel_mismatch", 1, ["gfx90a"], 1, "5.7.1-74", "2.16.2", "3.10.12",
                            "1.26.4", ""),
    "numpy2_old_tf": ("amd", "python_packages", "numpy2_old_tf", 1, ["gfx90a"], 1, "6.0.2-74", "2.14.0.600", "3.10.12",
                      "2.1.3", ""),
    "tf_import_crash": ("amd", "tf_import", "tf_crash", 1, ["gfx90a"], 1, "6.3.3-74", "2.16.2", "3.12.4", "1.26.4", ""),
    "tf_import_hang": ("amd", "tf_import", "tf_timeout", 1, ["gfx90a"], 1, "6.3.3-74", "2.16.2", "3.12.4", "1.26.4", ""),
    "nvidia_healthy": ("nvidia", None, None, 0, [], 1, "", "2.17.0", "3.11.9", "1.26.4", "550.54.15"),
    "nvidia_old_driver": ("nvidia", "nv_cuda", "nv_driver_old", 1, [], 1, "", "2.17.0", "3.11.9", "1.26.4",
                          "470.223.02"),
    "cpu_only": ("none", "no_gpu", "no_gpu", 1, [], 0, "", "2.21.0", "3.11.7", "2.4.6", ""),
    # --- written from real reports and docs (see each NOTES.md) ---
    "rocr_empty_hides_all": ("amd", "env_vars", "devices_hidden_rocr", 1, ["gfx90a", "gfx90a"], 2, "6.3.3-74", "2.17.0",
                             "3.12.4", "1.26.4", ""),
    "hip_invalid_index": ("amd", "env_vars", "devices_dropped", 0, ["gfx942"] * 4, 4, "6.4.1-83", "2.18.1", "3.12.9",
                          "2.0.2", ""),
    "rocr_then_hip_out_of_range": ("amd", "env_vars", "devices_hidden", 1, ["gfx90a"] * 8, 8, "6.2.4-120", "2.16.1",
                                   "3.10.12", "1.26.4", ""),
    "rocr_repeated_index": ("amd", "env_vars", "devices_dropped_rocr", 0, ["gfx1100"] * 2, 2, "6.3.3-74", "2.16.2",
                            "3.10.16", "1.26.4", ""),
    "override_rdna2_harmless": ("amd", "gfx_supported", "override_same_isa", 0, ["gfx1031"], 1, "6.3.3-74", "2.16.2",
                                "3.12.4", "1.26.4", ""),
    "override_masks_supported": ("amd", "gfx_supported", "override_masks", 1, ["gfx90a"], 1, "6.4.3-127", "2.18.1",
                                 "3.12.9", "1.26.4", ""),
    "override_wrong_generation": ("amd", "gfx_supported", "override_bad", 1, ["gfx1012"], 1, "6.2.4-120", "2.16.1",
                                  "3.10.12", "1.26.4", ""),
    "wheel_600_on_rocm7": ("amd", "wheel_match", "wheel_mismatch", 1, ["gfx942"], 1, "7.0.2-56", "2.14.0.600",
                           "3.10.12", "1.26.4", ""),
    "wheel_tf_only_name": ("amd", "wheel_match", "wheel_other_line", 0, ["gfx1100"], 1, "6.3.3-74", "2.16.1",
                           "3.10.16", "1.26.4", ""),
    "python312_rocm60": ("amd", "wheel_match", "python_no_wheel", 1, ["gfx1100"], 1, "6.0.2-115", "", "3.12.3",
                         "1.26.4", ""),
    "tf_rocm_on_nvidia": ("nvidia", "nv_wheel", "wrong_vendor_wheel", 1, [], 1, "", "2.14.0.600", "3.11.9", "1.26.4",
                          "550.120"),
    "cuda_tf_on_amd": ("amd", "wheel_match", "not_rocm_wheel", 1, ["gfx90a", "gfx90a"], 2, "6.2.4-120", "2.17.0",
                       "3.10.12", "1.26.4", ""),
    "tf_cpu_on_nvidia": ("nvidia", "nv_wheel", "cpu_wheel", 1, [], 1, "", "2.16.1", "3.11.9", "1.26.4", "535.183.01"),
    "wsl2_rocm_working": ("amd", None, None, 0, ["gfx1100"], 1, "7.2.1-81", "2.20.0", "3.12.3", "2.1.3", ""),
    "wsl2_no_runtime": ("amd", "gpus", "wsl_no_gpu_agent", 1, [], 0, "7.2.0-43", "2.20.0", "3.12.3", "2.1.3", ""),
    "wsl2_no_rocm": ("none", "no_gpu", "wsl_no_stack", 1, [], 0, "", "", "3.12.3", "2.1.3", ""),
    "wsl2_no_dxg": ("amd", "driver", "wsl_no_dxg", 1, [], 0, "6.4.1-83", "", "3.10.12", "1.26.4", ""),
    "container_no_devices": ("amd", "device_nodes", "container_no_devices", 1, ["gfx942"], 1, "6.3.3-74", "2.17.0",
                             "3.12.4", "1.26.4", ""),
    "container_no_group": ("amd", "groups", "container_group_missing", 1, ["gfx942"], 1, "6.3.3-74", "2.17.0", "3.12.4",
                           "1.26.4", ""),
    "container_seccomp_shm": ("amd", "device_nodes", "container_options", 0, ["gfx942"], 1, "6.3.3-74", "2.17.0",
                              "3.12.4", "1.26.4", ""),
    "old_distro_video_group": ("amd", None, None, 0, ["gfx908"], 1, "6.1.2-119", "2.15.0", "3.10.14", "1.26.4", ""),
    "core_sdk_10": ("amd", "wheel_match", "tf_missing", 1, ["gfx942"], 1, "10.0.0", "", "3.12.3", "2.1.3", ""),
    "slurm_rocr_plus_cuda_visible": ("amd", "env_vars", "devices_hidden", 1, ["gfx90a"] * 8, 8, "6.2.4-120", "2.16.1",
                                     "3.10.12", "1.26.4", ""),
    "gpu_device_ordinal_set": ("amd", "env_vars", "gpu_device_ordinal", 0, ["gfx1100"] * 2, 2, "6.3.3-74", "2.17.0",
                               "3.12.4", "1.26.4", ""),
    "igpu_plus_dgpu": ("amd", "gfx_supported", "gfx_partial", 0, ["gfx1100", "gfx1036"], 2, "7.2.4-93", "2.20.0",
                       "3.12.3", "2.1.3", ""),
    "nvidia_cuda_visible_bad": ("nvidia", "nv_env_vars", "nv_devices_dropped", 0, [], 2, "", "2.17.0", "3.11.9", "1.26.4",
                                "550.54.15"),
    # --- issue 26: fixes for the machine in front of the doctor ---
    "secure_boot_dkms_unsigned": ("amd", "driver", "module_refused", 1, [], 0, "6.3.2-66", "2.16.2", "3.12.7",
                                  "1.26.4", ""),
    "rhel_dkms_key_rejected": ("amd", "driver", "module_refused", 1, [], 0, "6.2.4-120", "2.16.1", "3.11.7",
                               "1.26.4", ""),
    "podman_rootless_nogroup": ("amd", "groups", "podman_keep_groups", 1, ["gfx1030"], 1, "6.2.4-120", "2.16.1",
                                "3.10.12", "1.26.4", ""),
    "apptainer_containall": ("amd", "device_nodes", "apptainer_no_devices", 1, ["gfx942"], 1, "6.2.4-120", "2.16.1",
                             "3.10.12", "1.26.4", ""),
    "tf_io_overwrites_rocm": ("amd", "wheel_match", "tf_builds_conflict", 1, ["gfx1100"], 1, "6.3.3-74", "2.16.2",
                              "3.12.3", "1.26.4", ""),
    "nvidia_tf_without_and_cuda": ("nvidia", "nv_cuda_libs", "nv_no_cuda_libs", 1, [], 1, "", "2.16.1", "3.10.13",
                                   "1.26.4", "550.54.14"),
    "hip_visible_selects_igpu": ("amd", "gfx_supported", "gfx_hidden_supported", 1, ["gfx1101", "gfx1103"], 2,
                                 "7.0.2-56", "2.19.0", "3.12.3", "2.1.3", ""),
    "wheel_built_for_newer_rocm": ("amd", "wheel_match", "wheel_newer_rocm", 1, ["gfx90a", "gfx90a"], 2, "6.2.4-120",
                                   "2.17.0", "3.10.12", "1.26.4", ""),
    "override_gfx1151_apu": ("amd", "gfx_supported", "override_in_use", 0, ["gfx1151"], 1, "7.0.2-56", "2.18.1",
                             "3.12.3", "2.0.2", ""),
    "uv_numpy2_old_tf": ("nvidia", "python_packages", "numpy2_old_tf", 1, [], 1, "", "2.14.0", "3.11.9", "2.3.4",
                         "550.120"),
    # --- held-out red team (issue 26): written from reports the rules were not built from ---
    "dkms_not_built_new_kernel": ("amd", "driver", "dkms_other_kernel", 1, [], 0, "6.2.0-66", "2.16.1", "3.12.3",
                                  "1.26.4", ""),
    "rocm_libs_not_in_linker": ("amd", "tf_import", "rocm_lib_not_linked", 1, ["gfx908"], 1, "5.1.0-87", "2.8.0",
                                "3.8.10", "1.22.3", ""),
    "tf_2140600_drops_gfx1100": ("amd", "wheel_match", "tf_build_lacks_gfx", 1, ["gfx1100"], 1, "6.0.2-115",
                                 "2.14.0.600", "3.10.12", "1.26.4", ""),
    "debian12_python311_no_wheel": ("amd", "wheel_match", "tf_missing", 1, ["gfx1030"], 1, "5.6.0-67", "", "3.11.2",
                                    "1.24.2", ""),
    "miopen_kdb_missing_warning": ("amd", None, None, 0, ["gfx1030"], 1, "6.1.3-122", "2.15.0", "3.10.12", "1.26.4", ""),
    "ubuntu_rocminfo_blocks_rocm": ("amd", "rocm_install", "rocm_distro_pkgs", 1, ["gfx1102"], 1, "", "", "3.12.3",
                                    "1.26.4", ""),
    "torch_pins_old_cudnn": ("nvidia", "nv_cuda_libs", "nv_cudnn_old", 1, [], 1, "", "2.18.0", "3.11.11", "2.0.2",
                             "560.35.03"),
    "container_video_only_render_gid": ("amd", "groups", "container_group_missing", 1, ["gfx1151"], 1, "7.0.0-38",
                                        "2.19.0", "3.12.3", "2.1.3", ""),
    "gfx803_rocm62": ("amd", "gfx_supported", "gfx_unsupported", 1, ["gfx803"], 1, "6.2.1-112", "2.16.1", "3.10.12",
                      "1.26.4", ""),
    "wsl_rocm_642_no_wsl_support": ("amd", "gpus", "wsl_rocm_old", 1, [], 0, "6.4.2-120", "", "3.10.12", "1.26.4", ""),
}


def _report(name: str):
    root = FIXTURES / name
    return examine(root, probe_for_root(root))


def test_every_example_is_listed_documented_and_expected():
    on_disk = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())
    assert on_disk == sorted(EXPECTED) == sorted(EXAMPLE_ORDER)
    assert len(EXPECTED) >= 30
    for name in on_disk:
        notes = (FIXTURES / name / "NOTES.md").read_text(encoding="utf-8")
        assert "Source" in notes and "Worked out by hand" in notes, name
        assert re.search(r"https?://|github\.com/", notes), name
        for lang in LANGS:
            assert t(f"doctor.example.{name}", lang)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_example_verdict_exit_code_and_facts(name):
    platform, check_id, outcome, code, gfx, count, rocm, tf, python, numpy, nv_driver = EXPECTED[name]
    report = _report(name)
    f = report.facts
    assert f.platform == platform
    v = report.verdict
    assert ((v.id, v.outcome) if v else (None, None)) == (check_id, outcome), \
        [(c.id, c.status, c.outcome) for c in report.checks if c.status in ("fail", "warn")]
    assert report.exit_code == code
    assert [g.gfx for g in (f.kfd_gpus or f.amd_gpus)] == gfx  # the true targets; the runtime's list without sysfs
    assert f.gpu_count == count
    assert f.rocm_version == rocm
    assert (f.tf_dist[1] if f.tf_dist else "") == tf
    assert f.python == python
    assert (f.packages.get("numpy") or "") == numpy
    assert f.nvidia_driver == nv_driver


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_reports_never_contradict_themselves(name):
    report = _report(name)
    by_id = {c.id: c for c in report.checks}
    matmul_on_gpu = by_id.get("matmul") is not None and by_id["matmul"].status == "ok"
    kernel_side = ("driver", "device_nodes", "groups", "gpus", "env_vars", "gfx_supported", "nv_driver", "nv_env_vars")
    if matmul_on_gpu:
        for cid in kernel_side:
            if cid in by_id:
                assert by_id[cid].status != "fail", (cid, by_id[cid].outcome)
    if report.facts.tensorflow.gpus:  # TensorFlow reached a GPU: nothing may say no GPU can be reached
        unreachable = {"driver_missing", "kfd_missing", "dri_missing", "container_no_devices", "no_amd_gpu",
                       "devices_hidden", "devices_hidden_rocr", "wsl_no_dxg", "wsl_no_gpu_agent", "nv_driver_missing",
                       "nv_no_gpu", "nv_devices_hidden", "no_gpu"}
        assert not [c.outcome for c in report.checks if c.status == "fail" and c.outcome in unreachable]
    for lang in LANGS:
        text = to_text(report, lang) + to_markdown(report, lang)
        assert "(-)" not in verdict_text(report, lang)
        assert "built for ?" not in text and "built for -" not in text
        if matmul_on_gpu:
            assert t("doctor.outcome.driver_missing", lang) not in text
    # a GPU count the report states is the one the facts hold
    if by_id.get("gpus") and by_id["gpus"].status == "ok":
        assert str(report.facts.gpu_count) == by_id["gpus"].params["count"].__str__()


PIN = re.compile(r"\b(tensorflow-rocm|tensorflow|tensorflow-cpu)==([0-9][0-9A-Za-z.+]*)")


def _published(dist: str, version: str, command: str) -> bool:
    """Some row of the compatibility data holds a release this pin matches, in the index the command names."""
    spec = SpecifierSet(f"=={version}")
    if dist == "tensorflow-rocm":
        for row in compat.rows("pypi_wheel"):
            name, _, listed = row.package.partition("==")
            if name == dist and spec.contains(Version(listed)) and "repo.radeon.com" not in command:
                return True
        for row in compat.rows("rocm_release"):
            if row.preview or not row.rocm:
                continue
            major, minor = compat.rocm_line(row.rocm)
            repo = f"https://repo.radeon.com/rocm/manylinux/rocm-rel-{major}.{minor}/"
            if repo in command and any(spec.contains(Version(v)) for v in row.tensorflow if v.count(".") == 2):
                return True
        return False
    return any(spec.contains(Version(r.tensorflow)) for r in compat.cuda_rows())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_printed_pin_exists_in_the_data(name):
    report = _report(name)
    pins = 0
    for c in report.checks:
        for cmd in c.fix:
            for dist, version in PIN.findall(cmd):
                pins += 1
                assert _published(dist, version, cmd), (c.id, cmd)
                if dist == "tensorflow-rocm":
                    assert "pypi.org" in cmd or "repo.radeon.com" in cmd, cmd  # the index is named
    assert pins >= 0


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_non_skipped_check_cites_a_source(name):
    for c in _report(name).checks:
        if c.status != "skipped":
            assert c.source, (c.id, c.outcome)


def test_docs_list_every_example_with_its_source():
    doc = (Path(__file__).resolve().parent.parent / "docs" / "doctor.md").read_text(encoding="utf-8")
    for name in EXPECTED:
        line = next((x for x in doc.splitlines() if x.startswith(f"| `{name}` |")), None)
        assert line, name
        notes = (FIXTURES / name / "NOTES.md").read_text(encoding="utf-8")
        first_url = re.search(r"https?://\S+|github\.com/\S+", notes).group(0).rstrip(").,")
        assert first_url in line, (name, first_url)
