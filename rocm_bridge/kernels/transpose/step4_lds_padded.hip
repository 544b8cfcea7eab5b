#include <hip/hip_runtime.h>

#define TILE 32

// Step 4, padded LDS: one spare float per tile row makes the row stride 33 floats, so the 32 floats
// of a column fall in 32 different LDS banks and the column read has no bank conflicts.
// in: rows x cols, out: cols x rows, row-major; rows and cols are multiples of 32.
// Launch: block (32, 32), grid (cols / 32, rows / 32).
__global__ __launch_bounds__(1024) void transpose(float* __restrict__ out, const float* __restrict__ in,
                                                  int rows, int cols) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}
