// RUN: %run_test hipify "%s" "%t" %hipify_args %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// Headers: the CUDA runtime, half precision, complex, vector types and the math libraries.

// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>
// CHECK: #include <hip/hip_fp16.h>
#include <cuda_fp16.h>
// CHECK: #include <hip/hip_complex.h>
#include <cuComplex.h>
// CHECK: #include <hip/hip_vector_types.h>
#include <vector_types.h>
// CHECK: #include "hipblas.h"
#include "cublas_v2.h"
// CHECK: #include <hiprand/hiprand.h>
#include <curand.h>
// CHECK: #include <hiprand/hiprand_kernel.h>
#include <curand_kernel.h>
// CHECK: #include "hipsparse.h"
#include "cusparse.h"
// CHECK: #include <hipfft/hipfft.h>
#include <cufft.h>
#include <cstdio>

// CHECK: __global__ void toHalf(const float *in, __half *out, hipFloatComplex *z, int n) {
__global__ void toHalf(const float *in, __half *out, cuFloatComplex *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = __float2half(in[i]);
    // CHECK: z[i] = make_hipFloatComplex(in[i], 0.0f);
    z[i] = make_cuFloatComplex(in[i], 0.0f);
  }
}

int main() {
  // CHECK: hipDoubleComplex a = make_hipDoubleComplex(1.0, 2.0);
  cuDoubleComplex a = make_cuDoubleComplex(1.0, 2.0);
  // CHECK: double m = hipCabs(a);
  double m = cuCabs(a);
  std::printf("%f\n", m);
  return 0;
}
