// Overlap copies and kernels with streams; time them with events.
#include <cstdio>
#include <hip/hip_runtime.h>

__global__ void scale(float* x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

int main() {
  const int n = 1 << 22, chunks = 4, chunk = n / chunks;
  float *h, *d;
  hipHostMalloc(&h, n * sizeof(float), hipHostMallocDefault);  // pinned memory: needed for async copies
  hipMalloc(&d, n * sizeof(float));

  hipStream_t streams[chunks];
  for (int i = 0; i < chunks; ++i) hipStreamCreateWithFlags(&streams[i], hipStreamNonBlocking);
  hipEvent_t start, stop;
  hipEventCreate(&start);
  hipEventCreateWithFlags(&stop, hipEventDefault);

  hipEventRecord(start, 0);
  for (int i = 0; i < chunks; ++i) {
    float* hp = h + i * chunk;
    float* dp = d + i * chunk;
    hipMemcpyAsync(dp, hp, chunk * sizeof(float), hipMemcpyHostToDevice, streams[i]);
    scale<<<(chunk + 255) / 256, 256, 0, streams[i]>>>(dp, 2.0f, chunk);
    hipMemcpyAsync(hp, dp, chunk * sizeof(float), hipMemcpyDeviceToHost, streams[i]);
  }
  hipEventRecord(stop, 0);
  hipEventSynchronize(stop);
  float ms = 0.0f;
  hipEventElapsedTime(&ms, start, stop);
  printf("%d chunks in %.3f ms\n", chunks, ms);

  for (int i = 0; i < chunks; ++i) hipStreamDestroy(streams[i]);
  hipEventDestroy(start); hipEventDestroy(stop);
  hipHostFree(h); hipFree(d);
  return 0;
}
