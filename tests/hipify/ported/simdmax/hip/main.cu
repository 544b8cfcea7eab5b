// Byte-wise signed maximum of two packed arrays plus the lowest set bit of a 64-bit key
// (hand port of ../cuda/main.cu: HIP has no __vmaxs4, and __ffsll of a long is ambiguous in HIP).
#include <cstdio>
#include <hip/hip_runtime.h>

__device__ unsigned vmaxs4(unsigned x, unsigned y) {
  unsigned r = 0;
  for (int k = 0; k < 32; k += 8) {
    signed char p = (signed char)(x >> k), q = (signed char)(y >> k);
    r |= (unsigned)(unsigned char)(p > q ? p : q) << k;
  }
  return r;
}

__global__ void bytemax(const unsigned *a, const unsigned *b, unsigned *c, long key, int *bit, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = vmaxs4(a[i], b[i]);
  if (i == 0) *bit = __ffsll((long long)key);
}

int main() {
  const int n = 1024;
  unsigned *a, *b, *c;
  int *bit;
  hipMallocManaged(&a, n * sizeof(unsigned));
  hipMallocManaged(&b, n * sizeof(unsigned));
  hipMallocManaged(&c, n * sizeof(unsigned));
  hipMallocManaged(&bit, sizeof(int));
  for (int i = 0; i < n; ++i) { a[i] = 0x7f80017fu; b[i] = 0x01ff0280u; }
  bytemax<<<n / 128, 128>>>(a, b, c, 1LL << 40, bit, n);
  hipDeviceSynchronize();
  printf("%08x %d\n", c[0], *bit);
  hipFree(a); hipFree(b); hipFree(c); hipFree(bit);
  return 0;
}
