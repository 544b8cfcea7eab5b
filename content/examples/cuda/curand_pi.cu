// Monte Carlo estimate of pi: cuRAND host API for the numbers, device API in a kernel.
#include <cstdio>
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

__global__ void setup_states(curandState* states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void count_inside(curandState* states, int samples, unsigned int* hits) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  unsigned int inside = 0;
  for (int i = 0; i < samples; ++i) {
    float x = curand_uniform(&local);
    float y = curand_uniform(&local);
    if (x * x + y * y <= 1.0f) ++inside;
  }
  states[id] = local;
  atomicAdd(hits, inside);
}

int main() {
  // Host API: fill a buffer with uniform numbers.
  curandGenerator_t gen;
  float* d_buf;
  cudaMalloc(&d_buf, 1024 * sizeof(float));
  curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
  curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  curandGenerateUniform(gen, d_buf, 1024);
  curandDestroyGenerator(gen);

  // Device API: every thread draws its own numbers.
  const int threads = 256, blocks = 64, samples = 1000;
  curandState* states;
  unsigned int* d_hits;
  cudaMalloc(&states, threads * blocks * sizeof(curandState));
  cudaMalloc(&d_hits, sizeof(unsigned int));
  cudaMemset(d_hits, 0, sizeof(unsigned int));
  setup_states<<<blocks, threads>>>(states, 42ULL);
  count_inside<<<blocks, threads>>>(states, samples, d_hits);
  unsigned int hits = 0;
  cudaMemcpy(&hits, d_hits, sizeof(hits), cudaMemcpyDeviceToHost);
  printf("pi ~ %f\n", 4.0 * hits / (double(threads) * blocks * samples));
  cudaFree(states); cudaFree(d_hits); cudaFree(d_buf);
  return 0;
}
