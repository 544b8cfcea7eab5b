// Legacy cuBLAS (cublas.h, handle-less v1 API): calls that only exist with a handle in hipBLAS are left as they
// are and reported; the calls that are the same in v1 and v2 are translated.
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
void saxpy(int n, float a, const float* x, float* y) {
  float *dx, *dy;
  cublasInit();
  cublasAlloc(n, sizeof(float), (void**)&dx);
  cublasAlloc(n, sizeof(float), (void**)&dy);
  hipblasSetVector(n, sizeof(float), x, 1, dx, 1);
  hipblasSetVector(n, sizeof(float), y, 1, dy, 1);
  cublasSaxpy(n, a, dx, 1, dy, 1);
  hipblasStatus_t status = cublasGetError();
  hipblasGetVector(n, sizeof(float), dy, 1, y, 1);
  cublasFree(dx);
  cublasFree(dy);
  cublasShutdown();
  (void)status;
}
