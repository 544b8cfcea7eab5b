// One 32x32 fp32 tile product with the matrix cores (MFMA) of CDNA (gfx908 ... gfx950); other targets take the plain loop.
#include <hip/hip_runtime.h>

typedef float float16v __attribute__((ext_vector_type(16)));

__global__ void __launch_bounds__(64) mfma_32x32(const float* a, const float* b, float* c) {
#if defined(__gfx908__) || defined(__gfx90a__) || defined(__gfx940__) || defined(__gfx942__) || defined(__gfx950__)
    float16v acc = {0};
    for (int k = 0; k < 32; k += 2) {
        acc = __builtin_amdgcn_mfma_f32_32x32x2f32(a[k * 64 + threadIdx.x], b[k * 64 + threadIdx.x], acc, 0, 0, 0);
    }
    for (int r = 0; r < 16; ++r) c[r * 64 + threadIdx.x] = acc[r];
#else
    for (int r = 0; r < 16; ++r) {
        float s = 0.0f;
        for (int k = 0; k < 32; ++k) s += a[k * 64 + threadIdx.x] * b[k * 64 + r];
        c[r * 64 + threadIdx.x] = s;
    }
#endif
}
