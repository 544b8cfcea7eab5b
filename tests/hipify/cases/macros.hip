#include <hip/hip_runtime.h>
#define CHECK(call) do { hipError_t e = (call); if (e != hipSuccess) return e; } while (0)
#define ALLOC(ptr, n) hipMalloc((void**)&(ptr), (n) * sizeof(*(ptr)))
#define SYNC hipDeviceSynchronize()
#define MEMCPY_KIND hipMemcpyHostToDevice
#if defined(__HIPCC__)
#define ON_GPU 1
#endif
hipError_t go(float* h, int n) {
  float* d;
  CHECK(ALLOC(d, n));
  CHECK(hipMemcpy(d, h, n * sizeof(float), MEMCPY_KIND));
  CHECK(SYNC);
  return hipFree(d);
}
