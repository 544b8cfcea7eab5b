#include <cusparse.h>
void spmv(int rows, int cols, int nnz, int* rp, int* ci, float* v, float* x, float* y, void* buf) {
  cusparseHandle_t h;
  cusparseSpMatDescr_t A;
  cusparseDnVecDescr_t vx, vy;
  float alpha = 1.0f, beta = 0.0f;
  cusparseCreate(&h);
  cusparseCreateCsr(&A, rows, cols, nnz, rp, ci, v, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                    CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
  cusparseCreateDnVec(&vx, cols, x, CUDA_R_32F);
  cusparseCreateDnVec(&vy, rows, y, CUDA_R_32F);
  cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, CUDA_R_32F,
               CUSPARSE_SPMV_ALG_DEFAULT, buf);
  cusparseDestroy(h);
}
