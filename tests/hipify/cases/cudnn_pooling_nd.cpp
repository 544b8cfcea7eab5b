// cuDNN N-d pooling -> MIOpen (--miopen): MIOpen has no NaN-propagation argument (7 -> 6 and 8 -> 7 arguments).
#include <cudnn.h>
void pool(cudnnPoolingDescriptor_t p) {
  int window[2] = {2, 2}, pad[2] = {0, 0}, stride[2] = {2, 2};
  cudnnSetPoolingNdDescriptor(p, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, window, pad, stride);
  cudnnPoolingMode_t mode;
  cudnnNanPropagation_t nan;
  int dims = 0;
  cudnnGetPoolingNdDescriptor(p, 2, &mode, &nan, &dims,
                              window, pad, stride);
}
