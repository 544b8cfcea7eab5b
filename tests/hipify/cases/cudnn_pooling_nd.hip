// cuDNN N-d pooling -> MIOpen (--miopen): MIOpen has no NaN-propagation argument (7 -> 6 and 8 -> 7 arguments).
#include <hip/hip_runtime.h>
#include <miopen/miopen.h>
void pool(miopenPoolingDescriptor_t p) {
  int window[2] = {2, 2}, pad[2] = {0, 0}, stride[2] = {2, 2};
  miopenSetNdPoolingDescriptor(p, miopenPoolingMax, 2, window, pad, stride);
  miopenPoolingMode_t mode;
  miopenNanPropagation_t nan;
  int dims = 0;
  miopenGetNdPoolingDescriptor(p, 2, &mode, &dims,
                              window, pad, stride);
}
