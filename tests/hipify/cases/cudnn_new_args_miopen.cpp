// cuDNN -> MIOpen (--miopen): arguments MIOpen needs and cuDNN lacks become variables declared before the call
// (HIPIFY's e_insert_new_argument): a second use of a name in the file gets _1, then _2; an output one goes by address.
#include <cudnn.h>
cudnnStatus_t dropout(cudnnHandle_t h, cudnnDropoutDescriptor_t d, void* states, size_t bytes) {
  cudnnStatus_t st = cudnnSetDropoutDescriptor(d, h, 0.1f, states, bytes, 1234ULL);
  if (st != CUDNN_STATUS_SUCCESS) return st;
    return cudnnSetDropoutDescriptor(d, h, 0.2f, states, bytes,
                                     5678ULL);
}
void query(cudnnHandle_t h, cudnnRNNDescriptor_t rnn, cudnnDropoutDescriptor_t drop, void* states, size_t bytes) {
  int hidden = 0, layers = 0;
  cudnnDropoutDescriptor_t d;
  cudnnRNNInputMode_t in;
  cudnnDirectionMode_t dir;
  cudnnRNNMode_t mode;
  cudnnRNNAlgo_t algo;
  cudnnDataType_t type;
  cudnnGetRNNDescriptor_v6(h, rnn, &hidden, &layers, &d, &in, &dir, &mode, &algo, &type);
  cudnnSetDropoutDescriptor(drop, h, 0.0f, states, bytes, 0ULL);
}
