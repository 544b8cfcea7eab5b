// A wavefront-wide sum with __shfl_down and warpSize: 64 lanes on CDNA (gfx90a), 32 on RDNA (gfx1100).
#include <hip/hip_runtime.h>

__device__ float wave_sum(float v) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
    return v;
}

__global__ void block_sum(const float* x, float* out, int n) {
    __shared__ float partial[1024 / 32];  // one slot per wave, enough for wave32 and wave64
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = wave_sum(i < n ? x[i] : 0.0f);
    int lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
    if (lane == 0) partial[wave] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int w = 0; w < (blockDim.x + warpSize - 1) / warpSize; ++w) s += partial[w];
        atomicAdd(out, s);
    }
}
