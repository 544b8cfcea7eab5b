// cudaStream_t under --roc --miopen: HIPIFY's runtime type map gives it MIOpen's queue type (ROC_MIOPEN_ONLY).
#include <hip/hip_runtime.h>
#include <miopen/miopen.h>
int attach(miopenHandle_t h) {
  miopenAcceleratorQueue_t s;
  if (hipStreamCreate(&s) != hipSuccess) return 1;
  miopenSetStream(h, s);
  miopenAcceleratorQueue_t got;
  miopenGetStream(h, &got);
  return got == s ? 0 : 1;
}
