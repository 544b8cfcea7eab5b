// HIP_SYMBOL goes around the whole argument, also a string literal (CUDA < 5 named symbols by string) and
// not around the comments next to it.
#include <hip/hip_runtime.h>
__constant__ float table[4];
void upload(const float* h) {
  hipMemcpyToSymbol(HIP_SYMBOL("table"), h, sizeof(float) * 4);
  hipMemcpyToSymbol(/* the symbol */ HIP_SYMBOL(table) /* 4 floats */, h, sizeof(table));
  hipMemcpyToSymbol(
      HIP_SYMBOL(table),
      h, sizeof(table));
}
