#include <cudnn.h>
int make(cudnnHandle_t* h, cudnnTensorDescriptor_t* t) {
  if (cudnnCreate(h) != CUDNN_STATUS_SUCCESS) return 1;
  return cudnnCreateTensorDescriptor(t);
}
