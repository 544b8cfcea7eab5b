#include <hip/hip_runtime.h>
#include <hiprand/hiprand_kernel.h>
__global__ void draw(hiprandState* s, float* out, unsigned long long seed) {
  int id = threadIdx.x;
  hiprand_init(seed, id, 0, &s[id]);
  out[id] = hiprand_uniform(&s[id]) + hiprand_normal(&s[id]);
}
