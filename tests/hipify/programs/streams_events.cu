// Overlap copies and kernels with streams; time them with events.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float* x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

int main() {
  const int n = 1 << 22, chunks = 4, chunk = n / chunks;
  float *h, *d;
  cudaMallocHost(&h, n * sizeof(float));  // pinned memory: needed for async copies
  cudaMalloc(&d, n * sizeof(float));

  cudaStream_t streams[chunks];
  for (int i = 0; i < chunks; ++i) cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop, cudaEventDefault);

  cudaEventRecord(start, 0);
  for (int i = 0; i < chunks; ++i) {
    float* hp = h + i * chunk;
    float* dp = d + i * chunk;
    cudaMemcpyAsync(dp, hp, chunk * sizeof(float), cudaMemcpyHostToDevice, streams[i]);
    scale<<<(chunk + 255) / 256, 256, 0, streams[i]>>>(dp, 2.0f, chunk);
    cudaMemcpyAsync(hp, dp, chunk * sizeof(float), cudaMemcpyDeviceToHost, streams[i]);
  }
  cudaEventRecord(stop, 0);
  cudaEventSynchronize(stop);
  float ms = 0.0f;
  cudaEventElapsedTime(&ms, start, stop);
  printf("%d chunks in %.3f ms\n", chunks, ms);

  for (int i = 0; i < chunks; ++i) cudaStreamDestroy(streams[i]);
  cudaEventDestroy(start); cudaEventDestroy(stop);
  cudaFreeHost(h); cudaFree(d);
  return 0;
}
