#include <nvrtc.h>
#include <cstdio>
const char* src = "extern \"C\" __global__ void k() {}";
int build(char** code, size_t* size) {
  nvrtcProgram prog;
  nvrtcCreateProgram(&prog, src, "k.cu", 0, nullptr, nullptr);
  nvrtcResult res = nvrtcCompileProgram(prog, 0, nullptr);
  if (res != NVRTC_SUCCESS) printf("%s\n", nvrtcGetErrorString(res));
  nvrtcGetPTXSize(prog, size);
  nvrtcGetPTX(prog, *code);
  nvrtcDestroyProgram(&prog);
  return 0;
}
