// RUN: %run_test hipify "%s" "%t" %hipify_args 1 --hip-kernel-execution-syntax %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// Runtime API: streams, events, asynchronous copies, a launch on a stream.

// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>
#include <cstdio>

__global__ void bump(int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

int main() {
  const int n = 4096;
  int *host = nullptr, *dev = nullptr;
  cudaMallocHost(&host, n * sizeof(int));
  cudaMalloc(&dev, n * sizeof(int));
  // CHECK: hipStream_t copyStream, workStream;
  cudaStream_t copyStream, workStream;
  // CHECK: hipStreamCreate(&copyStream);
  cudaStreamCreate(&copyStream);
  // CHECK: hipStreamCreateWithFlags(&workStream, hipStreamNonBlocking);
  cudaStreamCreateWithFlags(&workStream, cudaStreamNonBlocking);
  // CHECK: hipEvent_t copied, begin, end;
  cudaEvent_t copied, begin, end;
  // CHECK: hipEventCreateWithFlags(&copied, hipEventDisableTiming);
  cudaEventCreateWithFlags(&copied, cudaEventDisableTiming);
  // CHECK: hipEventCreate(&begin);
  cudaEventCreate(&begin);
  // CHECK: hipEventCreateWithFlags(&end, hipEventBlockingSync);
  cudaEventCreate(&end, cudaEventBlockingSync);
  // CHECK: hipEventRecord(begin, workStream);
  cudaEventRecord(begin, workStream);
  // CHECK: hipMemsetAsync(dev, 0, n * sizeof(int), copyStream);
  cudaMemsetAsync(dev, 0, n * sizeof(int), copyStream);
  // CHECK: hipMemcpyAsync(dev, host, n * sizeof(int), hipMemcpyHostToDevice, copyStream);
  cudaMemcpyAsync(dev, host, n * sizeof(int), cudaMemcpyHostToDevice, copyStream);
  // CHECK: hipEventRecord(copied, copyStream);
  cudaEventRecord(copied, copyStream);
  // CHECK: hipStreamWaitEvent(workStream, copied, 0);
  cudaStreamWaitEvent(workStream, copied, 0);
  // CHECK: hipLaunchKernelGGL(bump, dim3(n / 128), dim3(128), 0, workStream, dev, n);
  bump<<<n / 128, 128, 0, workStream>>>(dev, n);
  // CHECK: hipEventRecord(end, workStream);
  cudaEventRecord(end, workStream);
  // CHECK: if (hipEventQuery(end) == hipErrorNotReady) {
  if (cudaEventQuery(end) == cudaErrorNotReady) {
    // CHECK: hipEventSynchronize(end);
    cudaEventSynchronize(end);
  }
  float ms = 0.f;
  // CHECK: hipEventElapsedTime(&ms, begin, end);
  cudaEventElapsedTime(&ms, begin, end);
  // CHECK: hipMemcpyAsync(host, dev, n * sizeof(int), hipMemcpyDeviceToHost, workStream);
  cudaMemcpyAsync(host, dev, n * sizeof(int), cudaMemcpyDeviceToHost, workStream);
  // CHECK: hipStreamSynchronize(workStream);
  cudaStreamSynchronize(workStream);
  std::printf("%d after %.3f ms\n", host[0], ms);
  // CHECK: hipEventDestroy(copied);
  cudaEventDestroy(copied);
  cudaEventDestroy(begin);
  cudaEventDestroy(end);
  // CHECK: hipStreamDestroy(copyStream);
  cudaStreamDestroy(copyStream);
  cudaStreamDestroy(workStream);
  cudaFree(dev);
  cudaFreeHost(host);
  return 0;
}
