#include <cuda_runtime.h>
#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) return e; } while (0)
#define ALLOC(ptr, n) cudaMalloc((void**)&(ptr), (n) * sizeof(*(ptr)))
#define SYNC cudaDeviceSynchronize()
#define MEMCPY_KIND cudaMemcpyHostToDevice
#if defined(__CUDACC__)
#define ON_GPU 1
#endif
cudaError_t go(float* h, int n) {
  float* d;
  CHECK(ALLOC(d, n));
  CHECK(cudaMemcpy(d, h, n * sizeof(float), MEMCPY_KIND));
  CHECK(SYNC);
  return cudaFree(d);
}
