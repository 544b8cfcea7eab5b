// Runtime-level types under --roc: the rocBLAS names HIPIFY's source maps give the complex, half and library data
// types; cudaStream_t keeps its HIP name (its MIOpen name is ROC_MIOPEN_ONLY).
#include <cuComplex.h>
#include <cuda_fp16.h>
#include <cublas_v2.h>
cublasStatus_t scale(cublasHandle_t h, cudaStream_t s, int n, const cuComplex* alpha, cuComplex* x) {
  cublasSetStream(h, s);
  return cublasCscal(h, n, alpha, x, 1);
}
cudaDataType_t kind(bool dbl) { return dbl ? CUDA_R_64F : CUDA_R_32F; }
__device__ __half twice(__half x) { return __hadd(x, x); }
