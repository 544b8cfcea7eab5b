#include <cuda_runtime.h>
void old_api() {
  cudaThreadSynchronize();
  cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                     cudaFlushGPUDirectRDMAWritesToOwner);
}
