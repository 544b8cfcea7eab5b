"""The compile lab's examples: the hipify page's examples as HIP (translated by rocm_bridge.hipify), plus lab
examples in content/examples/hip/ (kernels that show LDS, registers, MFMA, wave reductions, and files broken
on purpose, one per common diagnostic)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

HIP_DIR = Path(__file__).resolve().parent.parent.parent / "content" / "examples" / "hip"
LAB = ("saxpy_bounds", "register_heavy", "wave_reduce", "mfma_tile", "broken_cuda_names", "broken_lane_mask",
       "broken_warp_size", "broken_new_api", "broken_no_header")
# hipify examples whose HIP needs a library Debian 12 does not package, or an API HIP 5.2 lacks: they are
# shown (the diagnostic is the lesson) and recorded, but not expected to compile here
HIPIFY_NOT_COMPILING = {
    "cublas_sgemm": "not_in_debian",  # hipblas/hipblas.h: hipBLAS is not in Debian 12
    "cufft_1d": "not_in_debian",  # hipfft/hipfft.h: hipFFT is not in Debian 12
    "cudnn_conv": "not_in_debian",  # hipDNN.h / MIOpen: not in Debian 12
    "warp_reduce": "warp_sync",  # __shfl_down_sync / __ballot_sync: not in HIP 5.2
}


def hipify_examples() -> tuple[str, ...]:
    from rocm_bridge.hipify.page_model import EXAMPLES
    return tuple(f"hipify_{k}" for k in EXAMPLES)


def all_keys() -> tuple[str, ...]:
    return LAB + hipify_examples()


@cache
def source(key: str) -> str:
    if key in LAB:
        return (HIP_DIR / f"{key}.hip").read_text(encoding="utf-8")
    if key.startswith("hipify_") and key in hipify_examples():
        from rocm_bridge.hipify.page_model import example_source
        from rocm_bridge.hipify.translator import Options, translate_cached
        return translate_cached(example_source(key[len("hipify_"):]), Options()).output
    raise KeyError(key)


def expected_to_compile(key: str) -> bool:
    return not key.startswith("broken_") and key[len("hipify_"):] not in HIPIFY_NOT_COMPILING
