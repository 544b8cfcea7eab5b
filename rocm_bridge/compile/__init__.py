"""Compile lab engine: HIP source through AMD's compiler (hipcc / clang), headless.

- engine.compile_code(code, target, wave, mode) -> CompileResult (diagnostics, kernels, asm)
- diagnostics: clang's messages parsed and explained; resources: per-kernel VGPRs / AGPRs / SGPRs / LDS /
  scratch / wave size from the remarks and the code object metadata; occupancy: waves per SIMD from
  data/amdgpu_targets.csv; isa: the device assembly per kernel with instruction classes
- policy + sandbox: the include policy and the bubblewrap sandbox around the compiler
- recorded: results recorded with the compiler for every page example (data/compile_recorded/)
"""
