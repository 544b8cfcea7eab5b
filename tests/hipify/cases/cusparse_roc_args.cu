// cuSPARSE -> rocSPARSE (--roc): policies, stages, size_t buffer sizes, extra operation arguments, data types.
#include <cusparse.h>
void solve(cusparseHandle_t h, cusparseMatDescr_t descr, csrsv2Info_t info, int m, int nnz, float* val,
           int* rowPtr, int* colInd, float* x, float* y, void* buffer, const float* alpha) {
  int bufferSize = 0;
  cusparseScsrsv2_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, m, nnz, descr, val, rowPtr, colInd, info,
                             &bufferSize);
  cusparseScsrsv2_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, m, nnz, descr, val, rowPtr, colInd, info,
                           CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
  cusparseScsrsv2_solve(h, CUSPARSE_OPERATION_NON_TRANSPOSE, m, nnz, alpha, descr, val, rowPtr, colInd, info,
                        x, y, CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer);
}
void spmv(cusparseHandle_t h, cusparseSpMatDescr_t A, cusparseDnVecDescr_t x, cusparseDnVecDescr_t y,
          const float* alpha, const float* beta, void* buffer) {
  size_t size = 0;
  cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, x, beta, y, CUDA_R_32F,
                          CUSPARSE_SPMV_ALG_DEFAULT, &size);
  cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, x, beta, y, CUDA_R_32F,
               CUSPARSE_SPMV_ALG_DEFAULT, buffer);
}
void make(cusparseSpMatDescr_t* A, cusparseDnVecDescr_t* x, int m, int nnz, int* rowPtr, int* colInd, float* val,
          float* xs) {
  cusparseCreateCsr(A, m, m, nnz, rowPtr, colInd, val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  cusparseCreateDnVec(x, m, xs, CUDA_R_32F);
}
