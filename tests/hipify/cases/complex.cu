#include <cuComplex.h>
__device__ cuFloatComplex mac(cuFloatComplex a, cuFloatComplex b, cuFloatComplex c) {
  return cuCaddf(cuCmulf(a, b), c);
}
float magnitude(cuDoubleComplex z) { return (float)cuCabs(z); }
cuFloatComplex one() { return make_cuFloatComplex(1.0f, 0.0f); }
