#include <hip/hip_runtime.h>
#include <hipDNN.h>
int make(hipdnnHandle_t* h, hipdnnTensorDescriptor_t* t) {
  if (hipdnnCreate(h) != HIPDNN_STATUS_SUCCESS) return 1;
  return hipdnnCreateTensorDescriptor(t);
}
