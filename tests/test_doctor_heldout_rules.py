"""The rules added after the held-out red team (issue 26), on the inputs that tell them apart: TensorFlow's own target
list compared entry by entry, dkms status per kernel, the distribution's ROCm packages by version shape, the pip cuDNN
against the build's, an unregistered ROCm library directory."""

from __future__ import annotations

from pathlib import Path

from rocm_bridge.doctor import examine, probe_for_root
from rocm_bridge.doctor.amd_driver import dkms_kernels
from rocm_bridge.doctor.amd_wheel import build_lacks_gfx
from rocm_bridge.doctor.checks import unlinked_rocm_lib
from rocm_bridge.doctor.facts import Facts
from rocm_bridge.doctor.facts_amd import distro_rocm_packages
from rocm_bridge.doctor.rules import _pip_cudnn_too_old

FIXTURES = Path(__file__).resolve().parent.parent / "data" / "doctor_examples"
IGNORED = ("I tensorflow/core/common_runtime/gpu/gpu_device.cc:2266] Ignoring visible gpu device (device: 0, name: "
           "Radeon RX 7900 XTX, pci bus id: 0000:03:00.0) with AMDGPU version : {gfx}. The supported AMDGPU versions "
           "are {targets}.")


def _facts(gfx: str, targets: str, rocm: str = "6.0.2-115") -> Facts:
    f = Facts(root="/")
    f.rocm_version = rocm
    f.tensorflow.stderr_tail = IGNORED.format(gfx=gfx, targets=targets)
    return f


def test_the_build_list_is_compared_entry_by_entry_like_tensorflow():
    typo = "gfx1030gfx1100, gfx900, gfx906, gfx908, gfx90a, gfx940, gfx941, gfx942"
    assert build_lacks_gfx(_facts("gfx1100", typo)) == ("gfx1100", typo.split(", "))
    assert build_lacks_gfx(_facts("gfx1030", typo))[0] == "gfx1030"
    assert build_lacks_gfx(_facts("gfx1100", "gfx1030, gfx1100, gfx900")) is None
    # a GPU the ROCm line does not list is the gfx check's verdict, not the build's
    assert build_lacks_gfx(_facts("gfx803", "gfx1030, gfx1100, gfx900", rocm="6.2.1-112")) is None


def test_dkms_status_kernels_count_only_built_or_installed_amdgpu():
    f = Facts(root="/")
    f.dkms_status = ("amdgpu/6.8.5-2009582.24.04, 6.8.0-41-generic, x86_64: installed\n"
                     "amdgpu/6.8.5-2009582.24.04, 6.8.0-44-generic, x86_64: added")
    assert dkms_kernels(f) == ["6.8.0-41-generic"]


def test_distribution_packages_are_told_from_amds_by_the_release_code():
    status = ("Package: rocminfo\nStatus: install ok installed\nVersion: 5.7.1-3build1\n\n"
              "Package: rocm-hip-runtime\nStatus: install ok installed\nVersion: 6.2.0.60200-66~24.04\n\n"
              "Package: hipcc\nStatus: deinstall ok config-files\nVersion: 5.7.1-3\n\n"
              "Package: python3\nStatus: install ok installed\nVersion: 3.12.3-0ubuntu2\n")
    assert distro_rocm_packages(status) == {"rocminfo": "5.7.1-3build1"}


def test_pip_cudnn_is_judged_against_the_builds_major_and_minor():
    f = Facts(root="/")
    f.packages["nvidia-cudnn-cu12"] = "9.1.0.70"
    assert _pip_cudnn_too_old(f, ("tensorflow", "2.18.0")) == ("nvidia-cudnn-cu12", "9.1.0.70", "9.3")
    f.packages["nvidia-cudnn-cu12"] = "9.5.1.17"
    assert _pip_cudnn_too_old(f, ("tensorflow", "2.18.0")) is None


def test_an_unregistered_rocm_library_clears_once_its_directory_is_registered():
    f = Facts(root="/")
    f.tensorflow.error = "OSError: libhsa-runtime64.so.1: cannot open shared object file: No such file or directory"
    f.rocm_libs = {"libhsa-runtime64.so.1": "/opt/rocm-5.1.0/lib"}
    assert unlinked_rocm_lib(f) == ("libhsa-runtime64.so.1", "/opt/rocm-5.1.0/lib")
    f.env["LD_LIBRARY_PATH"] = "/opt/rocm-5.1.0/lib/"
    assert unlinked_rocm_lib(f) is None
    f.env.clear()
    f.rocm_libs = {}  # another soname (libamdhip64.so.5 on ROCm 6): not this rule
    assert unlinked_rocm_lib(f) is None


def test_the_recorded_system_reads_libraries_and_linker_directories_from_its_root():
    root = FIXTURES / "rocm_libs_not_in_linker"
    facts = examine(root, probe_for_root(root)).facts
    assert facts.rocm_libs["libhsa-runtime64.so.1"] == "/opt/rocm-5.1.0/lib"
    assert facts.ld_dirs == []


def test_a_wheel_for_a_newer_rocm_does_not_block_once_the_matmul_ran_on_the_gpu():
    from rocm_bridge.doctor.rules import run_checks

    root = FIXTURES / "wheel_built_for_newer_rocm"
    facts = examine(root, probe_for_root(root)).facts
    assert next(c for c in run_checks(facts) if c.id == "wheel_match").status == "fail"
    facts.tensorflow.gpus = ["/physical_device:GPU:0"]
    facts.tensorflow.matmul_device, facts.tensorflow.matmul_ok, facts.tensorflow.error = "/device:GPU:0", True, ""
    wheel = next(c for c in run_checks(facts) if c.id == "wheel_match")
    assert (wheel.status, wheel.outcome, wheel.blocking) == ("warn", "contradicted", False)
