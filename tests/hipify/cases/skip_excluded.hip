// --skip-excluded-preprocessor-conditional-blocks: branches a CUDA host compile skips stay as they are.
#include <hip/hip_runtime.h>
#define USE_GRAPHS 1
#define WITH_EVENTS
#if USE_GRAPHS && !defined(_WIN32)
void capture(hipStream_t s, hipGraph_t* g) { hipStreamEndCapture(s, g); }
#else
void capture(cudaStream_t s, void* g) { cudaStreamSynchronize(s); }
#endif
#ifdef __CUDA_ARCH__
__device__ int where() { return 1; }  // device pass: not what hipify-clang reads
#elif defined(WITH_EVENTS)
void mark(hipEvent_t e, hipStream_t s) { hipEventRecord(e, s); }
#else
void mark(cudaStream_t s) { cudaStreamQuery(s); }
#endif
#if defined(HIP_INCLUDE_HIP_HIP_RUNTIME_H) || defined(HIP_INCLUDE_HIP_HIP_RUNTIME_H)
hipError_t last() { return hipGetLastError(); }
#endif
