#include <cuda_runtime.h>
#include <cuda_fp16.h>
__global__ void k(float* out, const __half* in, int* counter) {
  int i = threadIdx.x;
  float v = __half2float(in[i]) + __ldg(out + i);
  __syncthreads();
  atomicAdd(counter, __popc(i));
  out[i] = __float2half(v) == in[i] ? v : -v;
}
