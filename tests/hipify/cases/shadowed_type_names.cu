// Variables named like CUDA types keep their names; the types around them are still translated.
#include <cuda_runtime.h>
#include <cublas_v2.h>
cudaError_t check(cudaError_t cudaError) { return cudaError; }
void run(cublasHandle_t handle, float* d, int n) {
  cublasStatus_t cublasStatus;
  cublasStatus = cublasSscal(handle, n, nullptr, d, 1);
  if (cublasStatus != CUBLAS_STATUS_SUCCESS) return;
  cudaError_t err = cudaGetLastError();
  check(err);
  enum cudaError e2 = cudaSuccess;
  (void)e2;
}
