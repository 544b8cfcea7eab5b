// RUN: %run_test hipify "%s" "%t" %hipify_args 1 --roc %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// cuBLAS to rocBLAS under --roc: handle, stream, pointer mode, level 1/2/3 calls.

// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>
// CHECK: #include "rocblas.h"
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
  // CHECK: rocblas_handle handle;
  cublasHandle_t handle;
  // CHECK: rocblas_status st = rocblas_create_handle(&handle);
  cublasStatus_t st = cublasCreate(&handle);
  // CHECK: if (st != rocblas_status_success) return 1;
  if (st != CUBLAS_STATUS_SUCCESS) return 1;
  // CHECK: hipStream_t stream;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  // CHECK: rocblas_set_stream(handle, stream);
  cublasSetStream(handle, stream);
  // CHECK: rocblas_set_pointer_mode(handle, rocblas_pointer_mode_host);
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST);
  // CHECK: rocblas_set_vector(n, sizeof(float), hx.data(), 1, x, 1);
  cublasSetVector(n, sizeof(float), hx.data(), 1, x, 1);
  // CHECK: rocblas_set_vector(n, sizeof(float), hy.data(), 1, y, 1);
  cublasSetVector(n, sizeof(float), hy.data(), 1, y, 1);
  const float alpha = 0.5f, beta = 0.0f;
  // CHECK: rocblas_saxpy(handle, n, &alpha, x, 1, y, 1);
  cublasSaxpy(handle, n, &alpha, x, 1, y, 1);
  const double one = 1.0, zero = 0.0;
  // CHECK: rocblas_dgemv(handle, rocblas_operation_none, n, n, &one, dA, n, dx, 1, &zero, dy, 1);
  cublasDgemv(handle, CUBLAS_OP_N, n, n, &one, dA, n, dx, 1, &zero, dy, 1);
  // CHECK: rocblas_sgemm(handle, rocblas_operation_none, rocblas_operation_transpose, n, n, n, &alpha, A, n, A, n, &beta, C, n);
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &alpha, A, n, A, n, &beta, C, n);
  // CHECK: rocblas_get_vector(n, sizeof(float), y, 1, hy.data(), 1);
  cublasGetVector(n, sizeof(float), y, 1, hy.data(), 1);
  // CHECK: rocblas_destroy_handle(handle);
  cublasDestroy(handle);
  cudaStreamDestroy(stream);
  cudaFree(dy); cudaFree(dx); cudaFree(dA); cudaFree(C); cudaFree(A); cudaFree(y); cudaFree(x);
  return 0;
}
