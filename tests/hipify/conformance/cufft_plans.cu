// RUN: %run_test hipify "%s" "%t" %hipify_args %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// cuFFT to hipFFT: 1D complex and 2D real-to-complex plans on a stream.

// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>
// CHECK: #include <hipfft/hipfft.h>
#include <cufft.h>

int main() {
  const int nx = 256, ny = 128;
  // CHECK: hipfftComplex *signal = nullptr;
  cufftComplex *signal = nullptr;
  // CHECK: hipfftReal *image = nullptr;
  cufftReal *image = nullptr;
  // CHECK: hipfftComplex *spectrum = nullptr;
  cufftComplex *spectrum = nullptr;
  // CHECK: hipMalloc(&signal, nx * sizeof(hipfftComplex));
  cudaMalloc(&signal, nx * sizeof(cufftComplex));
  cudaMalloc(&image, nx * ny * sizeof(cufftReal));
  cudaMalloc(&spectrum, nx * (ny / 2 + 1) * sizeof(cufftComplex));
  // CHECK: hipfftHandle line, plane;
  cufftHandle line, plane;
  // CHECK: hipfftResult r = hipfftPlan1d(&line, nx, HIPFFT_C2C, 1);
  cufftResult r = cufftPlan1d(&line, nx, CUFFT_C2C, 1);
  // CHECK: if (r != HIPFFT_SUCCESS) return 1;
  if (r != CUFFT_SUCCESS) return 1;
  // CHECK: hipfftPlan2d(&plane, nx, ny, HIPFFT_R2C);
  cufftPlan2d(&plane, nx, ny, CUFFT_R2C);
  cudaStream_t s;
  cudaStreamCreate(&s);
  // CHECK: hipfftSetStream(line, s);
  cufftSetStream(line, s);
  // CHECK: hipfftExecC2C(line, signal, signal, HIPFFT_FORWARD);
  cufftExecC2C(line, signal, signal, CUFFT_FORWARD);
  // CHECK: hipfftExecC2C(line, signal, signal, HIPFFT_BACKWARD);
  cufftExecC2C(line, signal, signal, CUFFT_INVERSE);
  // CHECK: hipfftExecR2C(plane, image, spectrum);
  cufftExecR2C(plane, image, spectrum);
  // CHECK: hipfftDestroy(plane);
  cufftDestroy(plane);
  // CHECK: hipfftDestroy(line);
  cufftDestroy(line);
  cudaStreamDestroy(s);
  cudaFree(spectrum);
  cudaFree(image);
  cudaFree(signal);
  return 0;
}
