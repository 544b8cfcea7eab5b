#include <hip/hip_runtime.h>
void old_api() {
  hipDeviceSynchronize();
  cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                     cudaFlushGPUDirectRDMAWritesToOwner);
}
