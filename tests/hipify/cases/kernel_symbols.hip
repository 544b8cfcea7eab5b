// Kernel symbols passed to the execution-control and occupancy APIs: HIP takes them as const void*.
#include <hip/hip_runtime.h>

__global__ void k(float* p) { p[threadIdx.x] = 0; }
template <typename T, int N> __global__ void kt(T* p) { p[N] = 0; }
void setup(float* d, hipStream_t s, hipFunction_t f, void* cb) {
  int blocks = 0, grid = 0, block = 0;
  hipFuncAttributes attr;
  void* args[] = {&d};
  hipFuncSetAttribute(reinterpret_cast<const void*>(k), hipFuncAttributeMaxDynamicSharedMemorySize, 4096);
  hipFuncGetAttributes(&attr, reinterpret_cast<const void*>(kt<float, 4>));
  hipFuncSetCacheConfig(reinterpret_cast<const void*>(k), hipFuncCachePreferShared);
  hipLaunchKernel(reinterpret_cast<const void*>(k), dim3(1), dim3(64), args, 0, s);
  hipLaunchKernel((const void*)k, dim3(1), dim3(64), args, 0, s);
  hipLaunchCooperativeKernel(reinterpret_cast<const void*>(k), dim3(1), dim3(64), args, 0, s);
  hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, reinterpret_cast<const void*>(k), 256, 0);
  hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, reinterpret_cast<const void*>(k), 256, 0, hipOccupancyDefault);
  hipOccupancyMaxPotentialBlockSize(&grid, &block, reinterpret_cast<const void*>(k), 0, 0);
  hipOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, reinterpret_cast<const void*>(&k), 0, 0, hipOccupancyDefault);
  hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, f, 0, 0);
  hipModuleOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, f, 1024,
                                            256, hipOccupancyDefault);
}
