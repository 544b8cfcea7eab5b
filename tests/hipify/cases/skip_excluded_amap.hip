// --skip-excluded-preprocessor-conditional-blocks --amap: in a branch a CUDA host compile skips, CUDA names
// are renamed all the same; its include, launch and argument rewrites (overload, HIP_SYMBOL) are left.
#include <hip/hip_runtime.h>
__constant__ float scale;
__global__ void fill(float* p) { p[threadIdx.x] = scale; }
#if defined(CUDART_VERSION) && CUDART_VERSION < 11000
#include <cusparse.h>
void legacy(float* d, const float* h, hipEvent_t e, hipsparseHandle_t sp) {
  hipEventCreate(&e, hipEventDisableTiming);
  hipMemcpyToSymbol(scale, h, sizeof(float));
  fill<<<1, 32>>>(d);
  hipsparseDestroy(sp);
}
#else
void current(float* d, const float* h, hipEvent_t e) {
  hipEventCreateWithFlags(&e, hipEventDisableTiming);
  hipMemcpyToSymbol(HIP_SYMBOL(scale), h, sizeof(float));
  hipLaunchKernelGGL(fill, dim3(1), dim3(32), 0, 0, d);
}
#endif
