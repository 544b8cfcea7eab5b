// One forward convolution with cuDNN (NCHW, float).
#include <cstdio>
#include <hip/hip_runtime.h>
#include <miopen/miopen.h>

#define CUDNN_CHECK(call)                                                    \
  do {                                                                       \
    miopenStatus_t s_ = (call);                                               \
    if (s_ != miopenStatusSuccess) {                                        \
      fprintf(stderr, "cuDNN error: %s\n", miopenGetErrorString(s_));         \
      return 1;                                                              \
    }                                                                        \
  } while (0)

int main() {
  const int N = 1, C = 3, H = 32, W = 32, K = 8, R = 3, S = 3;
  miopenHandle_t handle;
  CUDNN_CHECK(miopenCreate(&handle));

  miopenTensorDescriptor_t x_desc, y_desc;
  miopenTensorDescriptor_t w_desc;
  miopenConvolutionDescriptor_t conv_desc;
  CUDNN_CHECK(miopenCreateTensorDescriptor(&x_desc));
  CUDNN_CHECK(miopenCreateTensorDescriptor(&y_desc));
  CUDNN_CHECK(cudnnCreateFilterDescriptor(&w_desc));
  CUDNN_CHECK(miopenCreateConvolutionDescriptor(&conv_desc));
  CUDNN_CHECK(cudnnSetTensor4dDescriptor(x_desc, miopenTensorNCHW, miopenFloat, N, C, H, W));
  CUDNN_CHECK(cudnnSetFilter4dDescriptor(w_desc, miopenFloat, miopenTensorNCHW, K, C, R, S));
  CUDNN_CHECK(cudnnSetConvolution2dDescriptor(conv_desc, 1, 1, 1, 1, 1, 1,
                                              miopenConvolution, miopenFloat));
  CUDNN_CHECK(cudnnSetTensor4dDescriptor(y_desc, miopenTensorNCHW, miopenFloat, N, K, H, W));

  float *x, *w, *y;
  hipMalloc(&x, N * C * H * W * sizeof(float));
  hipMalloc(&w, K * C * R * S * sizeof(float));
  hipMalloc(&y, N * K * H * W * sizeof(float));

  miopenConvFwdAlgorithm_t algo = miopenConvolutionFwdAlgoImplicitGEMM;
  size_t ws_bytes = 0;
  CUDNN_CHECK(miopenConvolutionForwardGetWorkSpaceSize(handle, w_desc, x_desc, conv_desc, y_desc, &ws_bytes));
  void* ws = nullptr;
  if (ws_bytes) hipMalloc(&ws, ws_bytes);
  const float alpha = 1.0f, beta = 0.0f;
  CUDNN_CHECK(miopenConvolutionForward(handle, &alpha, x_desc, x, w_desc, w, conv_desc, algo,
                                      &beta, y_desc, y, ws, ws_bytes));
  hipDeviceSynchronize();
  printf("convolution done, workspace %zu bytes\n", ws_bytes);

  hipFree(ws); hipFree(x); hipFree(w); hipFree(y);
  miopenDestroy(handle);
  return 0;
}
