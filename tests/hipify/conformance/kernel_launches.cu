// RUN: %run_test hipify "%s" "%t" %hipify_args 1 --hip-kernel-execution-syntax %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// Kernel launches <<<>>> rewritten to hipLaunchKernelGGL: literal, variable and dim3 configurations,
// templates (explicit and deduced arguments), dynamic shared memory and a stream.

// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>

__global__ void clear(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 0.0f;
}

__global__ void tile2d(float *p, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) p[y * w + x] = x + y;
}

__global__ void noArgs() {}

template <typename T, int BLOCK>
__global__ void blockSum(const T *in, T *out, int n) {
  extern __shared__ unsigned char raw[];
  T *buf = reinterpret_cast<T *>(raw);
  int i = blockIdx.x * BLOCK + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : T(0);
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}

template <typename T>
__global__ void scaleBy(T *v, T k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= k;
}

static int templatedLaunches() {
  const int n = 1 << 16;
  float *in = nullptr, *out = nullptr;
  double *dd = nullptr;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, (n / 256) * sizeof(float));
  cudaMalloc(&dd, n * sizeof(double));
  // CHECK: hipStream_t s;
  cudaStream_t s;
  cudaStreamCreate(&s);
  // CHECK: hipLaunchKernelGGL(HIP_KERNEL_NAME(blockSum<float, 256>), dim3(n / 256), dim3(256), 256 * sizeof(float), s, in, out, n);
  blockSum<float, 256><<<n / 256, 256, 256 * sizeof(float), s>>>(in, out, n);
  // CHECK: hipLaunchKernelGGL(HIP_KERNEL_NAME(scaleBy<float>), dim3(n / 512), dim3(512), 0, 0, in, 2.0f, n);
  scaleBy<float><<<n / 512, 512>>>(in, 2.0f, n);
  // CHECK: hipLaunchKernelGGL(HIP_KERNEL_NAME(scaleBy<double>), dim3(n / 512), dim3(512), 0, s, dd, 0.5, n);
  scaleBy<double><<<n / 512, 512, 0, s>>>(dd, 0.5, n);
  // CHECK: hipLaunchKernelGGL(HIP_KERNEL_NAME(scaleBy), dim3(n / 256), dim3(256), 0, s, dd, 3.0, n);
  scaleBy<<<n / 256, 256, 0, s>>>(dd, 3.0, n);
  // CHECK: hipStreamSynchronize(s);
  cudaStreamSynchronize(s);
  cudaStreamDestroy(s);
  cudaFree(dd);
  cudaFree(out);
  cudaFree(in);
  return 0;
}

int main() {
  const int n = 1000, w = 64, h = 48;
  float *p = nullptr;
  cudaMalloc(&p, w * h * sizeof(float));
  int threads = 128;
  int blocks = (n + threads - 1) / threads;
  // CHECK: hipLaunchKernelGGL(clear, dim3(blocks), dim3(threads), 0, 0, p, n);
  clear<<<blocks, threads>>>(p, n);
  // CHECK: hipLaunchKernelGGL(clear, dim3(blocks), dim3(threads), 0, 0, p, n / 2);
  clear<<<dim3(blocks), dim3(threads)>>>(p, n / 2);
  // CHECK: hipLaunchKernelGGL(clear, dim3((n + 255) / 256), dim3(256), 0, 0, p, n);
  clear<<<(n + 255) / 256, 256>>>(p, n);
  dim3 block(16, 16);
  dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
  // CHECK: hipLaunchKernelGGL(tile2d, dim3(grid), dim3(block), 0, 0, p, w, h);
  tile2d<<<grid, block>>>(p, w, h);
  // CHECK: hipLaunchKernelGGL(noArgs, dim3(1), dim3(1), 0, 0);
  noArgs<<<1, 1>>>();
  // CHECK: hipGetLastError();
  cudaGetLastError();
  // CHECK: hipDeviceSynchronize();
  cudaDeviceSynchronize();
  // CHECK: hipFree(p);
  cudaFree(p);
  return templatedLaunches();
}
