// RUN: %run_test hipify "%s" "%t" %hipify_args 1 --hip-kernel-execution-syntax %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// Texture objects: CUDA array, resource and texture descriptors, fetch in a kernel.

// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>

// CHECK: __global__ void sample(hipTextureObject_t tex, float *out, int w, int h) {
__global__ void sample(cudaTextureObject_t tex, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  // CHECK: if (x < w && y < h) out[y * w + x] = tex2D<float>(tex, x + 0.5f, y + 0.5f);
  if (x < w && y < h) out[y * w + x] = tex2D<float>(tex, x + 0.5f, y + 0.5f);
}

int main() {
  const int w = 64, h = 32;
  float host[w * h] = {};
  // CHECK: hipChannelFormatDesc fmt = hipCreateChannelDesc<float>();
  cudaChannelFormatDesc fmt = cudaCreateChannelDesc<float>();
  // CHECK: hipArray_t arr;
  cudaArray_t arr;
  // CHECK: hipMallocArray(&arr, &fmt, w, h);
  cudaMallocArray(&arr, &fmt, w, h);
  // CHECK: hipMemcpy2DToArray(arr, 0, 0, host, w * sizeof(float), w * sizeof(float), h, hipMemcpyHostToDevice);
  cudaMemcpy2DToArray(arr, 0, 0, host, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice);
  // CHECK: hipResourceDesc res = {};
  cudaResourceDesc res = {};
  // CHECK: res.resType = hipResourceTypeArray;
  res.resType = cudaResourceTypeArray;
  res.res.array.array = arr;
  // CHECK: hipTextureDesc td = {};
  cudaTextureDesc td = {};
  // CHECK: td.addressMode[0] = hipAddressModeClamp;
  td.addressMode[0] = cudaAddressModeClamp;
  td.addressMode[1] = cudaAddressModeClamp;
  // CHECK: td.filterMode = hipFilterModeLinear;
  td.filterMode = cudaFilterModeLinear;
  // CHECK: td.readMode = hipReadModeElementType;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 0;
  // CHECK: hipTextureObject_t tex = 0;
  cudaTextureObject_t tex = 0;
  // CHECK: hipCreateTextureObject(&tex, &res, &td, nullptr);
  cudaCreateTextureObject(&tex, &res, &td, nullptr);
  float *out = nullptr;
  cudaMalloc(&out, w * h * sizeof(float));
  dim3 block(16, 16), grid(w / 16, h / 16);
  // CHECK: hipLaunchKernelGGL(sample, dim3(grid), dim3(block), 0, 0, tex, out, w, h);
  sample<<<grid, block>>>(tex, out, w, h);
  // CHECK: hipDestroyTextureObject(tex);
  cudaDestroyTextureObject(tex);
  // CHECK: hipFreeArray(arr);
  cudaFreeArray(arr);
  cudaFree(out);
  return 0;
}
