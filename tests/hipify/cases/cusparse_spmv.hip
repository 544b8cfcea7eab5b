#include <hip/hip_runtime.h>
#include <hipsparse/hipsparse.h>
void spmv(int rows, int cols, int nnz, int* rp, int* ci, float* v, float* x, float* y, void* buf) {
  hipsparseHandle_t h;
  hipsparseSpMatDescr_t A;
  hipsparseDnVecDescr_t vx, vy;
  float alpha = 1.0f, beta = 0.0f;
  hipsparseCreate(&h);
  hipsparseCreateCsr(&A, rows, cols, nnz, rp, ci, v, HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_32I,
                    HIPSPARSE_INDEX_BASE_ZERO, HIP_R_32F);
  hipsparseCreateDnVec(&vx, cols, x, HIP_R_32F);
  hipsparseCreateDnVec(&vy, rows, y, HIP_R_32F);
  hipsparseSpMV(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, HIP_R_32F,
               HIPSPARSE_SPMV_ALG_DEFAULT, buf);
  hipsparseDestroy(h);
}
