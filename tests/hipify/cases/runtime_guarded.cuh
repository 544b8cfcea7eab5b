// An injected hip_runtime.h goes inside the include guard and outside conditional blocks.
#ifndef MY_KERNELS_CUH
#define MY_KERNELS_CUH
#ifdef _WIN32
#include <windows.h>
#endif
#include <cstddef>
__global__ void scale(float* p, size_t n) { if (threadIdx.x < n) p[threadIdx.x] *= 2; }
#endif  // MY_KERNELS_CUH
