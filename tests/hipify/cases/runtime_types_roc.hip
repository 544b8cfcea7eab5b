// Runtime-level types under --roc: the rocBLAS names HIPIFY's source maps give the complex, half and library data
// types; cudaStream_t keeps its HIP name (its MIOpen name is ROC_MIOPEN_ONLY).
#include <hip/hip_runtime.h>
#include <hip/hip_complex.h>
#include <hip/hip_fp16.h>
#include <rocblas/rocblas.h>
rocblas_status scale(rocblas_handle h, hipStream_t s, int n, const rocblas_float_complex* alpha, rocblas_float_complex* x) {
  rocblas_set_stream(h, s);
  return rocblas_cscal(h, n, alpha, x, 1);
}
rocblas_datatype_ kind(bool dbl) { return dbl ? rocblas_datatype_f64_r : rocblas_datatype_f32_r; }
__device__ rocblas_half twice(rocblas_half x) { return __hadd(x, x); }
