"""Property tests: the translator never raises, leaves HIP alone and is idempotent."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rocm_bridge.hipify.lint import lint
from rocm_bridge.hipify.translator import Options, translate

CUDA_WORDS = [
    "cudaMalloc", "cudaFree", "cudaMemcpy", "cudaMemcpyHostToDevice", "cudaStream_t", "cudaEventCreate",
    "cudaMemcpyToSymbol", "cublasSgemm", "cublasHandle_t", "curandState", "cufftHandle", "cudnnCreate",
    "cub", "__global__", "threadIdx", "__shfl_down_sync", "cudaThreadSynchronize", "cudaGraphExecGetFlags",
    "cudaCheck", "cuInit", "CUdeviceptr", "nvrtcProgram", "make_cuFloatComplex", "kernel", "x", "n",
]
PUNCT = ["(", ")", ",", ";", "::", "<<<", ">>>", "<", ">", "{", "}", "&", "*", "=", " ", "\n", "\t", "#", "\\\n"]
SNIPPETS = [
    "// comment cudaFree\n", "/* block cudaMalloc */", '"str cudaMemcpy"', "'c'", "1'000", "R\"(raw cudaFree)\"",
    "#include <cuda_runtime.h>\n", '#include "cublas_v2.h"\n', "#define M(x) cudaFree(x)\n", "/* open", '"open',
    "k<<<1, 2>>>(a);", "k<T><<<g, b, s, st>>>(a, b);", "cudaEventCreate(&e, 0);", "cudaMemcpyToSymbol(s, p, 4);",
    "0xffffffff", "asm(\"nop\");", "\u00e9\u4e2d", "\udcff",
]

tokens = st.lists(st.sampled_from(CUDA_WORDS + PUNCT + SNIPPETS), max_size=60).map("".join)
options = st.builds(Options, roc=st.booleans(), miopen=st.booleans(), experimental=st.booleans(),
                    kernel_syntax=st.booleans())
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(text=st.one_of(tokens, st.text(max_size=300)), opts=options)
def test_never_raises_and_is_idempotent(text, opts):
    first = translate(text, opts)
    assert isinstance(first.output, str)
    second = translate(first.output, opts)
    assert second.output == first.output
    lint(text)


@SETTINGS
@given(text=st.text(max_size=300))
def test_text_without_cuda_or_device_code_is_unchanged(text):
    # arbitrary text that happens to contain no CUDA name, include, launch or device keyword stays as it is
    result = translate(text)
    if not result.references and not result.headers and not result.launches:
        assert result.output == text


HIP_WORDS = ["hipMalloc", "hipFree", "hipMemcpy", "hipMemcpyHostToDevice", "hipStream_t", "hipblasSgemm",
             "hipLaunchKernelGGL", "HIP_SYMBOL", "hipcub", "rocblas_sgemm", "miopenCreate", "dim3", "k", "x"]


@SETTINGS
@given(body=st.lists(st.sampled_from(HIP_WORDS + PUNCT[:-1]), max_size=60).map("".join), opts=options)
def test_hip_code_passes_unchanged(body, opts):
    src = "#include <hip/hip_runtime.h>\n" + body
    assert translate(src, opts).output == src
