#include <hip/hip_runtime.h>
#include <miopen/miopen.h>
void conv(miopenHandle_t h, miopenTensorDescriptor_t xd, miopenTensorDescriptor_t wd,
          miopenConvolutionDescriptor_t cd, miopenTensorDescriptor_t yd, miopenConvFwdAlgorithm_t algo,
          float* x, float* w, float* y, void* ws, size_t wsz, miopenPoolingDescriptor_t p) {
  const float a = 1.0f, b = 0.0f;
  size_t need = 0;
  miopenConvolutionForwardGetWorkSpaceSize(h, wd, xd, cd, yd, &need);
  miopenConvolutionForward(h, &a, xd, x, wd, w, cd, algo,
                          &b, yd, y, ws, wsz);
  miopenSoftmaxForward_V2(h, &a, xd, x, &b, yd, y, MIOPEN_SOFTMAX_ACCURATE, MIOPEN_SOFTMAX_MODE_CHANNEL);
  miopenSet2dPoolingDescriptor(p, miopenPoolingMax, 2, 2, 0, 0, 2, 2);
}
