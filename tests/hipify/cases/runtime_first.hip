// hip_runtime.h must come before the other HIP headers (HIP 5.x): a later cuda_runtime.h moves up.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <hip/hip_cooperative_groups.h>

namespace cg = cooperative_groups;
__global__ void k(float* p) { cg::this_thread_block().sync(); p[threadIdx.x] = 0; }
int main() { float* d; hipMalloc(&d, 4); k<<<1, 1>>>(d); hipFree(d); std::printf("done\n"); }
