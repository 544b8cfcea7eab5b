// --miopen alone: hipify-clang's isToRoc takes the ROC name of every BLAS, DNN, SPARSE, SOLVER, RUNTIME and
// COMPLEX entry when --miopen is given, so cuBLAS becomes rocBLAS here too, and cudaStream_t MIOpen's queue.
#include <hip/hip_runtime.h>
#include <rocblas/rocblas.h>
#include <miopen/miopen.h>
void bind(miopenHandle_t dnn, rocblas_handle blas, miopenAcceleratorQueue_t s) {
  miopenSetStream(dnn, s);
  rocblas_set_stream(blas, s);
}
