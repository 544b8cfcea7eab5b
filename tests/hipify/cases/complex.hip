#include <hip/hip_runtime.h>
#include <hip/hip_complex.h>
__device__ hipFloatComplex mac(hipFloatComplex a, hipFloatComplex b, hipFloatComplex c) {
  return hipCaddf(hipCmulf(a, b), c);
}
float magnitude(hipDoubleComplex z) { return (float)hipCabs(z); }
hipFloatComplex one() { return make_hipFloatComplex(1.0f, 0.0f); }
