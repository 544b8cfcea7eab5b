// Sum reduction with warp shuffles: fast on NVIDIA, but it assumes 32-lane warps.
#include <cstdio>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff
#define WARP_SIZE 32

__inline__ __device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(FULL_MASK, v, offset);
  return v;
}

__global__ void block_sum(const float* in, float* out, int n) {
  __shared__ float partial[32];
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  float v = tid < n ? in[tid] : 0.0f;
  v = warp_sum(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / WARP_SIZE ? partial[lane] : 0.0f;
    v = warp_sum(v);
    if (lane == 0) atomicAdd(out, v);
  }
  unsigned active = __ballot_sync(0xffffffff, v != 0.0f);
  (void)active;
}

int main() {
  const int n = 1 << 16;
  float *d_in, *d_out, h_out = 0.0f;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, sizeof(float));
  cudaMemset(d_out, 0, sizeof(float));
  block_sum<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
  cudaMemcpy(&h_out, d_out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("sum = %f\n", h_out);
  cudaFree(d_in); cudaFree(d_out);
  return 0;
}
