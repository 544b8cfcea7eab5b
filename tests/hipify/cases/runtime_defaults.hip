// CUDA's default arguments and T** overloads that ROCm 5.2's HIP headers lack: written out / cast so hipcc accepts the call
#include <hip/hip_runtime.h>
__global__ void bump(float *x) { x[threadIdx.x] += 1.0f; }
int main() {
  hipStream_t first, second; hipEvent_t ready; float *x, *h, *dp; size_t pitch;
  hipStreamCreate(&first); hipStreamCreate(&second); hipEventCreate(&ready);
  hipMalloc(&x, 64 * sizeof(float));
  hipHostAlloc(reinterpret_cast<void**>(&h), 64 * sizeof(float), hipHostMallocMapped);
  hipHostGetDevicePointer(reinterpret_cast<void**>(&dp), h, 0);
  hipHostAlloc((void **)&h, 64 * sizeof(float), hipHostMallocDefault);  // already cast: left as written
  hipMallocPitch(reinterpret_cast<void**>(&dp), &pitch, 64, 64);
  bump<<<1, 64, 0, first>>>(x);
  hipEventRecord(ready, first);
  hipStreamWaitEvent(second, ready, 0);
  hipGraph_t g; hipGraphExec_t e;
  hipStreamBeginCapture(second, hipStreamCaptureModeGlobal);
  bump<<<1, 64, 0, second>>>(x);
  hipStreamEndCapture(second, &g);
  hipGraphInstantiate(&e, g, nullptr, nullptr, 0);
  hipGraphInstantiateWithFlags(&e, g, 0);
  hipStreamCaptureStatus st;
  hipStreamGetCaptureInfo(second, &st, nullptr);
  return hipStreamSynchronize(second);
}
