// SPDX-License-Identifier: MIT
// Tile transpose through __shared__ memory, written for clbanks' tests in the manner of a CUDA
// library: a block of TILE x ROWS threads moves a TILE x TILE tile, each thread TILE / ROWS
// rows. The tile's row length is a template parameter: TILE (conflicts on the column read)
// or TILE + 1 (padded, conflict-free).
#include <cuda_runtime.h>

namespace cbt {

constexpr int TILE = 32;
constexpr int ROWS = 8;

template <int Pitch>
__global__ void transpose_tile(float *__restrict__ dst, const float *__restrict__ src, int n)
{
	__shared__ float tile[TILE][Pitch];
	const int tx = threadIdx.x, ty = threadIdx.y;
	int col = blockIdx.x * TILE + tx, row = blockIdx.y * TILE + ty;
#pragma unroll
	for (int r = 0; r < TILE; r += ROWS)
		tile[ty + r][tx] = src[(row + r) * n + col];
	__syncthreads();
	col = blockIdx.y * TILE + tx;
	row = blockIdx.x * TILE + ty;
#pragma unroll
	for (int r = 0; r < TILE; r += ROWS)
		dst[(row + r) * n + col] = tile[tx][ty + r];
}

template __global__ void transpose_tile<TILE>(float *, const float *, int);
template __global__ void transpose_tile<TILE + 1>(float *, const float *, int);

} // namespace cbt
