// --skip-excluded-preprocessor-conditional-blocks: branches a CUDA host compile skips stay as they are.
#include <cuda_runtime.h>
#define USE_GRAPHS 1
#define WITH_EVENTS
#if USE_GRAPHS && !defined(_WIN32)
void capture(cudaStream_t s, cudaGraph_t* g) { cudaStreamEndCapture(s, g); }
#else
void capture(cudaStream_t s, void* g) { cudaStreamSynchronize(s); }
#endif
#ifdef __CUDA_ARCH__
__device__ int where() { return 1; }  // device pass: not what hipify-clang reads
#elif defined(WITH_EVENTS)
void mark(cudaEvent_t e, cudaStream_t s) { cudaEventRecord(e, s); }
#else
void mark(cudaStream_t s) { cudaStreamQuery(s); }
#endif
#if defined(__cuda_cuda_h__) || defined(__CUDA_RUNTIME_H__)
cudaError_t last() { return cudaGetLastError(); }
#endif
