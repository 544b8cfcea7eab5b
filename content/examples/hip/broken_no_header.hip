// Broken on purpose: hip_runtime.h is not included.
__global__ void fill(float* x, float v) { x[threadIdx.x] = v; }

int main() {
    float* d = nullptr;
    hipMalloc(&d, 256 * sizeof(float));
    hipLaunchKernelGGL(fill, dim3(1), dim3(256), 0, 0, d, 1.0f);
    return 0;
}
