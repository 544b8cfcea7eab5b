// Sum of an array, one wavefront-level reduction per block (hand port of ../cuda/main.cu).
#include <cstdio>
#include <hip/hip_runtime.h>

__global__ void block_sum(const float *in, float *out, int n) {
  __shared__ float partial[1024 / 32];  // enough wavefronts for 32- and 64-lane targets
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int offset = warpSize / 2; offset > 0; offset >>= 1)
    v += __shfl_down(v, offset);
  int lane = threadIdx.x % warpSize;
  int wave = threadIdx.x / warpSize;
  if (lane == 0) partial[wave] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float s = 0.0f;
    for (int w = 0; w < (int)(blockDim.x + warpSize - 1) / warpSize; ++w) s += partial[w];
    atomicAdd(out, s);
  }
}

int main() {
  const int n = 1 << 16;
  float *h, *d_in, *d_out;
  if (hipHostMalloc(&h, n * sizeof(float), hipHostMallocDefault) != hipSuccess) {
    printf("hipHostMalloc failed\n");
    return 1;
  }
  for (int i = 0; i < n; ++i) h[i] = 1.0f;
  hipMalloc(&d_in, n * sizeof(float));
  hipMalloc(&d_out, sizeof(float));
  hipMemcpy(d_in, h, n * sizeof(float), hipMemcpyHostToDevice);
  hipMemset(d_out, 0, sizeof(float));
  block_sum<<<n / 256, 256>>>(d_in, d_out, n);
  float sum = 0.0f;
  hipMemcpy(&sum, d_out, sizeof(float), hipMemcpyDeviceToHost);
  printf("sum %.0f (expected %d)\n", sum, n);
  hipFree(d_in);
  hipFree(d_out);
  hipHostFree(h);
  return sum == n ? 0 : 1;
}
