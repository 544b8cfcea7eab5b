// Variables named like CUDA types keep their names; the types around them are still translated.
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
hipError_t check(hipError_t cudaError) { return cudaError; }
void run(hipblasHandle_t handle, float* d, int n) {
  hipblasStatus_t cublasStatus;
  cublasStatus = hipblasSscal(handle, n, nullptr, d, 1);
  if (cublasStatus != HIPBLAS_STATUS_SUCCESS) return;
  hipError_t err = hipGetLastError();
  check(err);
  enum hipError_t e2 = hipSuccess;
  (void)e2;
}
