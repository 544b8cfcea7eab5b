#include <curand.h>
void fill(float* d, size_t n) {
  curandGenerator_t g;
  curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT);
  curandSetPseudoRandomGeneratorSeed(g, 42);
  curandGenerateUniform(g, d, n);
  curandDestroyGenerator(g);
}
