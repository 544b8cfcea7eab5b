// Byte-wise signed maximum of two packed arrays plus the lowest set bit of a 64-bit key
// (written for the hipify_ported bench test).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void bytemax(const unsigned *a, const unsigned *b, unsigned *c, long key, int *bit, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = __vmaxs4(a[i], b[i]);
  if (i == 0) *bit = __ffsll(key);
}

int main() {
  const int n = 1024;
  unsigned *a, *b, *c;
  int *bit;
  cudaMallocManaged(&a, n * sizeof(unsigned));
  cudaMallocManaged(&b, n * sizeof(unsigned));
  cudaMallocManaged(&c, n * sizeof(unsigned));
  cudaMallocManaged(&bit, sizeof(int));
  for (int i = 0; i < n; ++i) { a[i] = 0x7f80017fu; b[i] = 0x01ff0280u; }
  bytemax<<<n / 128, 128>>>(a, b, c, 1LL << 40, bit, n);
  cudaDeviceSynchronize();
  printf("%08x %d\n", c[0], *bit);
  cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(bit);
  return 0;
}
