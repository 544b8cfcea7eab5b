// Header handling: mapped, dropped, de-duplicated.
#include <hip/hip_runtime.h>


#include <hip/hip_cooperative_groups.h>
#include <hip/hip_bf16.h>
#include <vector>
#include "my_kernels.cuh"
namespace cg = cooperative_groups;
__global__ void k(float* p) { cg::this_thread_block().sync(); p[threadIdx.x] = 0; }
