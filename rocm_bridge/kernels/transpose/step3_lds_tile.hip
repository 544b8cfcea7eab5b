#include <hip/hip_runtime.h>

#define TILE 32

// Step 3, LDS tile: a block reads a 32 x 32 tile with coalesced loads into LDS (shared memory),
// waits, then writes the transposed tile with coalesced stores. The tile is read down a column:
// the 32 floats of a column are 32 x 4 = 128 bytes apart, all in the same LDS bank.
// in: rows x cols, out: cols x rows, row-major; rows and cols are multiples of 32.
// Launch: block (32, 32), grid (cols / 32, rows / 32).
__global__ __launch_bounds__(1024) void transpose(float* __restrict__ out, const float* __restrict__ in,
                                                  int rows, int cols) {
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}
