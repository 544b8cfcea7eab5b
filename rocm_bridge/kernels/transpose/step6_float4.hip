#include <hip/hip_runtime.h>

#define TILE 32

// Step 6, 16-byte accesses: each thread loads one float4 (4 neighbours in a row) and stores one float4
// (4 neighbours in a row of out), so a wave moves 16 bytes per lane in one instruction each way.
// The tile keeps its padding, so its rows are not 16-byte aligned: LDS still moves 4-byte floats.
// in: rows x cols, out: cols x rows, row-major; rows and cols are multiples of 32.
// Launch: block (8, 32), grid (cols / 32, rows / 32).
__global__ __launch_bounds__(256) void transpose(float* __restrict__ out, const float* __restrict__ in,
                                                 int rows, int cols) {
    __shared__ float tile[TILE][TILE + 1];
    int x4 = threadIdx.x * 4;  // 8 threads x 4 floats = one 32-float tile row
    int ty = threadIdx.y;
    float4 v = *reinterpret_cast<const float4*>(&in[(size_t)(blockIdx.y * TILE + ty) * cols + blockIdx.x * TILE + x4]);
    tile[ty][x4 + 0] = v.x;
    tile[ty][x4 + 1] = v.y;
    tile[ty][x4 + 2] = v.z;
    tile[ty][x4 + 3] = v.w;
    __syncthreads();
    float4 w = make_float4(tile[x4 + 0][ty], tile[x4 + 1][ty], tile[x4 + 2][ty], tile[x4 + 3][ty]);
    *reinterpret_cast<float4*>(&out[(size_t)(blockIdx.x * TILE + ty) * rows + blockIdx.y * TILE + x4]) = w;
}
