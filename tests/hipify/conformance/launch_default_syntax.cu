// RUN: %run_test hipify "%s" "%t" %hipify_args %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// Without --hip-kernel-execution-syntax HIPIFY keeps the triple-chevron launch (hip-clang compiles it as is).

// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

template <int N>
__global__ void fillConst(int *p) { p[threadIdx.x] = N; }

int main() {
  const int n = 2048;
  float *x = nullptr, *y = nullptr;
  int *q = nullptr;
  // CHECK: hipMalloc(&x, n * sizeof(float));
  cudaMalloc(&x, n * sizeof(float));
  // CHECK: hipMalloc(&y, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&q, 64 * sizeof(int));
  // CHECK: hipStream_t st;
  cudaStream_t st;
  // CHECK: hipStreamCreate(&st);
  cudaStreamCreate(&st);
  // CHECK: saxpy<<<n / 256, 256>>>(n, 2.0f, x, y);
  saxpy<<<n / 256, 256>>>(n, 2.0f, x, y);
  // CHECK: saxpy<<<n / 256, 256, 0, st>>>(n, 0.5f, y, x);
  saxpy<<<n / 256, 256, 0, st>>>(n, 0.5f, y, x);
  // CHECK: fillConst<7><<<1, 64>>>(q);
  fillConst<7><<<1, 64>>>(q);
  // CHECK: hipStreamSynchronize(st);
  cudaStreamSynchronize(st);
  // CHECK: hipStreamDestroy(st);
  cudaStreamDestroy(st);
  cudaFree(q);
  cudaFree(y);
  cudaFree(x);
  return 0;
}
