#include <cuda_runtime.h>
unsigned long long flags(cudaGraphExec_t g) {
  unsigned long long f = 0;
  cudaGraphExecGetFlags(g, &f);
  return f;
}
