// cuSPARSE -> rocSPARSE (--roc): policies, stages, size_t buffer sizes, extra operation arguments, data types.
#include <hip/hip_runtime.h>
#include <rocsparse/rocsparse.h>
void solve(rocsparse_handle h, rocsparse_mat_descr descr, rocsparse_mat_info info, int m, int nnz, float* val,
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
  rocsparse_spmv(h, rocsparse_operation_none, alpha, A, x, beta, y, rocsparse_datatype_f32_r,
                          rocsparse_spmv_alg_default, rocsparse_spmv_stage_buffer_size, &size, nullptr);
  rocsparse_spmv(h, rocsparse_operation_none, alpha, A, x, beta, y, rocsparse_datatype_f32_r,
               rocsparse_spmv_alg_default, rocsparse_spmv_stage_compute, buffer);
}
void make(rocsparse_spmat_descr* A, rocsparse_dnvec_descr* x, int m, int nnz, int* rowPtr, int* colInd, float* val,
          float* xs) {
  rocsparse_create_csr_descr(A, m, m, nnz, rowPtr, colInd, val, rocsparse_indextype_i32, rocsparse_indextype_i32,
                    rocsparse_index_base_zero, rocsparse_datatype_f32_r);
  rocsparse_create_dnvec_descr(x, m, xs, rocsparse_datatype_f32_r);
}
