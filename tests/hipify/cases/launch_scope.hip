// Launches of ::kernel and ns::kernel, launches inside macro arguments and macro bodies; a launch inside an
// expression stays <<<>>> (hipLaunchKernelGGL is a do { } while (0) statement).
#include <hip/hip_runtime.h>
#include <cstdio>
__global__ void k(float* p) { p[threadIdx.x] = 1; }
namespace ns { __global__ void k2(float* p) { p[threadIdx.x] = 2; } }
#define SYNC(...) do { __VA_ARGS__; hipDeviceSynchronize(); } while (0)
#define RUN(kern, n, ...) hipLaunchKernelGGL(kern, dim3(n), dim3(64), 0, 0, __VA_ARGS__)
#define RUN_K(p) \
  hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, p)
void f(float* d, hipStream_t s) {
  hipLaunchKernelGGL(::k, dim3(1), dim3(64), 0, 0, d);
  SYNC((k<<<1, 64, 0, s>>>(d)));
  SYNC(hipLaunchKernelGGL(::ns::k2, dim3(2, 1), dim3(32), 0, 0, d));
  SYNC(hipLaunchKernelGGL(::ns::k2, dim3(2), dim3(32), 0, 0, d));
  hipStreamSynchronize(s);  hipLaunchKernelGGL(::k, dim3(1), dim3(64), 0, 0, d);
  RUN(k, 1, d);
  RUN_K(d);
  (void)(k<<<1, 1>>>(d), 0);
  std::printf("%s\n", hipGetErrorString(hipGetLastError()));
}
