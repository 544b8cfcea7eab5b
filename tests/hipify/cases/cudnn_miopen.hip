#include <hip/hip_runtime.h>
#include <miopen/miopen.h>
int make(miopenHandle_t* h, miopenTensorDescriptor_t* t) {
  if (miopenCreate(h) != miopenStatusSuccess) return 1;
  return miopenCreateTensorDescriptor(t);
}
