"""The log doctor against real error texts (quoted from the GitHub issues named in data/log_signatures.csv)."""

from __future__ import annotations

import re

import pytest

from rocm_bridge.data import read_csv
from rocm_bridge.doctor.logs import MAX_LOG_BYTES, decode_log, diagnose, signatures
from rocm_bridge.errors import FileTooLarge, NotText

REAL = {
    # ROCm/tensorflow-upstream#1951 style (as quoted in env_checks.csv)
    "unsupported_gfx": "2023-01-01 W gpu_device.cc] Ignoring visible gpu device (device: 0, name: AMD Radeon RX 6700 XT, "
    "pci bus id: 0000:0b:00.0) with AMDGPU version : gfx1031. The supported AMDGPU versions are gfx1030, gfx900, gfx906, "
    "gfx908, gfx90a.",
    "no_binary_for_gpu": '"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"',
    # ROCm/tensorflow-upstream#1207
    "rocm_lib_missing": "    from tensorflow.python._pywrap_tensorflow_internal import *\n"
    "ImportError: libamdhip64.so.3: cannot open shared object file: No such file or directory",
    # ROCm/legacy-rocm-build#1852
    "rocm_dso_not_loaded": "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic library "
    "'librocblas.so'; dlerror: librocblas.so: cannot open shared object file: No such file or directory; "
    "LD_LIBRARY_PATH: /opt/rocm/lib",
    "kfd_permission": "Unable to open /dev/kfd read-write: Permission denied\nalice is not member of \"render\" group, the default "
    "DRM access group. Users must be a member of the \"render\" group or another DRM access group in order for ROCm "
    "applications to run successfully.",
    # ROCm/MIOpen#2123
    "miopen_perfdb": "MIOpen(HIP): Warning [SQLiteBase] Missing system database file: gfx1030_12.kdb Performance may degrade. "
    "Please follow instructions to install: https://github.com/ROCmSoftwarePlatform/MIOpen#installing-miopen-kernels-package",
    # ROCm/AMDMIGraphX#3517
    "tensile_library": "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: Illegal seek for GPU arch : gfx1201",
    # ROCm/legacy-rocm-build#1535
    "gpu_memory_fault": "Memory access fault by GPU node-2 (Agent handle: 0x55fea5592860) on address 0x7fc133800000. "
    "Reason: Page not present or supervisor privilege.\nAborted (core dumped)",
    "hsa_override_mentioned": "$ HSA_OVERRIDE_GFX_VERSION=10.3.0 python train.py",
    # tensorflow/tensorflow#102743
    "numpy2_old_tf": "A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.3.4 as it may crash. To support both "
    "1.x and 2.x\nversions of NumPy, modules must be compiled with NumPy 2.0.",
    # serengil/retinaface#97
    "keras3_tf_function": "ValueError: A KerasTensor cannot be used as input to a TensorFlow function. A KerasTensor is a "
    "symbolic placeholder for a shape and dtype",
    # tensorflow/tensorflow#38578
    "cudart_missing": "W tensorflow/stream_executor/platform/default/dso_loader.cc:55] Could not load dynamic library "
    "'libcudart.so.10.1'; dlerror: libcudart.so.10.1: cannot open shared object file: No such file or directory",
    # NVIDIA/tensorflow#110
    "cannot_dlopen_gpu_libs": "W tensorflow/core/common_runtime/gpu/gpu_device.cc:1689] Cannot dlopen some GPU libraries. "
    "Please make sure the missing libraries mentioned above are installed properly if you would like to use GPU.",
    # tensorflow/tensorflow#44869
    "cuda_no_device": "E tensorflow/stream_executor/cuda/cuda_driver.cc:314] failed call to cuInit: CUDA_ERROR_NO_DEVICE: "
    "no CUDA-capable device is detected",
    "cuda_driver_insufficient": "CUDA driver version is insufficient for CUDA runtime version",
    "cudnn_version_mismatch": "E tensorflow/stream_executor/cuda/cuda_dnn.cc:361] Loaded runtime CuDNN library: 8.0.5 but source "
    "was compiled with: 8.1.0.  CuDNN library needs to have matching major version and equal or higher minor version.",
    "oom": "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with shape[8192,8192] "
    "and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc",
    "iommu_pt": 'NCCL WARN Missing "iommu=pt" from kernel command line which can lead to system instablity or hang!',
    "rocm_pip_sdk_libs": "ImportError: libhipsparse.so.4: cannot open shared object file: No such file or directory",
    "hsa_out_of_resources": "hsa api call failure at: /src/rocminfo/rocminfo.cc:1306\nCall returned HSA_STATUS_ERROR_OUT_OF_RESOURCES",
    # ROCm/legacy-rocm-build#4328-style dmesg under Secure Boot (text of the kernel's lockdown message)
    "lockdown_unsigned_module": "[   41.532118] Lockdown: modprobe: unsigned module loading is restricted; see man "
    "kernel_lockdown.7",
    # awesometic/realtek-r8126-dkms#3
    "module_key_rejected": "modprobe: ERROR: could not insert 'r8126': Key was rejected by service",
    # rhboot/shim#601 (Debian, DKMS module loaded without Secure Boot)
    "module_verification_failed": "[    8.123456] amdgpu: module verification failed: signature and/or required key "
    "missing - tainting kernel",
    # ROCm/rocALUTION#197
    "hip_invalid_device_function": "HIP error: invalid device function\nFile: /long_pathname_so_that_rpms_can_package_the_"
    "debug_info/src/extlibs/rocALUTION/src/base/hip/hip_vector.cpp; line: 845",
    # Firstbober/rocm-pytorch-gfx803-docker#4 (podman run --group-add=video, rootless)
    "rootless_nogroup": "Unable to open /dev/kfd read-write: Permission denied\nroot is not member of \"nogroup\" group, the "
    "default DRM access group. Users must be a member of the \"nogroup\" group or another DRM access group in order "
    "for ROCm applications to run successfully.",
}


def test_catalogue_is_complete_and_sourced():
    rows = read_csv("log_signatures.csv")
    assert len(rows) >= 20
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids))
    for r in rows:
        for col in ("pattern", "problem", "cause", "fix", "problem_zh", "cause_zh", "fix_zh", "source"):
            assert r[col].strip(), (r["id"], col)
        assert r["severity"] in ("error", "warning", "info") and r["platform"] in ("rocm", "cuda", "any")
        re.compile(r["pattern"])
        # placeholders in the texts must be named groups of the pattern
        groups = set(re.compile(r["pattern"]).groupindex)
        for col in ("problem", "problem_zh", "cause", "fix"):
            assert set(re.findall(r"\{(\w+)\}", r[col])) <= groups, (r["id"], col)
        assert re.search(r"https?://|github\.com/", r["source"]), r["id"]


@pytest.mark.parametrize("sig_id", sorted(REAL))
def test_real_error_texts(sig_id):
    findings = diagnose(REAL[sig_id])
    assert sig_id in [f.id for f in findings]
    f = next(x for x in findings if x.id == sig_id)
    for lang in ("en", "zh"):
        assert "?" not in f.text("problem", lang) or sig_id == "tensile_library"


def test_parameters_fill_the_texts():
    f = next(x for x in diagnose(REAL["unsupported_gfx"]) if x.id == "unsupported_gfx")
    assert "gfx1031" in f.text("problem", "en") and "gfx1031" in f.text("problem", "zh")
    lib = next(x for x in diagnose(REAL["rocm_lib_missing"]) if x.id == "rocm_lib_missing")
    assert lib.params["lib"] == "libamdhip64.so.3" and lib.line_no == 2
    np2 = next(x for x in diagnose(REAL["numpy2_old_tf"]) if x.id == "numpy2_old_tf")
    assert "2.3.4" in np2.text("problem", "en")


def test_every_signature_is_exercised():
    assert set(REAL) | {"shared_object_init", "keras3_tf_keras", "cuda_drivers_not_found", "kernel_image_invalid",
                        "cpu_instructions_info", "not_in_render_group"} == {s.id for s in signatures()}


def test_issue_26_messages():
    """Secure Boot, Podman and code-object failures, in the forms the reports show."""
    systemd = "Apr 22 18:10:16 host systemd-modules-load[602]: Failed to insert module 'gasket': Key was rejected by service"
    assert "module_key_rejected" in [f.id for f in diagnose(systemd)]  # google/gasket-driver#11
    assert "module_key_rejected" in [f.id for f in diagnose("[   12.114206] Loading of unsigned module is rejected")]
    lockdown = next(f for f in diagnose(REAL["lockdown_unsigned_module"]) if f.id == "lockdown_unsigned_module")
    assert "modprobe" in lockdown.text("problem", "en") and "modprobe" in lockdown.text("problem", "zh")
    docker = "ROCk module version 6.7.0 is loaded\nUnable to open /dev/kfd read-write: Invalid argument\nroot is member of nogroup group"
    assert "rootless_nogroup" in [f.id for f in diagnose(docker)]  # ROCm/legacy-rocm-build#4043
    pytorch = ":3:hip_module.cpp :669 : hipLaunchKernel: Returned hipErrorInvalidDeviceFunction :"
    assert "hip_invalid_device_function" in [f.id for f in diagnose(pytorch)]  # ROCm/legacy-rocm-build#2527
    unsigned = next(f for f in diagnose(REAL["module_verification_failed"]) if f.id == "module_verification_failed")
    assert unsigned.severity == "warning" and "amdgpu" in unsigned.text("problem", "en")
    # the render/video signature does not misread the nogroup line
    assert "not_in_render_group" not in [f.id for f in diagnose(REAL["rootless_nogroup"])]


def test_more_real_texts():
    assert "shared_object_init" in [f.id for f in diagnose("hipErrorSharedObjectInitFailed: shared object initialization failed")]
    transformers = ("Your currently installed version of Keras is Keras 3, but this is not yet supported in Transformers. "
                    "Please install the backwards-compatible tf-keras package with `pip install tf-keras`.")
    assert "keras3_tf_keras" in [f.id for f in diagnose(transformers)]
    assert "kernel_image_invalid" in [f.id for f in diagnose("CUDA error: no kernel image is available for execution on the device")]
    rocminfo = "Failed to get user name to check for video group membership"
    assert "not_in_render_group" in [f.id for f in diagnose(rocminfo)]
    info = "I cpu_feature_guard.cc:210] This TensorFlow binary is optimized to use available CPU instructions in performance-critical operations."
    assert [f.severity for f in diagnose(info)] == ["info"]
    assert "cuda_drivers_not_found" in [f.id for f in diagnose("I cudart_stub.cc] Could not find cuda drivers on your machine, GPU will not be used.")]


def test_errors_first_and_clean_text_finds_nothing():
    text = REAL["miopen_perfdb"] + "\n" + REAL["oom"]
    assert [f.severity for f in diagnose(text)] == ["error", "warning"]
    assert diagnose("Epoch 1/10\n100/100 [======] - loss: 0.1234") == []
    assert diagnose("") == []


def test_pasted_html_is_only_quoted_back():
    text = "<script>alert(1)</script> CUDA_ERROR_NO_DEVICE"
    f = diagnose(text)[0]
    assert f.line == text  # returned as a plain string; the page shows it with st.code


def test_bad_uploads():
    with pytest.raises(NotText):
        decode_log(b"\x00\x01binary\x00", "x.bin")
    with pytest.raises(NotText):
        decode_log("caf\xe9".encode("latin-1"), "x.log")
    with pytest.raises(FileTooLarge):
        decode_log(b"a" * (MAX_LOG_BYTES + 1), "big.log")
    with pytest.raises(FileTooLarge):
        diagnose("a" * (MAX_LOG_BYTES + 1))
    assert decode_log("日志 ok".encode(), "ok.log") == "日志 ok"
    assert "big.log" in FileTooLarge(name="big.log", size_mb=3.0, limit_mb=2.0).message("zh")
