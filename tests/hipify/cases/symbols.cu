#include <cuda_runtime.h>
__constant__ float coeffs[16];
__device__ int counter;
void upload(const float* h, int* out, cudaStream_t s) {
  cudaMemcpyToSymbol(coeffs, h, sizeof(coeffs));
  cudaMemcpyToSymbolAsync(coeffs, h, sizeof(coeffs), 0, cudaMemcpyHostToDevice, s);
  cudaMemcpyFromSymbol(out, counter, sizeof(int));
  cudaMemcpyFromSymbolAsync(out, counter, sizeof(int), 0, cudaMemcpyDeviceToHost, s);
  void* addr;
  size_t size;
  cudaGetSymbolAddress(&addr, counter);
  cudaGetSymbolSize(&size, coeffs);
}
