#include <cub/cub.cuh>
#include <cub/block/block_reduce.cuh>
namespace mycub = cub;
template <int THREADS>
__global__ void sum(const int* in, int* out) {
  using BlockReduce = cub::BlockReduce<int, THREADS>;
  __shared__ typename BlockReduce::TempStorage tmp;
  int v = BlockReduce(tmp).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) *out = v;
}
void scan(void* tmp, size_t& bytes, const int* in, int* out, int n) {
  using namespace cub;
  ::cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, n);
  int cub = 3;  // a variable named cub is not the namespace
  (void)cub;
}
