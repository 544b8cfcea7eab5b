#include <hip/hip_runtime.h>
#include <rocrand/rocrand.h>
void fill(float* d, size_t n) {
  rocrand_generator g;
  rocrand_create_generator(&g, ROCRAND_RNG_PSEUDO_DEFAULT);
  rocrand_set_seed(g, 42);
  rocrand_generate_uniform(g, d, n);
  rocrand_destroy_generator(g);
}
