#include <cublas_v2.h>
cublasStatus_t gemm(cublasHandle_t h, int n, const float* A, const float* B, float* C) {
  const float one = 1.0f, zero = 0.0f;
  cublasSetStream(h, 0);
  return cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &one, A, n, B, n, &zero, C, n);
}
