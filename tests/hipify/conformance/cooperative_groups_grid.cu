// RUN: %run_test hipify "%s" "%t" %hipify_args %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// Cooperative groups: the header changes, the cooperative_groups namespace stays (HIP provides it),
// the cooperative launch and its attribute are renamed.

// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_cooperative_groups.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void twoPhase(float *data, int n) {
  // CHECK: cg::grid_group grid = cg::this_grid();
  cg::grid_group grid = cg::this_grid();
  // CHECK: cg::thread_block block = cg::this_thread_block();
  cg::thread_block block = cg::this_thread_block();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] *= 2.0f;
  // CHECK: grid.sync();
  grid.sync();
  // CHECK: cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float v = data[grid.thread_rank() % n];
  for (int off = warp.size() / 2; off > 0; off /= 2) v += warp.shfl_down(v, off);
  block.sync();
  if (warp.thread_rank() == 0) data[0] = v;
}

int main() {
  int dev = 0, coop = 0;
  // CHECK: hipDeviceGetAttribute(&coop, hipDeviceAttributeCooperativeLaunch, dev);
  cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev);
  if (!coop) return 0;
  int n = 1 << 16;
  float *data = nullptr;
  cudaMalloc(&data, n * sizeof(float));
  void *args[] = {&data, &n};
  // CHECK: hipLaunchCooperativeKernel((void *)twoPhase, dim3(64), dim3(256), args, 0, 0);
  cudaLaunchCooperativeKernel((void *)twoPhase, dim3(64), dim3(256), args, 0, 0);
  // CHECK: hipDeviceSynchronize();
  cudaDeviceSynchronize();
  cudaFree(data);
  return 0;
}
