#include <hip/hip_runtime.h>
template <typename T, int N> __global__ void axpy(T a, T* x, T* y) { y[threadIdx.x] += a * x[threadIdx.x]; }
__global__ void empty() {}
__global__ void fill(float* p, float v, int n) { if (threadIdx.x < n) p[threadIdx.x] = v; }
namespace ops { __global__ void scale(float* p) { p[threadIdx.x] *= 2; } }
void run(float* x, float* y, hipStream_t s, size_t shmem, int n) {
  hipLaunchKernelGGL(HIP_KERNEL_NAME(axpy<float, 4>), dim3(1), dim3(32), 0, 0, 2.0f, x, y);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(axpy<float, 4>), dim3(1, 1, 1), dim3(32), shmem, s, 2.0f, x, y);
  hipLaunchKernelGGL(empty, dim3(1), dim3(1), 0, 0);
  hipLaunchKernelGGL(empty, dim3(1), dim3(1), 0, s);
  hipLaunchKernelGGL(fill, dim3((n + 255) / 256), dim3(256), 0, s, x, std::min(1.0f, 2.0f), n);
  hipLaunchKernelGGL(ops::scale, dim3(1), dim3(64), 0, 0, y);
  hipLaunchKernelGGL(fill, dim3(1), dim3(128), 0, 0,
      x,
      0.0f, n);
  // comment with a launch: empty<<<1, 1>>>();
  const char* msg = "k<<<1, 1>>>()";
}
