// RUN: %run_test hipify "%s" "%t" %hipify_args %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// Driver API: initialisation, device and context, module loading, a kernel launch, memory.

// CHECK: #include <hip/hip_runtime.h>
#include <cuda.h>
#include <cstdio>

// CHECK: static void die(hipError_t r, const char *where) {
static void die(CUresult r, const char *where) {
  const char *name = nullptr;
  // CHECK: hipDrvGetErrorName(r, &name);
  cuGetErrorName(r, &name);
  std::fprintf(stderr, "%s failed: %s\n", where, name);
}

int main() {
  // CHECK: hipError_t r = hipInit(0);
  CUresult r = cuInit(0);
  // CHECK: if (r != hipSuccess) { die(r, "init"); return 1; }
  if (r != CUDA_SUCCESS) { die(r, "init"); return 1; }
  int version = 0, count = 0;
  // CHECK: hipDriverGetVersion(&version);
  cuDriverGetVersion(&version);
  // CHECK: hipGetDeviceCount(&count);
  cuDeviceGetCount(&count);
  // CHECK: hipDevice_t dev;
  CUdevice dev;
  // CHECK: hipDeviceGet(&dev, 0);
  cuDeviceGet(&dev, 0);
  char name[128];
  // CHECK: hipDeviceGetName(name, sizeof(name), dev);
  cuDeviceGetName(name, sizeof(name), dev);
  // CHECK: hipCtx_t ctx;
  CUcontext ctx;
  // CHECK: hipCtxCreate(&ctx, 0, dev);
  cuCtxCreate(&ctx, 0, dev);
  // CHECK: hipModule_t mod;
  CUmodule mod;
  // CHECK: if (hipModuleLoad(&mod, "scale.ptx") != hipSuccess) return 2;
  if (cuModuleLoad(&mod, "scale.ptx") != CUDA_SUCCESS) return 2;
  // CHECK: hipFunction_t fn;
  CUfunction fn;
  // CHECK: hipModuleGetFunction(&fn, mod, "scale");
  cuModuleGetFunction(&fn, mod, "scale");
  const size_t n = 1024;
  float host[n] = {};
  // CHECK: hipDeviceptr_t buf;
  CUdeviceptr buf;
  // CHECK: hipMalloc(&buf, n * sizeof(float));
  cuMemAlloc(&buf, n * sizeof(float));
  // CHECK: hipMemcpyHtoD(buf, host, n * sizeof(float));
  cuMemcpyHtoD(buf, host, n * sizeof(float));
  unsigned int count32 = n;
  void *params[] = {&buf, &count32};
  // CHECK: hipModuleLaunchKernel(fn, n / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr);
  cuLaunchKernel(fn, n / 256, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr);
  // CHECK: hipCtxSynchronize();
  cuCtxSynchronize();
  // CHECK: hipMemcpyDtoH(host, buf, n * sizeof(float));
  cuMemcpyDtoH(host, buf, n * sizeof(float));
  // CHECK: hipFree(buf);
  cuMemFree(buf);
  // CHECK: hipModuleUnload(mod);
  cuModuleUnload(mod);
  // CHECK: hipCtxDestroy(ctx);
  cuCtxDestroy(ctx);
  std::printf("%s driver %d, %d devices, %f\n", name, version, count, host[0]);
  return 0;
}
