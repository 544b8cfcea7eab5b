// Broken on purpose: CUDA names left over after a partial port.
#include <hip/hip_runtime.h>

__global__ void scale(float* x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

int main() {
    float* d = nullptr;
    cudaMalloc(&d, 1024 * sizeof(float));
    hipLaunchKernelGGL(scale, dim3(4), dim3(256), 0, 0, d, 2.0f, 1024);
    hipFree(d);
    return 0;
}
