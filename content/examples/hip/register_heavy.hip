// Many values alive at once: the kernel needs many VGPRs, so fewer waves fit on a SIMD.
#include <hip/hip_runtime.h>

#define TERMS 160

__global__ void __launch_bounds__(256) polynomial(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v[TERMS];
#pragma unroll
    for (int k = 0; k < TERMS; ++k) v[k] = x[(i + k * 977) % n];
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < TERMS; ++k) acc += v[k] * v[(k * 7 + 3) % TERMS];
    y[i] = acc;
}
