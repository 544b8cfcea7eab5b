// hip_runtime.h must come before the other HIP headers (HIP 5.x): a later cuda_runtime.h moves up.
#include <cstdio>
#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;
__global__ void k(float* p) { cg::this_thread_block().sync(); p[threadIdx.x] = 0; }
int main() { float* d; cudaMalloc(&d, 4); k<<<1, 1>>>(d); cudaFree(d); std::printf("done\n"); }
