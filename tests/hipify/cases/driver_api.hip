#include <hip/hip_runtime.h>
int load(const char* path) {
  hipDevice_t dev;
  hipCtx_t ctx;
  hipModule_t mod;
  hipFunction_t fn;
  hipDeviceptr_t buf;
  if (hipInit(0) != hipSuccess) return 1;
  hipDeviceGet(&dev, 0);
  hipCtxCreate(&ctx, 0, dev);
  hipModuleLoad(&mod, path);
  hipModuleGetFunction(&fn, mod, "kernel");
  hipError_t r = hipMalloc(&buf, 256);
  void* args[] = {&buf};
  hipModuleLaunchKernel(fn, 1, 1, 1, 64, 1, 1, 0, 0, args, 0);
  return r;
}
