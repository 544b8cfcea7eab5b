#include <hip/hip_runtime.h>

// Step 1, naive: one thread per element. Neighbouring threads read neighbours in a row of `in`
// (coalesced) but write neighbours in a column of `out`, `rows` floats apart (strided).
// in: rows x cols, out: cols x rows, row-major; rows and cols are multiples of 32.
// Launch: block (32, 8), grid (cols / 32, rows / 8).
__global__ __launch_bounds__(256) void transpose(float* __restrict__ out, const float* __restrict__ in,
                                                 int rows, int cols) {
    int col = blockIdx.x * 32 + threadIdx.x;
    int row = blockIdx.y * 8 + threadIdx.y;
    out[(size_t)col * rows + row] = in[(size_t)row * cols + col];
}
