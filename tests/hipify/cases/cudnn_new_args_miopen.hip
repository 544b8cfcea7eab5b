// cuDNN -> MIOpen (--miopen): arguments MIOpen needs and cuDNN lacks become variables declared before the call
// (HIPIFY's e_insert_new_argument): a second use of a name in the file gets _1, then _2; an output one goes by address.
#include <hip/hip_runtime.h>
#include <miopen/miopen.h>
miopenStatus_t dropout(miopenHandle_t h, miopenDropoutDescriptor_t d, void* states, size_t bytes) {
  bool hipify_use_mask = {};
  bool hipify_state_evo = {};
  miopenRNGType_t hipify_rng_mode = {};
  miopenStatus_t st = miopenSetDropoutDescriptor(d, h, 0.1f, states, bytes, 1234ULL, hipify_use_mask, hipify_state_evo, hipify_rng_mode);
  if (st != miopenStatusSuccess) return st;
    bool hipify_use_mask_1 = {};
    bool hipify_state_evo_1 = {};
    miopenRNGType_t hipify_rng_mode_1 = {};
    return miopenSetDropoutDescriptor(d, h, 0.2f, states, bytes,
                                     5678ULL, hipify_use_mask_1, hipify_state_evo_1, hipify_rng_mode_1);
}
void query(miopenHandle_t h, miopenRNNDescriptor_t rnn, miopenDropoutDescriptor_t drop, void* states, size_t bytes) {
  int hidden = 0, layers = 0;
  miopenDropoutDescriptor_t d;
  miopenRNNInputMode_t in;
  miopenRNNDirectionMode_t dir;
  miopenRNNMode_t mode;
  miopenRNNAlgo_t algo;
  miopenDataType_t type;
  miopenRNNBiasMode_t hipify_biasMode = {};
  miopenGetRNNDescriptor_V2(rnn, &hidden, &layers, &d, &in, &dir, &mode, &hipify_biasMode, &algo, &type);
  bool hipify_use_mask_2 = {};
  bool hipify_state_evo_2 = {};
  miopenRNGType_t hipify_rng_mode_2 = {};
  miopenSetDropoutDescriptor(drop, h, 0.0f, states, bytes, 0ULL, hipify_use_mask_2, hipify_state_evo_2, hipify_rng_mode_2);
}
