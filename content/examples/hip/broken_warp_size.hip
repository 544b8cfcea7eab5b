// Broken on purpose: code that assumes warpSize is 32.
#include <hip/hip_runtime.h>

static_assert(warpSize == 32, "this kernel assumes 32-thread warps");

__global__ void lanes(int* out) {
    out[threadIdx.x] = threadIdx.x % warpSize;
}
