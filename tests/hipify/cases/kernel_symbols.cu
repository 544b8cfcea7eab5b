// Kernel symbols passed to the execution-control and occupancy APIs: HIP takes them as const void*.
#include <cuda_runtime.h>
#include <cuda.h>
__global__ void k(float* p) { p[threadIdx.x] = 0; }
template <typename T, int N> __global__ void kt(T* p) { p[N] = 0; }
void setup(float* d, cudaStream_t s, CUfunction f, CUoccupancyB2DSize cb) {
  int blocks = 0, grid = 0, block = 0;
  cudaFuncAttributes attr;
  void* args[] = {&d};
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 4096);
  cudaFuncGetAttributes(&attr, kt<float, 4>);
  cudaFuncSetCacheConfig(k, cudaFuncCachePreferShared);
  cudaLaunchKernel(k, dim3(1), dim3(64), args, 0, s);
  cudaLaunchKernel((const void*)k, dim3(1), dim3(64), args, 0, s);
  cudaLaunchCooperativeKernel(k, dim3(1), dim3(64), args, 0, s);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, 256, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, k, 256, 0, cudaOccupancyDefault);
  cudaOccupancyMaxPotentialBlockSize(&grid, &block, k, 0, 0);
  cudaOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, &k, 0, 0, cudaOccupancyDefault);
  cuOccupancyMaxPotentialBlockSize(&grid, &block, f, cb, 0, 0);
  cuOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, f, NULL, 1024,
                                            256, CU_OCCUPANCY_DEFAULT);
}
