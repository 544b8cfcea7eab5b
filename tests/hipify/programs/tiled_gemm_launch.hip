// Tiled matrix multiply C = A * B with shared memory (square N x N, row-major).
#include <cstdio>
#include <vector>
#include <hip/hip_runtime.h>

#define TILE 16

__global__ void matmul_tiled(const float* A, const float* B, float* C, int N) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (N + TILE - 1) / TILE; ++t) {
    int a_col = t * TILE + threadIdx.x;
    int b_row = t * TILE + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < N && a_col < N) ? A[row * N + a_col] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (b_row < N && col < N) ? B[b_row * N + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < N && col < N) C[row * N + col] = acc;
}

int main() {
  const int N = 512;
  const size_t bytes = size_t(N) * N * sizeof(float);
  std::vector<float> A(N * N, 1.0f), B(N * N, 2.0f), C(N * N);
  float *dA, *dB, *dC;
  hipMalloc(&dA, bytes);
  hipMalloc(&dB, bytes);
  hipMalloc(&dC, bytes);
  hipMemcpy(dA, A.data(), bytes, hipMemcpyHostToDevice);
  hipMemcpy(dB, B.data(), bytes, hipMemcpyHostToDevice);

  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (N + TILE - 1) / TILE);
  hipLaunchKernelGGL(matmul_tiled, dim3(grid), dim3(block), 0, 0, dA, dB, dC, N);
  hipDeviceSynchronize();

  hipMemcpy(C.data(), dC, bytes, hipMemcpyDeviceToHost);
  printf("C[0] = %f (expect %f)\n", C[0], 2.0f * N);
  hipFree(dA); hipFree(dB); hipFree(dC);
  return 0;
}
