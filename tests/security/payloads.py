"""What an attacker sends, in one place a reviewer can read (docs/security.md lists the threats).

Every list here is used by a test in this folder; add a payload and every test that iterates the list tries it.
"""

from __future__ import annotations

# --- Markdown / HTML a visitor can put in a URL parameter or a file name --------------------------------------
# Each would, if rendered as Markdown, put a link, an image (loaded by every viewer, with a Referer), styled or
# coloured text or raw HTML on someone else's screen. The browser test asserts none of it renders.
MARKDOWN_PAYLOADS: tuple[str, ...] = (
    "[ZQ1LOGIN](https://evil.example/login)",
    "![ZQ2](http://evil.example/pixel.png)",
    ":red[**ZQ3**]",
    "**ZQ4**_ZQ4_",
    "<img src=http://evil.example/ZQ5.png>",
    "www.evil.example/ZQ6",
    "`ZQ7`~~ZQ7~~",
    "$\\href{http://evil.example}{ZQ8}$",
    "# ZQ9",
)
# Each payload carries a marker ZQn; a rendered payload would put a marker inside a link, image, bold, italic,
# struck, coloured, code, heading or KaTeX element, or an evil.example address into an href/src.
EVIL_HOST = "evil.example"
# The same without "/" (a file name cannot hold one): for upload names and zip entries.
NAME_PAYLOADS: tuple[str, ...] = (
    "[ZQ1LOGIN](https:evil.example)",
    "![ZQ2](http:evil.example)",
    ":red[**ZQ3**]",
    "**ZQ4**_ZQ4_",
    "<img src=http:evil.example>ZQ5",
    "www.evil.example ZQ6",
)
# Every query key a page reads (url_state, bind="query-params", the stack / hardware / coverage links).
QUERY_KEYS: tuple[str, ...] = (
    "hp_ex", "hp_view", "hp_roc", "hp_rocm", "hp_wave", "cv_model", "cv_phase", "cv_recorded", "cv_source", "cv_reg", "doc_sys",
    "lv_backend", "lv_mode", "hw_gpus", "hw_gcd", "hw_base", "hw_prec", "st_comp", "st_trace", "st_hipnv",
    "ch1_comp", "ch1_trace", "fl_formula", "fl_po_list", "fl_tp_hw", "fl_tp_workload", "fl_cv_hw", "qz_chapter",
)


# --- The log doctor's worst inputs -------------------------------------------------------------------------------
# One short text each signature matches. The tests build from each the inputs that hurt a backtracking engine:
# near misses (the text minus its last character) repeated on one line and on many lines, half texts, and
# full matches repeated (most matches). A new signature without a sample here fails test_every_signature_has_a
# worst_case_sample.
LOG_SAMPLES: dict[str, str] = {
    "lockdown_unsigned_module": "Lockdown: modprobe: unsigned module loading is restricted; see man kernel_lockdown.7",
    "module_key_rejected": "modprobe: ERROR: could not insert 'amdgpu': Key was rejected by service",
    "module_verification_failed": "amdgpu: module verification failed: signature and/or required key missing - tainting kernel",
    "hip_invalid_device_function": "RuntimeError: HIP error: invalid device function",
    "rootless_nogroup": 'ollama is not member of "nogroup" group',
    "unsupported_gfx": "Ignoring visible gpu device (device: 0, name: RX 6700) with AMDGPU version : gfx1031",
    "no_binary_for_gpu": "hipErrorNoBinaryForGpu: Unable to find code object for all current devices",
    "shared_object_init": "hipErrorSharedObjectInitFailed: shared object initialization failed",
    "rocm_lib_missing": "ImportError: libamdhip64.so.3: cannot open shared object file",
    "rocm_dso_not_loaded": "Could not load dynamic library 'librocblas.so'",
    "rocm_pip_sdk_libs": "ImportError: libhipsparse.so.4: cannot open shared object file",
    "kfd_permission": "Unable to open /dev/kfd read-write: Permission denied",
    "not_in_render_group": 'alice is not member of "render" group',
    "hsa_out_of_resources": "Call returned HSA_STATUS_ERROR_OUT_OF_RESOURCES",
    "miopen_perfdb": "MIOpen(HIP): Warning Missing system database file: gfx1030_12.kdb Performance may degrade",
    "tensile_library": "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat for GPU arch : gfx1201",
    "gpu_memory_fault": "Memory access fault by GPU node-2 (Agent handle: 0x55fea5592860)",
    "hsa_override_mentioned": "HSA_OVERRIDE_GFX_VERSION=10.3.0 python train.py",
    "iommu_pt": 'NCCL WARN Missing "iommu=pt" from kernel command line',
    "numpy2_old_tf": "A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.3.4 as it may crash.",
    "keras3_tf_function": "ValueError: A KerasTensor cannot be used as input to a TensorFlow function",
    "keras3_tf_keras": "Keras 3, but this is not yet supported in Transformers",
    "cudart_missing": "Could not load dynamic library 'libcudart.so.10.1'",
    "cannot_dlopen_gpu_libs": "Cannot dlopen some GPU libraries.",
    "cuda_no_device": "failed call to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected",
    "cuda_driver_insufficient": "CUDA driver version is insufficient for CUDA runtime version",
    "cudnn_version_mismatch": "Loaded runtime CuDNN library: 8.0.5 but source was compiled with: 8.1.0.",
    "cuda_drivers_not_found": "Could not find cuda drivers on your machine, GPU will not be used.",
    "kernel_image_invalid": "CUDA error: no kernel image is available for execution on the device",
    "oom": "ResourceExhaustedError: OOM when allocating tensor with shape[8192,8192]",
    "cpu_instructions_info": "This TensorFlow binary is optimized to use available CPU instructions",
}


def fill(unit: str, size: int, sep: str = "") -> str:
    """unit (+ sep) repeated to exactly size characters."""
    piece = unit + sep
    return (piece * (size // len(piece) + 1))[:size]


def log_worst_cases(sample: str, size: int, line_cap: int) -> dict[str, str]:
    """The inputs built from one signature's sample, each exactly `size` characters."""
    near = sample[:-1]
    half = sample[: max(1, len(sample) // 2)]
    full_line = fill(near, line_cap, " ")
    return {
        "near_miss_one_line": fill(near, size),
        "near_miss_lines": fill(near, size, "\n"),
        "near_miss_full_lines": fill(full_line, size, "\n"),
        "half_runs": fill(half, size, " "),
        "matches": fill(sample, size, "\n"),
    }


# The issue's own reproduction: 320k characters of this took 56 s before the fix.
LOG_ISSUE_CASE = "librocblas"
