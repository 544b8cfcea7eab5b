// Sections guarded by CUDA's own include-guard macros (as in cuda-samples' helper_cuda.h) must survive.
#include <cuda_runtime.h>
#include <curand.h>
#include <cstdio>

#ifdef __DRIVER_TYPES_H__
static const char* errorName(cudaError_t error) { return cudaGetErrorName(error); }
#endif

#if defined(__CUDA_RUNTIME_H__) && !defined(CURAND_H_)
#error "this section needs cuRAND" /* CURAND_H_ in a comment stays */
#elif defined CURAND_H_
static const char* errorName(curandStatus_t error) {
  return error == CURAND_STATUS_SUCCESS ? "CURAND_STATUS_SUCCESS" : "<curand error>";
}
#endif

#ifdef __cuda_cuda_h__
int driverApiHeader = 1;  // cuda.h (HIP: hip_runtime.h) was included
#endif

template <typename T> void check(T result, const char* what) {
  if (result) std::fprintf(stderr, "error %s in %s\n", errorName(result), what);
}
int main() { void* p; check(cudaMalloc(&p, 16), "cudaMalloc"); check(cudaFree(p), "cudaFree"); }
