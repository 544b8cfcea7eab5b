// Sum of an array, one warp-level reduction per block (written for the hipify_ported bench test).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float partial[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffff, v, offset);
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int w = 0; w < (int)(blockDim.x + 31) / 32; ++w) s += partial[w];
    atomicAdd(out, s);
  }
}

int main() {
  const int n = 1 << 16;
  float *h, *d_in, *d_out;
  if (cudaHostAlloc(&h, n * sizeof(float), cudaHostAllocDefault) != cudaSuccess) {
    printf("cudaHostAlloc failed\n");
    return 1;
  }
  for (int i = 0; i < n; ++i) h[i] = 1.0f;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, sizeof(float));
  cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(d_out, 0, sizeof(float));
  block_sum<<<n / 256, 256>>>(d_in, d_out, n);
  float sum = 0.0f;
  cudaMemcpy(&sum, d_out, sizeof(float), cudaMemcpyDeviceToHost);
  printf("sum %.0f (expected %d)\n", sum, n);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFreeHost(h);
  return sum == n ? 0 : 1;
}
