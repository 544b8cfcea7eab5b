// RUN: %run_test hipify "%s" "%t" %hipify_args 1 --hip-kernel-execution-syntax %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// Device code: warp shuffles, atomics, barriers and fences keep their names (HIP provides them);
// the host side (cache config, occupancy, function attributes) is renamed.

// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>

__device__ float warpTotal(float v) {
  for (int off = 16; off > 0; off >>= 1)
    // CHECK: v += __shfl_down_sync(0xffffffff, v, off);
    v += __shfl_down_sync(0xffffffff, v, off);
  return v;
}

__global__ void histogramAndSum(const int *keys, int n, unsigned int *bins, float *total) {
  __shared__ unsigned int local[32];
  if (threadIdx.x < 32) local[threadIdx.x] = 0;
  // CHECK: __syncthreads();
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    // CHECK: atomicAdd(&local[keys[i] & 31], 1u);
    atomicAdd(&local[keys[i] & 31], 1u);
  }
  __syncthreads();
  if (threadIdx.x < 32) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
  float s = warpTotal(i < n ? 1.0f : 0.0f);
  // CHECK: if ((threadIdx.x & (warpSize - 1)) == 0) atomicAdd(total, s);
  if ((threadIdx.x & (warpSize - 1)) == 0) atomicAdd(total, s);
  // CHECK: __threadfence();
  __threadfence();
  // CHECK: atomicMax((int *)&bins[0], __popc(__ballot_sync(0xffffffff, i < n)));
  atomicMax((int *)&bins[0], __popc(__ballot_sync(0xffffffff, i < n)));
}

int main() {
  int *keys = nullptr;
  unsigned int *bins = nullptr;
  float *total = nullptr;
  cudaMalloc(&keys, 1024 * sizeof(int));
  cudaMalloc(&bins, 32 * sizeof(unsigned int));
  cudaMalloc(&total, sizeof(float));
  const void *fn = (const void *)histogramAndSum;
  // CHECK: hipFuncSetCacheConfig(fn, hipFuncCachePreferShared);
  cudaFuncSetCacheConfig(fn, cudaFuncCachePreferShared);
  int perSM = 0;
  // CHECK: hipOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, histogramAndSum, 256, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, histogramAndSum, 256, 0);
  // CHECK: hipFuncAttributes attr;
  cudaFuncAttributes attr;
  // CHECK: hipFuncGetAttributes(&attr, fn);
  cudaFuncGetAttributes(&attr, fn);
  // CHECK: hipLaunchKernelGGL(histogramAndSum, dim3(4), dim3(256), 0, 0, keys, 1024, bins, total);
  histogramAndSum<<<4, 256>>>(keys, 1024, bins, total);
  cudaDeviceSynchronize();
  cudaFree(total);
  cudaFree(bins);
  cudaFree(keys);
  return 0;
}
