// cuDNN RNN -> MIOpen (--miopen): the _V2 descriptor calls take no handle but a bias mode; the weight gradient
// comes before the workspace in miopenRNNBackwardWeights.
#include <cudnn.h>
void rnn(cudnnHandle_t h, cudnnRNNDescriptor_t rnn, cudnnDropoutDescriptor_t drop, const cudnnTensorDescriptor_t* x,
         const void* xd, cudnnTensorDescriptor_t hx, const void* hxd, const cudnnTensorDescriptor_t* y,
         const void* yd, void* ws, size_t wsSize, cudnnFilterDescriptor_t dw, void* dwd, const void* rs,
         size_t rsSize) {
  cudnnSetRNNDescriptor_v6(h, rnn, 256, 2, drop, CUDNN_LINEAR_INPUT, CUDNN_UNIDIRECTIONAL, CUDNN_LSTM,
                           CUDNN_RNN_ALGO_STANDARD, CUDNN_DATA_FLOAT);
  cudnnRNNBackwardWeights(h, rnn, 8, x, xd, hx, hxd, y, yd, ws, wsSize, dw, dwd, rs, rsSize);
}
