// Sections guarded by CUDA's own include-guard macros (as in cuda-samples' helper_cuda.h) must survive.
#include <hip/hip_runtime.h>
#include <hiprand/hiprand.h>
#include <cstdio>

#ifdef HIP_INCLUDE_HIP_DRIVER_TYPES_H
static const char* errorName(hipError_t error) { return hipGetErrorName(error); }
#endif

#if defined(HIP_INCLUDE_HIP_HIP_RUNTIME_H) && !defined(HIPRAND_H_)
#error "this section needs cuRAND" /* CURAND_H_ in a comment stays */
#elif defined HIPRAND_H_
static const char* errorName(hiprandStatus_t error) {
  return error == HIPRAND_STATUS_SUCCESS ? "CURAND_STATUS_SUCCESS" : "<curand error>";
}
#endif

#ifdef HIP_INCLUDE_HIP_HIP_RUNTIME_H
int driverApiHeader = 1;  // cuda.h (HIP: hip_runtime.h) was included
#endif

template <typename T> void check(T result, const char* what) {
  if (result) std::fprintf(stderr, "error %s in %s\n", errorName(result), what);
}
int main() { void* p; check(hipMalloc(&p, 16), "cudaMalloc"); check(hipFree(p), "cudaFree"); }
