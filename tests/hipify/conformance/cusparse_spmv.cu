// RUN: %run_test hipify "%s" "%t" %hipify_args %clang_args
// Written for ROCm Bridge's conformance suite (not copied from HIPIFY); expectations follow HIPIFY's documented mappings.
// cuSPARSE to hipSPARSE: legacy matrix descriptor and the generic SpMV API.

// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>
// CHECK: #include "hipsparse.h"
#include "cusparse.h"

int main() {
  const int rows = 4, cols = 4, nnz = 6;
  int *rowPtr = nullptr, *colIdx = nullptr;
  float *vals = nullptr, *x = nullptr, *y = nullptr;
  void *work = nullptr;
  cudaMalloc(&rowPtr, (rows + 1) * sizeof(int));
  cudaMalloc(&colIdx, nnz * sizeof(int));
  cudaMalloc(&vals, nnz * sizeof(float));
  cudaMalloc(&x, cols * sizeof(float));
  cudaMalloc(&y, rows * sizeof(float));
  // CHECK: hipsparseHandle_t sp;
  cusparseHandle_t sp;
  // CHECK: hipsparseStatus_t st = hipsparseCreate(&sp);
  cusparseStatus_t st = cusparseCreate(&sp);
  // CHECK: if (st != HIPSPARSE_STATUS_SUCCESS) return 1;
  if (st != CUSPARSE_STATUS_SUCCESS) return 1;
  // CHECK: hipsparseMatDescr_t legacy;
  cusparseMatDescr_t legacy;
  // CHECK: hipsparseCreateMatDescr(&legacy);
  cusparseCreateMatDescr(&legacy);
  // CHECK: hipsparseSetMatType(legacy, HIPSPARSE_MATRIX_TYPE_GENERAL);
  cusparseSetMatType(legacy, CUSPARSE_MATRIX_TYPE_GENERAL);
  // CHECK: hipsparseSetMatIndexBase(legacy, HIPSPARSE_INDEX_BASE_ZERO);
  cusparseSetMatIndexBase(legacy, CUSPARSE_INDEX_BASE_ZERO);
  // CHECK: hipsparseSpMatDescr_t A;
  cusparseSpMatDescr_t A;
  // CHECK: hipsparseDnVecDescr_t vx, vy;
  cusparseDnVecDescr_t vx, vy;
  // CHECK: hipsparseCreateCsr(&A, rows, cols, nnz, rowPtr, colIdx, vals, HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_BASE_ZERO, HIP_R_32F);
  cusparseCreateCsr(&A, rows, cols, nnz, rowPtr, colIdx, vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  // CHECK: hipsparseCreateDnVec(&vx, cols, x, HIP_R_32F);
  cusparseCreateDnVec(&vx, cols, x, CUDA_R_32F);
  cusparseCreateDnVec(&vy, rows, y, CUDA_R_32F);
  float alpha = 1.0f, beta = 0.0f;
  size_t bytes = 0;
  // CHECK: hipsparseSpMV_bufferSize(sp, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, HIP_R_32F, HIPSPARSE_SPMV_ALG_DEFAULT, &bytes);
  cusparseSpMV_bufferSize(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes);
  cudaMalloc(&work, bytes);
  // CHECK: hipsparseSpMV(sp, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, HIP_R_32F, HIPSPARSE_SPMV_ALG_DEFAULT, work);
  cusparseSpMV(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, work);
  // CHECK: hipsparseDestroyDnVec(vy);
  cusparseDestroyDnVec(vy);
  cusparseDestroyDnVec(vx);
  // CHECK: hipsparseDestroySpMat(A);
  cusparseDestroySpMat(A);
  // CHECK: hipsparseDestroyMatDescr(legacy);
  cusparseDestroyMatDescr(legacy);
  // CHECK: hipsparseDestroy(sp);
  cusparseDestroy(sp);
  cudaFree(work); cudaFree(y); cudaFree(x); cudaFree(vals); cudaFree(colIdx); cudaFree(rowPtr);
  return 0;
}
