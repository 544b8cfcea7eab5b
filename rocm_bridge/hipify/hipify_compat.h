// Helpers the translator (rocm_bridge.hipify) writes into a translated file when the file uses them: CUDA device
// functions that the target ROCm release lacks and that take a few lines of HIP (data/hipify_target_rules.csv,
// kind "helper"). Each section starts with a line "// @@ <name>" and is written once, guarded by #ifndef, after
// the file's last top-level #include. The whole file also compiles on its own, for the tests
// (tests/test_hipify_target.py compiles it with hipcc, and host-side with g++ where HIPIFY_COMPAT_HOST is defined).
#pragma once

// @@ hipify_syncwarp
#ifndef HIPIFY_SYNCWARP
#define HIPIFY_SYNCWARP
// CUDA's __syncwarp(mask): the lanes named in mask meet here and their memory accesses are ordered. A wavefront
// executes in lockstep, so HIP 7.0's __syncwarp is a release fence at wavefront scope, a wave barrier (which
// stops the compiler moving code across it) and an acquire fence; the mask adds nothing on a 64-lane wavefront.
template <typename... Mask>
__device__ inline void hipify_syncwarp(Mask...) {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
#endif

// @@ hipify_check_lanes
#ifndef HIPIFY_CHECK_LANES
#define HIPIFY_CHECK_LANES
// CUDA's _sync warp functions require every lane named in mask to execute the call. HIP before 6.2 has only the
// mask-less forms, which act over the lanes that are active: the same result when the mask names only active
// lanes. This stops the kernel (a trap) when a lane of the mask is not active, instead of reading an undefined
// value.
__device__ inline void hipify_check_lanes(unsigned long long mask) {
  if ((mask & ~static_cast<unsigned long long>(__ballot(1))) != 0) __builtin_trap();
}
#endif

// @@ hipify_shfl_half
#ifndef HIPIFY_SHFL_HALF
#define HIPIFY_SHFL_HALF
// CUDA's cuda_fp16.hpp overloads the warp shuffles for __half and __half2. HIP's plain __shfl, __shfl_up,
// __shfl_down and __shfl_xor take them from ROCm 5.6 (ROCm/clr 32a9249d3); before, a __half argument is ambiguous
// and a __half2 one matches nothing. These overloads move the value's 16 or 32 bits through the int shuffle, as
// 5.6's do, and stand down where the headers already have them.
#include <hip/hip_fp16.h>
#if !defined(HIP_VERSION_MAJOR) || HIP_VERSION_MAJOR < 5 || (HIP_VERSION_MAJOR == 5 && HIP_VERSION_MINOR < 6)
#define HIPIFY_SHFL_HALF_BODY(T, CALL)                                                                                \
  union {                                                                                                          \
    int i;                                                                                                         \
    T h;                                                                                                           \
  } u;                                                                                                             \
  u.h = var;                                                                                                       \
  u.i = CALL;                                                                                                      \
  return u.h;
__device__ inline __half __shfl(__half var, int src_lane, int width = warpSize) {
  HIPIFY_SHFL_HALF_BODY(__half, __shfl(u.i, src_lane, width))
}
__device__ inline __half2 __shfl(__half2 var, int src_lane, int width = warpSize) {
  HIPIFY_SHFL_HALF_BODY(__half2, __shfl(u.i, src_lane, width))
}
__device__ inline __half __shfl_up(__half var, unsigned int delta, int width = warpSize) {
  HIPIFY_SHFL_HALF_BODY(__half, __shfl_up(u.i, delta, width))
}
__device__ inline __half2 __shfl_up(__half2 var, unsigned int delta, int width = warpSize) {
  HIPIFY_SHFL_HALF_BODY(__half2, __shfl_up(u.i, delta, width))
}
__device__ inline __half __shfl_down(__half var, unsigned int delta, int width = warpSize) {
  HIPIFY_SHFL_HALF_BODY(__half, __shfl_down(u.i, delta, width))
}
__device__ inline __half2 __shfl_down(__half2 var, unsigned int delta, int width = warpSize) {
  HIPIFY_SHFL_HALF_BODY(__half2, __shfl_down(u.i, delta, width))
}
__device__ inline __half __shfl_xor(__half var, int lane_mask, int width = warpSize) {
  HIPIFY_SHFL_HALF_BODY(__half, __shfl_xor(u.i, lane_mask, width))
}
__device__ inline __half2 __shfl_xor(__half2 var, int lane_mask, int width = warpSize) {
  HIPIFY_SHFL_HALF_BODY(__half2, __shfl_xor(u.i, lane_mask, width))
}
#undef HIPIFY_SHFL_HALF_BODY
#endif
#endif

// The SIMD-in-a-word intrinsics (CUDA Math API, 'SIMD Intrinsics'): HIP has none of them (HIPIFY lists them
// as unsupported). Each works lane by lane on the 8- or 16-bit parts of 32-bit words, as CUDA documents.

// @@ hipify_vadd2
#ifndef HIPIFY_VADD2
#define HIPIFY_VADD2
// CUDA __vadd2: per-halfword sum, wrapping.
__host__ __device__ inline unsigned int hipify_vadd2(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 16) {
    int x = (unsigned short)(a >> i), y = (unsigned short)(b >> i);
    r |= ((unsigned int)(x + y) & 0xffffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vsub2
#ifndef HIPIFY_VSUB2
#define HIPIFY_VSUB2
// CUDA __vsub2: per-halfword difference, wrapping.
__host__ __device__ inline unsigned int hipify_vsub2(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 16) {
    int x = (unsigned short)(a >> i), y = (unsigned short)(b >> i);
    r |= ((unsigned int)(x - y) & 0xffffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vmaxs2
#ifndef HIPIFY_VMAXS2
#define HIPIFY_VMAXS2
// CUDA __vmaxs2: per-halfword signed maximum.
__host__ __device__ inline unsigned int hipify_vmaxs2(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 16) {
    int x = (short)(a >> i), y = (short)(b >> i);
    r |= ((unsigned int)(x > y ? x : y) & 0xffffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vmins2
#ifndef HIPIFY_VMINS2
#define HIPIFY_VMINS2
// CUDA __vmins2: per-halfword signed minimum.
__host__ __device__ inline unsigned int hipify_vmins2(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 16) {
    int x = (short)(a >> i), y = (short)(b >> i);
    r |= ((unsigned int)(x < y ? x : y) & 0xffffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vmaxu2
#ifndef HIPIFY_VMAXU2
#define HIPIFY_VMAXU2
// CUDA __vmaxu2: per-halfword unsigned maximum.
__host__ __device__ inline unsigned int hipify_vmaxu2(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 16) {
    int x = (unsigned short)(a >> i), y = (unsigned short)(b >> i);
    r |= ((unsigned int)(x > y ? x : y) & 0xffffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vminu2
#ifndef HIPIFY_VMINU2
#define HIPIFY_VMINU2
// CUDA __vminu2: per-halfword unsigned minimum.
__host__ __device__ inline unsigned int hipify_vminu2(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 16) {
    int x = (unsigned short)(a >> i), y = (unsigned short)(b >> i);
    r |= ((unsigned int)(x < y ? x : y) & 0xffffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vabsdiffu2
#ifndef HIPIFY_VABSDIFFU2
#define HIPIFY_VABSDIFFU2
// CUDA __vabsdiffu2: per-halfword unsigned absolute difference.
__host__ __device__ inline unsigned int hipify_vabsdiffu2(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 16) {
    int x = (unsigned short)(a >> i), y = (unsigned short)(b >> i);
    r |= ((unsigned int)(x > y ? x - y : y - x) & 0xffffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vadd4
#ifndef HIPIFY_VADD4
#define HIPIFY_VADD4
// CUDA __vadd4: per-byte sum, wrapping.
__host__ __device__ inline unsigned int hipify_vadd4(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 8) {
    int x = (unsigned char)(a >> i), y = (unsigned char)(b >> i);
    r |= ((unsigned int)(x + y) & 0xffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vsub4
#ifndef HIPIFY_VSUB4
#define HIPIFY_VSUB4
// CUDA __vsub4: per-byte difference, wrapping.
__host__ __device__ inline unsigned int hipify_vsub4(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 8) {
    int x = (unsigned char)(a >> i), y = (unsigned char)(b >> i);
    r |= ((unsigned int)(x - y) & 0xffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vmaxs4
#ifndef HIPIFY_VMAXS4
#define HIPIFY_VMAXS4
// CUDA __vmaxs4: per-byte signed maximum.
__host__ __device__ inline unsigned int hipify_vmaxs4(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 8) {
    int x = (signed char)(a >> i), y = (signed char)(b >> i);
    r |= ((unsigned int)(x > y ? x : y) & 0xffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vmins4
#ifndef HIPIFY_VMINS4
#define HIPIFY_VMINS4
// CUDA __vmins4: per-byte signed minimum.
__host__ __device__ inline unsigned int hipify_vmins4(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 8) {
    int x = (signed char)(a >> i), y = (signed char)(b >> i);
    r |= ((unsigned int)(x < y ? x : y) & 0xffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vmaxu4
#ifndef HIPIFY_VMAXU4
#define HIPIFY_VMAXU4
// CUDA __vmaxu4: per-byte unsigned maximum.
__host__ __device__ inline unsigned int hipify_vmaxu4(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 8) {
    int x = (unsigned char)(a >> i), y = (unsigned char)(b >> i);
    r |= ((unsigned int)(x > y ? x : y) & 0xffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vminu4
#ifndef HIPIFY_VMINU4
#define HIPIFY_VMINU4
// CUDA __vminu4: per-byte unsigned minimum.
__host__ __device__ inline unsigned int hipify_vminu4(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 8) {
    int x = (unsigned char)(a >> i), y = (unsigned char)(b >> i);
    r |= ((unsigned int)(x < y ? x : y) & 0xffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vabsdiffu4
#ifndef HIPIFY_VABSDIFFU4
#define HIPIFY_VABSDIFFU4
// CUDA __vabsdiffu4: per-byte unsigned absolute difference.
__host__ __device__ inline unsigned int hipify_vabsdiffu4(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 8) {
    int x = (unsigned char)(a >> i), y = (unsigned char)(b >> i);
    r |= ((unsigned int)(x > y ? x - y : y - x) & 0xffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vabsdiffs4
#ifndef HIPIFY_VABSDIFFS4
#define HIPIFY_VABSDIFFS4
// CUDA __vabsdiffs4: per-byte signed absolute difference (the result's bytes read as unsigned).
__host__ __device__ inline unsigned int hipify_vabsdiffs4(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 8) {
    int x = (signed char)(a >> i), y = (signed char)(b >> i);
    r |= ((unsigned int)(x > y ? x - y : y - x) & 0xffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vavgu4
#ifndef HIPIFY_VAVGU4
#define HIPIFY_VAVGU4
// CUDA __vavgu4: per-byte unsigned average, rounded up.
__host__ __device__ inline unsigned int hipify_vavgu4(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 8) {
    int x = (unsigned char)(a >> i), y = (unsigned char)(b >> i);
    r |= ((unsigned int)((x + y + 1) >> 1) & 0xffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vcmpeq4
#ifndef HIPIFY_VCMPEQ4
#define HIPIFY_VCMPEQ4
// CUDA __vcmpeq4: per-byte 0xff where equal, else 0.
__host__ __device__ inline unsigned int hipify_vcmpeq4(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 8) {
    int x = (unsigned char)(a >> i), y = (unsigned char)(b >> i);
    r |= ((unsigned int)(x == y ? 0xff : 0) & 0xffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vcmpgtu4
#ifndef HIPIFY_VCMPGTU4
#define HIPIFY_VCMPGTU4
// CUDA __vcmpgtu4: per-byte 0xff where a > b (unsigned), else 0.
__host__ __device__ inline unsigned int hipify_vcmpgtu4(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 8) {
    int x = (unsigned char)(a >> i), y = (unsigned char)(b >> i);
    r |= ((unsigned int)(x > y ? 0xff : 0) & 0xffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vcmpges4
#ifndef HIPIFY_VCMPGES4
#define HIPIFY_VCMPGES4
// CUDA __vcmpges4: per-byte 0xff where a >= b (signed), else 0.
__host__ __device__ inline unsigned int hipify_vcmpges4(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 8) {
    int x = (signed char)(a >> i), y = (signed char)(b >> i);
    r |= ((unsigned int)(x >= y ? 0xff : 0) & 0xffu) << i;
  }
  return r;
}
#endif

// @@ hipify_vsadu4
#ifndef HIPIFY_VSADU4
#define HIPIFY_VSADU4
// CUDA __vsadu4: the sum of the per-byte unsigned absolute differences.
__host__ __device__ inline unsigned int hipify_vsadu4(unsigned int a, unsigned int b) {
  unsigned int r = 0;
  for (int i = 0; i < 32; i += 8) {
    int x = (unsigned char)(a >> i), y = (unsigned char)(b >> i);
    r += (unsigned int)(x > y ? x - y : y - x);
  }
  return r;
}
#endif
