// One forward convolution with cuDNN (NCHW, float).
#include <cstdio>
#include <cuda_runtime.h>
#include <cudnn.h>

#define CUDNN_CHECK(call)                                                    \
  do {                                                                       \
    cudnnStatus_t s_ = (call);                                               \
    if (s_ != CUDNN_STATUS_SUCCESS) {                                        \
      fprintf(stderr, "cuDNN error: %s\n", cudnnGetErrorString(s_));         \
      return 1;                                                              \
    }                                                                        \
  } while (0)

int main() {
  const int N = 1, C = 3, H = 32, W = 32, K = 8, R = 3, S = 3;
  cudnnHandle_t handle;
  CUDNN_CHECK(cudnnCreate(&handle));

  cudnnTensorDescriptor_t x_desc, y_desc;
  cudnnFilterDescriptor_t w_desc;
  cudnnConvolutionDescriptor_t conv_desc;
  CUDNN_CHECK(cudnnCreateTensorDescriptor(&x_desc));
  CUDNN_CHECK(cudnnCreateTensorDescriptor(&y_desc));
  CUDNN_CHECK(cudnnCreateFilterDescriptor(&w_desc));
  CUDNN_CHECK(cudnnCreateConvolutionDescriptor(&conv_desc));
  CUDNN_CHECK(cudnnSetTensor4dDescriptor(x_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, C, H, W));
  CUDNN_CHECK(cudnnSetFilter4dDescriptor(w_desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, K, C, R, S));
  CUDNN_CHECK(cudnnSetConvolution2dDescriptor(conv_desc, 1, 1, 1, 1, 1, 1,
                                              CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
  CUDNN_CHECK(cudnnSetTensor4dDescriptor(y_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, K, H, W));

  float *x, *w, *y;
  cudaMalloc(&x, N * C * H * W * sizeof(float));
  cudaMalloc(&w, K * C * R * S * sizeof(float));
  cudaMalloc(&y, N * K * H * W * sizeof(float));

  cudnnConvolutionFwdAlgo_t algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
  size_t ws_bytes = 0;
  CUDNN_CHECK(cudnnGetConvolutionForwardWorkspaceSize(handle, x_desc, w_desc, conv_desc, y_desc, algo, &ws_bytes));
  void* ws = nullptr;
  if (ws_bytes) cudaMalloc(&ws, ws_bytes);
  const float alpha = 1.0f, beta = 0.0f;
  CUDNN_CHECK(cudnnConvolutionForward(handle, &alpha, x_desc, x, w_desc, w, conv_desc, algo,
                                      ws, ws_bytes, &beta, y_desc, y));
  cudaDeviceSynchronize();
  printf("convolution done, workspace %zu bytes\n", ws_bytes);

  cudaFree(ws); cudaFree(x); cudaFree(w); cudaFree(y);
  cudnnDestroy(handle);
  return 0;
}
