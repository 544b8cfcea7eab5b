#include <hip/hip_runtime.h>

#define TILE 32
#define BLOCK_ROWS 8

// Step 5, more work per thread: a block of 32 x 8 threads moves the same 32 x 32 tile, each thread
// four elements (rows j, j + 8, j + 16, j + 24): a quarter of the waves, four loads in flight each.
// in: rows x cols, out: cols x rows, row-major; rows and cols are multiples of 32.
// Launch: block (32, 8), grid (cols / 32, rows / 32).
__global__ __launch_bounds__(256) void transpose(float* __restrict__ out, const float* __restrict__ in,
                                                 int rows, int cols) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}
