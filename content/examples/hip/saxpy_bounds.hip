// saxpy with a tile in LDS and __launch_bounds__: change 256 and watch registers and occupancy.
#include <hip/hip_runtime.h>

#define BLOCK 256

__global__ void __launch_bounds__(BLOCK) saxpy_lds(int n, float a, const float* x, float* y) {
    __shared__ float tile[BLOCK];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    if (i < n) y[i] = a * tile[threadIdx.x] + y[i];
}
