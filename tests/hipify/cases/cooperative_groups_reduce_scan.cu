// Cooperative groups' reduce and scan headers: HIP has them since ROCm 7.13 (reduce) and 10.0 (scan), which the
// minimum-ROCm report says; ROCm 5.2's hipcc stops at the missing header.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
__global__ void sums(const int* in, int* total, int* prefix) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int s = cg::reduce(tile, v, cg::plus<int>());
  prefix[blockIdx.x * blockDim.x + threadIdx.x] = cg::inclusive_scan(tile, v);
  if (tile.thread_rank() == 0) atomicAdd(total, s);
}
