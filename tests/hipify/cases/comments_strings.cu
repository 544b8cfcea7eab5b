/* Licence header: this file calls cudaMalloc and cudaFree.
   #include <cuda_runtime.h> in a comment is not an include. */
#include <cstdio>
#include <cuda_runtime.h>
// cudaMemcpy in a line comment stays, even with a continuation \
   cudaFree on the next line stays too
static int cudaCheck(int v) { return v; }  // user helper: not an API
int main() {
  void* p;
  const char* a = "cudaMalloc failed: \"cudaFree\"";
  const char* b = R"raw(cudaMemcpy "inside" a raw string)raw";
  char c = 'c';
  long big = 1'000'000;
  int cublasResult = 0;  /* cublas-prefixed user variable */
  cudaMalloc(&p, 4);
  printf("%s %s %c %ld %d %d\n", a, b, c, big, cublasResult, cudaCheck(1));
  cudaFree(p);
}
