// 1-D complex-to-complex FFT with cuFFT, forward then inverse.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cufft.h>

int main() {
  const int n = 1024;
  std::vector<cufftComplex> h(n);
  for (int i = 0; i < n; ++i) { h[i].x = float(i % 8); h[i].y = 0.0f; }

  cufftComplex* d;
  cudaMalloc(&d, n * sizeof(cufftComplex));
  cudaMemcpy(d, h.data(), n * sizeof(cufftComplex), cudaMemcpyHostToDevice);

  cufftHandle plan;
  if (cufftPlan1d(&plan, n, CUFFT_C2C, 1) != CUFFT_SUCCESS) {
    fprintf(stderr, "cufftPlan1d failed\n");
    return 1;
  }
  cufftExecC2C(plan, d, d, CUFFT_FORWARD);
  cufftExecC2C(plan, d, d, CUFFT_INVERSE);
  cudaDeviceSynchronize();

  cudaMemcpy(h.data(), d, n * sizeof(cufftComplex), cudaMemcpyDeviceToHost);
  printf("x[3] = %f (expect %f: cuFFT does not normalise)\n", h[3].x, 3.0f * n);
  cufftDestroy(plan);
  cudaFree(d);
  return 0;
}
