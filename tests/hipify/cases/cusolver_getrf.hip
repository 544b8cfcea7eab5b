#include <hip/hip_runtime.h>
#include <hipsolver/hipsolver.h>
int lu(float* A, int n, int* ipiv, int* info, float* work, float* B) {
  hipsolverHandle_t h;
  int lwork = 0;
  hipsolverDnCreate(&h);
  hipsolverDnSgetrf_bufferSize(h, n, n, A, n, &lwork);
  hipsolverDnSgetrf(h, n, n, A, n, work, ipiv, info);
  hipsolverDnSgetrs(h, HIPBLAS_OP_N, n, 1, A, n, ipiv, B, n, info);
  hipsolverDnDestroy(h);
  return lwork;
}
