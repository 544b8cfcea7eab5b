#include <curand_kernel.h>
__global__ void draw(curandState* s, float* out, unsigned long long seed) {
  int id = threadIdx.x;
  curand_init(seed, id, 0, &s[id]);
  out[id] = curand_uniform(&s[id]) + curand_normal(&s[id]);
}
