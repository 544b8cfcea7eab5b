// RUN: %run_test hipify "%s" "%t" %hipify_args %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// Runtime API from a host-only .cpp file: device properties, attributes, limits, errors.

// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>
#include <cstdio>

// CHECK: static bool report(hipError_t status, const char *what) {
static bool report(cudaError_t status, const char *what) {
  // CHECK: if (status != hipSuccess) {
  if (status != cudaSuccess) {
    // CHECK: std::fprintf(stderr, "%s: %s (%s)\n", what, hipGetErrorString(status), hipGetErrorName(status));
    std::fprintf(stderr, "%s: %s (%s)\n", what, cudaGetErrorString(status), cudaGetErrorName(status));
    return false;
  }
  return true;
}

int main() {
  int devices = 0;
  // CHECK: if (!report(hipGetDeviceCount(&devices), "count")) return 1;
  if (!report(cudaGetDeviceCount(&devices), "count")) return 1;
  for (int d = 0; d < devices; ++d) {
    // CHECK: if (hipSetDevice(d) != hipSuccess) std::fprintf(stderr, "hipSetDevice failed\n");
    if (cudaSetDevice(d) != cudaSuccess) std::fprintf(stderr, "cudaSetDevice failed\n");
    // CHECK: hipDeviceProp_t prop;
    cudaDeviceProp prop;
    // CHECK: hipGetDeviceProperties(&prop, d);
    cudaGetDeviceProperties(&prop, d);
    int sms = 0, maxThreads = 0;
    // CHECK: hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, d);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, d);
    // CHECK: hipDeviceGetAttribute(&maxThreads, hipDeviceAttributeMaxThreadsPerBlock, d);
    cudaDeviceGetAttribute(&maxThreads, cudaDevAttrMaxThreadsPerBlock, d);
    size_t stack = 0;
    // CHECK: hipDeviceGetLimit(&stack, hipLimitStackSize);
    cudaDeviceGetLimit(&stack, cudaLimitStackSize);
    std::printf("%s: cc %d.%d, %d SMs, %d threads, %zu B stack\n", prop.name, prop.major, prop.minor, sms, maxThreads, stack);
  }
  int current = -1;
  // CHECK: hipGetDevice(&current);
  cudaGetDevice(&current);
  // CHECK: hipError_t last = hipGetLastError();
  cudaError_t last = cudaGetLastError();
  // CHECK: if (last == hipErrorInvalidValue || hipPeekAtLastError() != hipSuccess)
  if (last == cudaErrorInvalidValue || cudaPeekAtLastError() != cudaSuccess)
    return 2;
  // CHECK: hipDeviceSynchronize();
  cudaDeviceSynchronize();
  // CHECK: hipDeviceReset();
  cudaDeviceReset();
  return 0;
}
