// RUN: %run_test hipify "%s" "%t" %hipify_args 1 --hip-kernel-execution-syntax %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// CUB to hipCUB: the header, block-level collectives and device-wide algorithms in namespace cub.

// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>
// CHECK: #include <hipcub/hipcub.hpp>
#include <cub/cub.cuh>

template <int THREADS>
__global__ void blockMax(const int *in, int *out) {
  // CHECK: using Reduce = hipcub::BlockReduce<int, THREADS>;
  using Reduce = cub::BlockReduce<int, THREADS>;
  __shared__ typename Reduce::TempStorage scratch;
  int v = in[blockIdx.x * THREADS + threadIdx.x];
  // CHECK: int best = Reduce(scratch).Reduce(v, hipcub::Max());
  int best = Reduce(scratch).Reduce(v, cub::Max());
  if (threadIdx.x == 0) out[blockIdx.x] = best;
}

int main() {
  const int n = 1 << 14;
  int *in = nullptr, *out = nullptr, *sum = nullptr, *sorted = nullptr;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, (n / 128) * sizeof(int));
  cudaMalloc(&sum, sizeof(int));
  cudaMalloc(&sorted, n * sizeof(int));
  // CHECK: hipLaunchKernelGGL(HIP_KERNEL_NAME(blockMax<128>), dim3(n / 128), dim3(128), 0, 0, in, out);
  blockMax<128><<<n / 128, 128>>>(in, out);
  void *temp = nullptr;
  size_t tempBytes = 0;
  // CHECK: hipcub::DeviceReduce::Sum(temp, tempBytes, in, sum, n);
  cub::DeviceReduce::Sum(temp, tempBytes, in, sum, n);
  cudaMalloc(&temp, tempBytes);
  // CHECK: hipcub::DeviceReduce::Sum(temp, tempBytes, in, sum, n);
  cub::DeviceReduce::Sum(temp, tempBytes, in, sum, n);
  size_t sortBytes = 0;
  // CHECK: hipcub::DeviceRadixSort::SortKeys(nullptr, sortBytes, in, sorted, n);
  cub::DeviceRadixSort::SortKeys(nullptr, sortBytes, in, sorted, n);
  cudaFree(temp);
  cudaFree(sorted);
  cudaFree(sum);
  cudaFree(out);
  cudaFree(in);
  return 0;
}
