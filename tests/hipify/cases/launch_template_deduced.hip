// --hip-kernel-execution-syntax: a kernel template launched with deduced arguments is an instantiation, so its
// name goes in HIP_KERNEL_NAME as for explicit arguments; a plain kernel of the same name keeps it bare.
#include <hip/hip_runtime.h>
template <typename T>
__global__ void axpy(T a, const T* x, T* y) { y[threadIdx.x] += a * x[threadIdx.x]; }
template <typename T, int Block = 128>
static __global__ void __launch_bounds__(Block) zero(T* p) { p[blockIdx.x * Block + threadIdx.x] = T(0); }
template <typename T>
__global__ void fill(T* p, T v) { p[threadIdx.x] = v; }
__global__ void fill(int* p, int v) { p[threadIdx.x] = v; }
void run(float* x, float* y, int* n, hipStream_t s) {
  hipLaunchKernelGGL(HIP_KERNEL_NAME(axpy), dim3(1), dim3(64), 0, s, 2.0f, x, y);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(zero), dim3(4), dim3(128), 0, 0, y);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(axpy<double>), dim3(1), dim3(64), 0, 0, 2.0, (const double*)x, (double*)y);
  hipLaunchKernelGGL(fill, dim3(1), dim3(32), 0, 0, n, 7);
}
