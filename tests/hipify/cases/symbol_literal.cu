// HIP_SYMBOL goes around the whole argument, also a string literal (CUDA < 5 named symbols by string) and
// not around the comments next to it.
#include <cuda_runtime.h>
__constant__ float table[4];
void upload(const float* h) {
  cudaMemcpyToSymbol("table", h, sizeof(float) * 4);
  cudaMemcpyToSymbol(/* the symbol */ table /* 4 floats */, h, sizeof(table));
  cudaMemcpyToSymbol(
      table,
      h, sizeof(table));
}
