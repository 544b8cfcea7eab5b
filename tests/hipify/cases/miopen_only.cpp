// --miopen alone: hipify-clang's isToRoc takes the ROC name of every BLAS, DNN, SPARSE, SOLVER, RUNTIME and
// COMPLEX entry when --miopen is given, so cuBLAS becomes rocBLAS here too, and cudaStream_t MIOpen's queue.
#include <cublas_v2.h>
#include <cudnn.h>
void bind(cudnnHandle_t dnn, cublasHandle_t blas, cudaStream_t s) {
  cudnnSetStream(dnn, s);
  cublasSetStream(blas, s);
}
