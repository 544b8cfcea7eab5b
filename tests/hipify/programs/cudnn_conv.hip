// One forward convolution with cuDNN (NCHW, float).
#include <cstdio>
#include <hip/hip_runtime.h>
#include <hipDNN.h>

#define CUDNN_CHECK(call)                                                    \
  do {                                                                       \
    hipdnnStatus_t s_ = (call);                                               \
    if (s_ != HIPDNN_STATUS_SUCCESS) {                                        \
      fprintf(stderr, "cuDNN error: %s\n", hipdnnGetErrorString(s_));         \
      return 1;                                                              \
    }                                                                        \
  } while (0)

int main() {
  const int N = 1, C = 3, H = 32, W = 32, K = 8, R = 3, S = 3;
  hipdnnHandle_t handle;
  CUDNN_CHECK(hipdnnCreate(&handle));

  hipdnnTensorDescriptor_t x_desc, y_desc;
  hipdnnFilterDescriptor_t w_desc;
  hipdnnConvolutionDescriptor_t conv_desc;
  CUDNN_CHECK(hipdnnCreateTensorDescriptor(&x_desc));
  CUDNN_CHECK(hipdnnCreateTensorDescriptor(&y_desc));
  CUDNN_CHECK(hipdnnCreateFilterDescriptor(&w_desc));
  CUDNN_CHECK(hipdnnCreateConvolutionDescriptor(&conv_desc));
  CUDNN_CHECK(hipdnnSetTensor4dDescriptor(x_desc, HIPDNN_TENSOR_NCHW, HIPDNN_DATA_FLOAT, N, C, H, W));
  CUDNN_CHECK(hipdnnSetFilter4dDescriptor(w_desc, HIPDNN_DATA_FLOAT, HIPDNN_TENSOR_NCHW, K, C, R, S));
  CUDNN_CHECK(hipdnnSetConvolution2dDescriptor(conv_desc, 1, 1, 1, 1, 1, 1,
                                              HIPDNN_CROSS_CORRELATION, HIPDNN_DATA_FLOAT));
  CUDNN_CHECK(hipdnnSetTensor4dDescriptor(y_desc, HIPDNN_TENSOR_NCHW, HIPDNN_DATA_FLOAT, N, K, H, W));

  float *x, *w, *y;
  hipMalloc(&x, N * C * H * W * sizeof(float));
  hipMalloc(&w, K * C * R * S * sizeof(float));
  hipMalloc(&y, N * K * H * W * sizeof(float));

  hipdnnConvolutionFwdAlgo_t algo = HIPDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
  size_t ws_bytes = 0;
  CUDNN_CHECK(hipdnnGetConvolutionForwardWorkspaceSize(handle, x_desc, w_desc, conv_desc, y_desc, algo, &ws_bytes));
  void* ws = nullptr;
  if (ws_bytes) hipMalloc(&ws, ws_bytes);
  const float alpha = 1.0f, beta = 0.0f;
  CUDNN_CHECK(hipdnnConvolutionForward(handle, &alpha, x_desc, x, w_desc, w, conv_desc, algo,
                                      ws, ws_bytes, &beta, y_desc, y));
  hipDeviceSynchronize();
  printf("convolution done, workspace %zu bytes\n", ws_bytes);

  hipFree(ws); hipFree(x); hipFree(w); hipFree(y);
  hipdnnDestroy(handle);
  return 0;
}
