// Broken on purpose: a 32-bit lane mask and a *_sync warp function, as written for 32-thread warps.
#include <hip/hip_runtime.h>

__global__ void count_positive(const float* x, int* out) {
    unsigned int mask = __ballot(x[threadIdx.x] > 0.0f);
    float v = __shfl_down_sync(0xffffffff, x[threadIdx.x], 1);
    if (threadIdx.x == 0) out[blockIdx.x] = __popc(mask) + (v > 0.0f);
}
