// RUN: %run_test hipify "%s" "%t" %hipify_args %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// cuBLAS to hipBLAS (the default target): handle, stream, pointer mode, level 1/2/3 calls.

// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>
// CHECK: #include "hipblas.h"
#include "cublas_v2.h"
#include <vector>

int main() {
  const int n = 64;
  std::vector<float> hx(n, 1.0f), hy(n, 2.0f);
  float *x = nullptr, *y = nullptr, *A = nullptr, *C = nullptr;
  double *dA = nullptr, *dx = nullptr, *dy = nullptr;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&A, n * n * sizeof(float));
  cudaMalloc(&C, n * n * sizeof(float));
  cudaMalloc(&dA, n * n * sizeof(double));
  cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&dy, n * sizeof(double));
  // CHECK: hipblasHandle_t handle;
  cublasHandle_t handle;
  // CHECK: hipblasStatus_t st = hipblasCreate(&handle);
  cublasStatus_t st = cublasCreate(&handle);
  // CHECK: if (st != HIPBLAS_STATUS_SUCCESS) return 1;
  if (st != CUBLAS_STATUS_SUCCESS) return 1;
  // CHECK: hipStream_t stream;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  // CHECK: hipblasSetStream(handle, stream);
  cublasSetStream(handle, stream);
  // CHECK: hipblasSetPointerMode(handle, HIPBLAS_POINTER_MODE_HOST);
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST);
  // CHECK: hipblasSetVector(n, sizeof(float), hx.data(), 1, x, 1);
  cublasSetVector(n, sizeof(float), hx.data(), 1, x, 1);
  // CHECK: hipblasSetVector(n, sizeof(float), hy.data(), 1, y, 1);
  cublasSetVector(n, sizeof(float), hy.data(), 1, y, 1);
  const float alpha = 0.5f, beta = 0.0f;
  // CHECK: hipblasSaxpy(handle, n, &alpha, x, 1, y, 1);
  cublasSaxpy(handle, n, &alpha, x, 1, y, 1);
  const double one = 1.0, zero = 0.0;
  // CHECK: hipblasDgemv(handle, HIPBLAS_OP_N, n, n, &one, dA, n, dx, 1, &zero, dy, 1);
  cublasDgemv(handle, CUBLAS_OP_N, n, n, &one, dA, n, dx, 1, &zero, dy, 1);
  // CHECK: hipblasSgemm(handle, HIPBLAS_OP_N, HIPBLAS_OP_T, n, n, n, &alpha, A, n, A, n, &beta, C, n);
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &alpha, A, n, A, n, &beta, C, n);
  // CHECK: hipblasGetVector(n, sizeof(float), y, 1, hy.data(), 1);
  cublasGetVector(n, sizeof(float), y, 1, hy.data(), 1);
  // CHECK: hipblasDestroy(handle);
  cublasDestroy(handle);
  cudaStreamDestroy(stream);
  cudaFree(dy); cudaFree(dx); cudaFree(dA); cudaFree(C); cudaFree(A); cudaFree(y); cudaFree(x);
  return 0;
}
