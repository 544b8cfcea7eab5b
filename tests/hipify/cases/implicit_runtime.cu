/*
 * No include at all: nvcc includes cuda_runtime.h implicitly, hipcc does not.
 */
#pragma once
__global__ void k(int* p) { p[threadIdx.x] = 0; }
