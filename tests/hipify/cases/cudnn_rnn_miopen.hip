// cuDNN RNN -> MIOpen (--miopen): the _V2 descriptor calls take no handle but a bias mode; the weight gradient
// comes before the workspace in miopenRNNBackwardWeights.
#include <hip/hip_runtime.h>
#include <miopen/miopen.h>
void rnn(miopenHandle_t h, miopenRNNDescriptor_t rnn, miopenDropoutDescriptor_t drop, const miopenTensorDescriptor_t* x,
         const void* xd, miopenTensorDescriptor_t hx, const void* hxd, const miopenTensorDescriptor_t* y,
         const void* yd, void* ws, size_t wsSize, miopenTensorDescriptor_t dw, void* dwd, const void* rs,
         size_t rsSize) {
  miopenSetRNNDescriptor_V2(rnn, 256, 2, drop, miopenRNNlinear, miopenRNNunidirection, miopenLSTM, miopenRNNwithBias,
                           miopenRNNdefault, miopenFloat);
  miopenRNNBackwardWeights(h, rnn, 8, x, xd, hx, hxd, y, yd, dw, dwd, ws, wsSize, rs, rsSize);
}
