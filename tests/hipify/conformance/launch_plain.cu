// RUN: %run_test hipify "%s" "%t" %hipify_args 1 --hip-kernel-execution-syntax %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// Kernel launches <<<>>> rewritten to hipLaunchKernelGGL: literal, variable and dim3 configurations.

// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>

__global__ void clear(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 0.0f;
}

__global__ void tile2d(float *p, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) p[y * w + x] = x + y;
}

__global__ void noArgs() {}

int main() {
  const int n = 1000, w = 64, h = 48;
  float *p = nullptr;
  cudaMalloc(&p, w * h * sizeof(float));
  int threads = 128;
  int blocks = (n + threads - 1) / threads;
  // CHECK: hipLaunchKernelGGL(clear, dim3(blocks), dim3(threads), 0, 0, p, n);
  clear<<<blocks, threads>>>(p, n);
  // CHECK: hipLaunchKernelGGL(clear, dim3(blocks), dim3(threads), 0, 0, p, n / 2);
  clear<<<dim3(blocks), dim3(threads)>>>(p, n / 2);
  // CHECK: hipLaunchKernelGGL(clear, dim3((n + 255) / 256), dim3(256), 0, 0, p, n);
  clear<<<(n + 255) / 256, 256>>>(p, n);
  dim3 block(16, 16);
  dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
  // CHECK: hipLaunchKernelGGL(tile2d, dim3(grid), dim3(block), 0, 0, p, w, h);
  tile2d<<<grid, block>>>(p, w, h);
  // CHECK: hipLaunchKernelGGL(noArgs, dim3(1), dim3(1), 0, 0);
  noArgs<<<1, 1>>>();
  // CHECK: hipGetLastError();
  cudaGetLastError();
  // CHECK: hipDeviceSynchronize();
  cudaDeviceSynchronize();
  // CHECK: hipFree(p);
  cudaFree(p);
  return 0;
}
