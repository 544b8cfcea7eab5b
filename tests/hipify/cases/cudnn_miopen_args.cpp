#include <cudnn.h>
void conv(cudnnHandle_t h, cudnnTensorDescriptor_t xd, cudnnFilterDescriptor_t wd,
          cudnnConvolutionDescriptor_t cd, cudnnTensorDescriptor_t yd, cudnnConvolutionFwdAlgo_t algo,
          float* x, float* w, float* y, void* ws, size_t wsz, cudnnPoolingDescriptor_t p) {
  const float a = 1.0f, b = 0.0f;
  size_t need = 0;
  cudnnGetConvolutionForwardWorkspaceSize(h, xd, wd, cd, yd, algo, &need);
  cudnnConvolutionForward(h, &a, xd, x, wd, w, cd, algo,
                          ws, wsz, &b, yd, y);
  cudnnSoftmaxForward(h, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &a, xd, x, &b, yd, y);
  cudnnSetPooling2dDescriptor(p, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2);
}
