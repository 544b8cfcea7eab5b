#include <hip/hip_runtime.h>
unsigned long long flags(hipGraphExec_t g) {
  unsigned long long f = 0;
  cudaGraphExecGetFlags(g, &f);
  return f;
}
