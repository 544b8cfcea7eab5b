#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>
#include <cstdio>
const char* src = "extern \"C\" __global__ void k() {}";
int build(char** code, size_t* size) {
  hiprtcProgram prog;
  hiprtcCreateProgram(&prog, src, "k.cu", 0, nullptr, nullptr);
  hiprtcResult res = hiprtcCompileProgram(prog, 0, nullptr);
  if (res != HIPRTC_SUCCESS) printf("%s\n", hiprtcGetErrorString(res));
  hiprtcGetCodeSize(prog, size);
  hiprtcGetCode(prog, *code);
  hiprtcDestroyProgram(&prog);
  return 0;
}
