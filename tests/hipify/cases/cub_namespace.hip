#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>
#include <hipcub/block/block_reduce.hpp>
namespace mycub = hipcub;
template <int THREADS>
__global__ void sum(const int* in, int* out) {
  using BlockReduce = hipcub::BlockReduce<int, THREADS>;
  __shared__ typename BlockReduce::TempStorage tmp;
  int v = BlockReduce(tmp).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) *out = v;
}
void scan(void* tmp, size_t& bytes, const int* in, int* out, int n) {
  using namespace hipcub;
  ::hipcub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, n);
  int cub = 3;  // a variable named cub is not the namespace
  (void)cub;
}
