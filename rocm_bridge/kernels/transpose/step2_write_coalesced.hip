#include <hip/hip_runtime.h>

// Step 2, coalesced writes: the same kernel with the roles swapped. Neighbouring threads now write
// neighbours in a row of `out` (coalesced) and read neighbours in a column of `in` (strided).
// in: rows x cols, out: cols x rows, row-major; rows and cols are multiples of 32.
// Launch: block (32, 8), grid (rows / 32, cols / 8).
__global__ __launch_bounds__(256) void transpose(float* __restrict__ out, const float* __restrict__ in,
                                                 int rows, int cols) {
    int col = blockIdx.x * 32 + threadIdx.x;  // column of out = row of in
    int row = blockIdx.y * 8 + threadIdx.y;   // row of out = column of in
    out[(size_t)row * rows + col] = in[(size_t)col * cols + row];
}
