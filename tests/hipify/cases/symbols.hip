#include <hip/hip_runtime.h>
__constant__ float coeffs[16];
__device__ int counter;
void upload(const float* h, int* out, hipStream_t s) {
  hipMemcpyToSymbol(HIP_SYMBOL(coeffs), h, sizeof(coeffs));
  hipMemcpyToSymbolAsync(HIP_SYMBOL(coeffs), h, sizeof(coeffs), 0, hipMemcpyHostToDevice, s);
  hipMemcpyFromSymbol(out, HIP_SYMBOL(counter), sizeof(int));
  hipMemcpyFromSymbolAsync(out, HIP_SYMBOL(counter), sizeof(int), 0, hipMemcpyDeviceToHost, s);
  void* addr;
  size_t size;
  hipGetSymbolAddress(&addr, HIP_SYMBOL(counter));
  hipGetSymbolSize(&size, HIP_SYMBOL(coeffs));
}
