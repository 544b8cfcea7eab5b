#include <hip/hip_runtime.h>
int main() {
  float* d = nullptr;
  hipError_t err = hipMalloc((void**)&d, 64);
  if (err != hipSuccess) return 1;
  hipMemset(d, 0, 64);
  hipMemcpy(d, d, 64, hipMemcpyDeviceToDevice);
  hipDeviceProp_t prop;
  hipGetDeviceProperties(&prop, 0);
  hipFree(d);
  return hipGetLastError() == hipErrorInvalidValue;
}
