// Vector addition: the "hello world" of CUDA.
// Build: nvcc -O2 vector_add.cu -o vector_add
#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    hipError_t err_ = (call);                                                \
    if (err_ != hipSuccess) {                                                \
      fprintf(stderr, "CUDA error %s at %s:%d\n", hipGetErrorString(err_),   \
              __FILE__, __LINE__);                                            \
      exit(EXIT_FAILURE);                                                     \
    }                                                                         \
  } while (0)

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 1 << 20;
  const size_t bytes = n * sizeof(float);
  float *h_a = (float*)malloc(bytes), *h_b = (float*)malloc(bytes), *h_c = (float*)malloc(bytes);
  for (int i = 0; i < n; ++i) { h_a[i] = 1.0f; h_b[i] = 2.0f; }

  float *d_a, *d_b, *d_c;
  CUDA_CHECK(hipMalloc(&d_a, bytes));
  CUDA_CHECK(hipMalloc(&d_b, bytes));
  CUDA_CHECK(hipMalloc(&d_c, bytes));
  CUDA_CHECK(hipMemcpy(d_a, h_a, bytes, hipMemcpyHostToDevice));
  CUDA_CHECK(hipMemcpy(d_b, h_b, bytes, hipMemcpyHostToDevice));

  const int block = 256;
  const int grid = (n + block - 1) / block;
  vector_add<<<grid, block>>>(d_a, d_b, d_c, n);
  CUDA_CHECK(hipGetLastError());
  CUDA_CHECK(hipMemcpy(h_c, d_c, bytes, hipMemcpyDeviceToHost));

  printf("c[0] = %f (expect 3.0)\n", h_c[0]);
  hipFree(d_a); hipFree(d_b); hipFree(d_c);
  free(h_a); free(h_b); free(h_c);
  return 0;
}
