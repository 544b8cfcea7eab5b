// Legacy cuBLAS (cublas.h, handle-less v1 API): calls that only exist with a handle in hipBLAS are left as they
// are and reported; the calls that are the same in v1 and v2 are translated.
#include <cublas.h>
void saxpy(int n, float a, const float* x, float* y) {
  float *dx, *dy;
  cublasInit();
  cublasAlloc(n, sizeof(float), (void**)&dx);
  cublasAlloc(n, sizeof(float), (void**)&dy);
  cublasSetVector(n, sizeof(float), x, 1, dx, 1);
  cublasSetVector(n, sizeof(float), y, 1, dy, 1);
  cublasSaxpy(n, a, dx, 1, dy, 1);
  cublasStatus status = cublasGetError();
  cublasGetVector(n, sizeof(float), dy, 1, y, 1);
  cublasFree(dx);
  cublasFree(dy);
  cublasShutdown();
  (void)status;
}
