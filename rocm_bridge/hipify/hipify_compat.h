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
