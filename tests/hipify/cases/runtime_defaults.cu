// CUDA's default arguments and T** overloads that ROCm 5.2's HIP headers lack: written out / cast so hipcc accepts the call
#include <cuda_runtime.h>
__global__ void bump(float *x) { x[threadIdx.x] += 1.0f; }
int main() {
  cudaStream_t first, second; cudaEvent_t ready; float *x, *h, *dp; size_t pitch;
  cudaStreamCreate(&first); cudaStreamCreate(&second); cudaEventCreate(&ready);
  cudaMalloc(&x, 64 * sizeof(float));
  cudaHostAlloc(&h, 64 * sizeof(float), cudaHostAllocMapped);
  cudaHostGetDevicePointer(&dp, h, 0);
  cudaHostAlloc((void **)&h, 64 * sizeof(float), cudaHostAllocDefault);  // already cast: left as written
  cudaMallocPitch(&dp, &pitch, 64, 64);
  bump<<<1, 64, 0, first>>>(x);
  cudaEventRecord(ready, first);
  cudaStreamWaitEvent(second, ready);
  cudaGraph_t g; cudaGraphExec_t e;
  cudaStreamBeginCapture(second, cudaStreamCaptureModeGlobal);
  bump<<<1, 64, 0, second>>>(x);
  cudaStreamEndCapture(second, &g);
  cudaGraphInstantiate(&e, g);
  cudaGraphInstantiate(&e, g, 0);
  cudaStreamCaptureStatus st;
  cudaStreamGetCaptureInfo(second, &st);
  return cudaStreamSynchronize(second);
}
