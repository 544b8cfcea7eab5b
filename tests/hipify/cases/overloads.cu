#include <cuda_runtime.h>
void timing(cudaGraph_t g) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b, cudaEventBlockingSync | cudaEventDisableTiming);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  cudaGraphInstantiate(&exec, g, nullptr, nullptr, 0);
}
