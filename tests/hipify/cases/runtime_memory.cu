#include <cuda_runtime.h>
int main() {
  float* d = nullptr;
  cudaError_t err = cudaMalloc((void**)&d, 64);
  if (err != cudaSuccess) return 1;
  cudaMemset(d, 0, 64);
  cudaMemcpy(d, d, 64, cudaMemcpyDeviceToDevice);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  cudaFree(d);
  return cudaGetLastError() == cudaErrorInvalidValue;
}
