// Header handling: mapped, dropped, de-duplicated.
#include <cuda.h>
#include <cuda_runtime.h>
#include "device_launch_parameters.h"
#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <vector>
#include "my_kernels.cuh"
namespace cg = cooperative_groups;
__global__ void k(float* p) { cg::this_thread_block().sync(); p[threadIdx.x] = 0; }
