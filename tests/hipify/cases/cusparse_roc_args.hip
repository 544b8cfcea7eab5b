// cuSPARSE -> rocSPARSE (--roc): policies, stages, size_t buffer sizes and extra operation arguments.
#include <rocsparse/rocsparse.h>
void solve(rocsparse_handle h, rocsparse_mat_descr descr, rocsparse_mat_descr info, int m, int nnz, float* val,
           int* rowPtr, int* colInd, float* x, float* y, void* buffer, const float* alpha) {
  int bufferSize = 0;
  rocsparse_scsrsv_buffer_size(h, rocsparse_operation_none, m, nnz, descr, val, rowPtr, colInd, info,
                             reinterpret_cast<size_t*>(&bufferSize));
  rocsparse_scsrsv_analysis(h, rocsparse_operation_none, m, nnz, descr, val, rowPtr, colInd, info,
                           rocsparse_analysis_policy_force, rocsparse_solve_policy_auto, buffer);
  rocsparse_scsrsv_solve(h, rocsparse_operation_none, m, nnz, alpha, descr, val, rowPtr, colInd, info,
                        x, y, rocsparse_solve_policy_auto, buffer);
}
void spmv(rocsparse_handle h, rocsparse_spmat_descr A, rocsparse_dnvec_descr x, rocsparse_dnvec_descr y,
          const float* alpha, const float* beta, void* buffer) {
  size_t size = 0;
  rocsparse_spmv(h, rocsparse_operation_none, alpha, A, x, beta, y, rocblas_datatype_f32_r,
                          rocsparse_spmv_alg_default, rocsparse_spmv_stage_buffer_size, &size, nullptr);
  rocsparse_spmv(h, rocsparse_operation_none, alpha, A, x, beta, y, rocblas_datatype_f32_r,
               rocsparse_spmv_alg_default, rocsparse_spmv_stage_compute, buffer);
}
