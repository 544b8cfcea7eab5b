/*
 * No include at all: nvcc includes cuda_runtime.h implicitly, hipcc does not.
 */
#pragma once
#include <hip/hip_runtime.h>
__global__ void k(int* p) { p[threadIdx.x] = 0; }
