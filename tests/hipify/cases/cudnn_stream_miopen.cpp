// cudaStream_t under --roc --miopen: HIPIFY's runtime type map gives it MIOpen's queue type (ROC_MIOPEN_ONLY).
#include <cuda_runtime.h>
#include <cudnn.h>
int attach(cudnnHandle_t h) {
  cudaStream_t s;
  if (cudaStreamCreate(&s) != cudaSuccess) return 1;
  cudnnSetStream(h, s);
  cudaStream_t got;
  cudnnGetStream(h, &got);
  return got == s ? 0 : 1;
}
