// RUN: %run_test hipify "%s" "%t" %hipify_args 1 --hip-kernel-execution-syntax %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// Runtime API: device, pinned, mapped and managed memory, memset, symbols.

// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>
#include <cstdio>

__constant__ float coeffs[4];
__device__ int hits;

__global__ void weigh(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= coeffs[i % 4];
}

int main() {
  const int n = 1 << 12;
  size_t bytes = n * sizeof(float);
  float *dv = nullptr, *pinned = nullptr, *shared = nullptr, *mapped = nullptr, *mappedDev = nullptr;
  // CHECK: hipMalloc(&dv, bytes);
  cudaMalloc(&dv, bytes);
  // CHECK: hipMemset(dv, 0, bytes);
  cudaMemset(dv, 0, bytes);
  // CHECK: hipHostMalloc((void **)&pinned, bytes, hipHostMallocDefault);
  cudaMallocHost((void **)&pinned, bytes);
  // CHECK: hipHostAlloc((void **)&mapped, bytes, hipHostMallocMapped);
  cudaHostAlloc((void **)&mapped, bytes, cudaHostAllocMapped);
  // CHECK: hipHostGetDevicePointer((void **)&mappedDev, mapped, 0);
  cudaHostGetDevicePointer((void **)&mappedDev, mapped, 0);
  // CHECK: hipMallocManaged(&shared, bytes, hipMemAttachGlobal);
  cudaMallocManaged(&shared, bytes, cudaMemAttachGlobal);
  float host[4] = {1.f, 2.f, 3.f, 4.f};
  // CHECK: hipMemcpyToSymbol(HIP_SYMBOL(coeffs), host, sizeof(host));
  cudaMemcpyToSymbol(coeffs, host, sizeof(host));
  // CHECK: hipMemcpy(dv, pinned, bytes, hipMemcpyHostToDevice);
  cudaMemcpy(dv, pinned, bytes, cudaMemcpyHostToDevice);
  // CHECK: hipLaunchKernelGGL(weigh, dim3(n / 256), dim3(256), 0, 0, dv, n);
  weigh<<<n / 256, 256>>>(dv, n);
  int count = 0;
  // CHECK: hipMemcpyFromSymbol(&count, HIP_SYMBOL(hits), sizeof(int));
  cudaMemcpyFromSymbol(&count, hits, sizeof(int));
  // CHECK: hipMemcpy(shared, dv, bytes, hipMemcpyDeviceToDevice);
  cudaMemcpy(shared, dv, bytes, cudaMemcpyDeviceToDevice);
  size_t freeB = 0, totalB = 0;
  // CHECK: hipMemGetInfo(&freeB, &totalB);
  cudaMemGetInfo(&freeB, &totalB);
  std::printf("%zu of %zu free, %d\n", freeB, totalB, count);
  // CHECK: hipHostFree(mapped);
  // CHECK: hipHostFree(pinned);
  // CHECK: hipFree(shared);
  // CHECK: hipFree(dv);
  cudaFreeHost(mapped);
  cudaFreeHost(pinned);
  cudaFree(shared);
  cudaFree(dv);
  return 0;
}
