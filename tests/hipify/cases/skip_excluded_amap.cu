// --skip-excluded-preprocessor-conditional-blocks --amap: in a branch a CUDA host compile skips, CUDA names
// are renamed all the same; its include, launch and argument rewrites (overload, HIP_SYMBOL) are left.
#include <cuda_runtime.h>
__constant__ float scale;
__global__ void fill(float* p) { p[threadIdx.x] = scale; }
#if defined(CUDART_VERSION) && CUDART_VERSION < 11000
#include <cusparse.h>
void legacy(float* d, const float* h, cudaEvent_t e, cusparseHandle_t sp) {
  cudaEventCreate(&e, cudaEventDisableTiming);
  cudaMemcpyToSymbol(scale, h, sizeof(float));
  fill<<<1, 32>>>(d);
  cusparseDestroy(sp);
}
#else
void current(float* d, const float* h, cudaEvent_t e) {
  cudaEventCreate(&e, cudaEventDisableTiming);
  cudaMemcpyToSymbol(scale, h, sizeof(float));
  fill<<<1, 32>>>(d);
}
#endif
