// RUN: %run_test hipify "%s" "%t" %hipify_args 2 --roc --miopen %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// cuDNN to MIOpen under --miopen: handle, stream, tensor and activation descriptors, status.

// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>
// CHECK: #include <miopen/miopen.h>
#include <cudnn.h>
#include <cstdio>

// CHECK: static int check(miopenStatus_t s) {
static int check(cudnnStatus_t s) {
  // CHECK: if (s != miopenStatusSuccess) {
  if (s != CUDNN_STATUS_SUCCESS) {
    // CHECK: std::fprintf(stderr, "%s\n", miopenGetErrorString(s));
    std::fprintf(stderr, "%s\n", cudnnGetErrorString(s));
    return 1;
  }
  return 0;
}

int main() {
  // CHECK: miopenHandle_t dnn;
  cudnnHandle_t dnn;
  // CHECK: if (check(miopenCreate(&dnn))) return 1;
  if (check(cudnnCreate(&dnn))) return 1;
  // CHECK: miopenAcceleratorQueue_t s;
  cudaStream_t s;
  cudaStreamCreate(&s);
  // CHECK: miopenSetStream(dnn, s);
  cudnnSetStream(dnn, s);
  // CHECK: miopenDataType_t dtype = miopenFloat;
  cudnnDataType_t dtype = CUDNN_DATA_FLOAT;
  // CHECK: miopenTensorDescriptor_t input, output;
  cudnnTensorDescriptor_t input, output;
  // CHECK: miopenCreateTensorDescriptor(&input);
  cudnnCreateTensorDescriptor(&input);
  // CHECK: miopenCreateTensorDescriptor(&output);
  cudnnCreateTensorDescriptor(&output);
  // CHECK: miopenActivationDescriptor_t relu;
  cudnnActivationDescriptor_t relu;
  // CHECK: miopenCreateActivationDescriptor(&relu);
  cudnnCreateActivationDescriptor(&relu);
  (void)dtype;
  // CHECK: miopenDestroyActivationDescriptor(relu);
  cudnnDestroyActivationDescriptor(relu);
  // CHECK: miopenDestroyTensorDescriptor(output);
  cudnnDestroyTensorDescriptor(output);
  // CHECK: miopenDestroyTensorDescriptor(input);
  cudnnDestroyTensorDescriptor(input);
  // CHECK: miopenDestroy(dnn);
  cudnnDestroy(dnn);
  cudaStreamDestroy(s);
  return 0;
}
