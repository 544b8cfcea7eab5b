// SGEMM with cuBLAS: C = alpha * A * B + beta * C (column-major, as BLAS expects).
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cublas_v2.h>

#define CUBLAS_CHECK(call)                                                 \
  do {                                                                     \
    cublasStatus_t st_ = (call);                                           \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                    \
      fprintf(stderr, "cuBLAS error %d at line %d\n", (int)st_, __LINE__); \
      return 1;                                                            \
    }                                                                      \
  } while (0)

int main() {
  const int m = 256, n = 256, k = 256;
  const float alpha = 1.0f, beta = 0.0f;
  std::vector<float> A(m * k, 1.0f), B(k * n, 1.0f), C(m * n, 0.0f);
  float *dA, *dB, *dC;
  cudaMalloc(&dA, A.size() * sizeof(float));
  cudaMalloc(&dB, B.size() * sizeof(float));
  cudaMalloc(&dC, C.size() * sizeof(float));
  cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice);

  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));
  CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k,
                           &alpha, dA, m, dB, k, &beta, dC, m));
  cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost);
  printf("C[0] = %f (expect %d)\n", C[0], k);

  cublasDestroy(handle);
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
  return 0;
}
