// RUN: %run_test hipify "%s" "%t" %hipify_args 1 --hip-kernel-execution-syntax %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// cuRAND to hipRAND: the host generator API and the device API in a kernel.

// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>
// CHECK: #include <hiprand/hiprand.h>
#include <curand.h>
// CHECK: #include <hiprand/hiprand_kernel.h>
#include <curand_kernel.h>

// CHECK: __global__ void seedStates(hiprandState *states, unsigned long long seed) {
__global__ void seedStates(curandState *states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: hiprand_init(seed, id, 0, &states[id]);
  curand_init(seed, id, 0, &states[id]);
}

// CHECK: __global__ void estimatePi(hiprandState *states, unsigned int *inside, int draws) {
__global__ void estimatePi(curandState *states, unsigned int *inside, int draws) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  // CHECK: hiprandState local = states[id];
  curandState local = states[id];
  unsigned int count = 0;
  for (int k = 0; k < draws; ++k) {
    // CHECK: float px = hiprand_uniform(&local);
    float px = curand_uniform(&local);
    // CHECK: float py = hiprand_uniform(&local);
    float py = curand_uniform(&local);
    if (px * px + py * py <= 1.0f) ++count;
  }
  states[id] = local;
  atomicAdd(inside, count);
}

// CHECK: __global__ void gaussians(hiprandStatePhilox4_32_10_t *st, float4 *out) {
__global__ void gaussians(curandStatePhilox4_32_10_t *st, float4 *out) {
  int id = threadIdx.x;
  // CHECK: out[id] = hiprand_normal4(&st[id]);
  out[id] = curand_normal4(&st[id]);
}

int main() {
  const size_t n = 1 << 20;
  float *samples = nullptr;
  cudaMalloc(&samples, n * sizeof(float));
  // CHECK: hiprandGenerator_t gen;
  curandGenerator_t gen;
  // CHECK: hiprandStatus_t rs = hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_PHILOX4_32_10);
  curandStatus_t rs = curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10);
  // CHECK: if (rs != HIPRAND_STATUS_SUCCESS) return 1;
  if (rs != CURAND_STATUS_SUCCESS) return 1;
  // CHECK: hiprandSetPseudoRandomGeneratorSeed(gen, 2024ULL);
  curandSetPseudoRandomGeneratorSeed(gen, 2024ULL);
  // CHECK: hiprandGenerateUniform(gen, samples, n);
  curandGenerateUniform(gen, samples, n);
  // CHECK: hiprandGenerateNormal(gen, samples, n, 0.0f, 1.0f);
  curandGenerateNormal(gen, samples, n, 0.0f, 1.0f);
  // CHECK: hiprandDestroyGenerator(gen);
  curandDestroyGenerator(gen);

  // CHECK: hiprandState *states = nullptr;
  curandState *states = nullptr;
  unsigned int *inside = nullptr;
  // CHECK: hipMalloc(&states, 256 * sizeof(hiprandState));
  cudaMalloc(&states, 256 * sizeof(curandState));
  cudaMalloc(&inside, sizeof(unsigned int));
  // CHECK: hipLaunchKernelGGL(seedStates, dim3(1), dim3(256), 0, 0, states, 7ULL);
  seedStates<<<1, 256>>>(states, 7ULL);
  // CHECK: hipLaunchKernelGGL(estimatePi, dim3(1), dim3(256), 0, 0, states, inside, 1000);
  estimatePi<<<1, 256>>>(states, inside, 1000);
  cudaFree(inside);
  cudaFree(states);
  cudaFree(samples);
  return 0;
}
