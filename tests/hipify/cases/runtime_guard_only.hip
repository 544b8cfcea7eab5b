/* A header with an include guard and no include at all. */
#ifndef DEVICE_HELPERS_CUH
#define DEVICE_HELPERS_CUH
#include <hip/hip_runtime.h>

__device__ inline float twice(float x) { return 2 * x; }

#endif
