#include <cusolverDn.h>
int lu(float* A, int n, int* ipiv, int* info, float* work, float* B) {
  cusolverDnHandle_t h;
  int lwork = 0;
  cusolverDnCreate(&h);
  cusolverDnSgetrf_bufferSize(h, n, n, A, n, &lwork);
  cusolverDnSgetrf(h, n, n, A, n, work, ipiv, info);
  cusolverDnSgetrs(h, CUBLAS_OP_N, n, 1, A, n, ipiv, B, n, info);
  cusolverDnDestroy(h);
  return lwork;
}
