// Launches of ::kernel and ns::kernel, launches inside macro arguments and macro bodies; a launch inside an
// expression stays <<<>>> (hipLaunchKernelGGL is a do { } while (0) statement).
#include <cuda_runtime.h>
#include <cstdio>
__global__ void k(float* p) { p[threadIdx.x] = 1; }
namespace ns { __global__ void k2(float* p) { p[threadIdx.x] = 2; } }
#define SYNC(...) do { __VA_ARGS__; cudaDeviceSynchronize(); } while (0)
#define RUN(kern, n, ...) kern<<<n, 64>>>(__VA_ARGS__)
#define RUN_K(p) \
  k<<<1, 64>>>(p)
void f(float* d, cudaStream_t s) {
  ::k<<<1, 64>>>(d);
  SYNC((k<<<1, 64, 0, s>>>(d)));
  SYNC(::ns::k2<<<dim3(2, 1), 32>>>(d));
  SYNC(::ns::k2<<<2, 32>>>(d));
  cudaStreamSynchronize(s);  ::k<<<dim3(1), 64>>>(d);
  RUN(k, 1, d);
  RUN_K(d);
  (void)(k<<<1, 1>>>(d), 0);
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
