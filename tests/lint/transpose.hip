// SPDX-License-Identifier: MIT
// Tile transpose through LDS (__shared__) for clbanks' HIP tests: a 64 x 4 block moves a 64 x 64
// tile of floats, each thread 16 rows; the row pitch is a template parameter (64: the column
// read conflicts, 65: padded).
#include <hip/hip_runtime.h>

template <int Tile, int Rows, int Pitch>
__global__ void transpose_lds(float *dst, const float *src, int n)
{
	__shared__ float tile[Tile][Pitch];
	const int tx = threadIdx.x, ty = threadIdx.y;
	int col = blockIdx.x * Tile + tx, row = blockIdx.y * Tile + ty;
	for (int r = 0; r < Tile; r += Rows)
		tile[ty + r][tx] = src[(row + r) * n + col];
	__syncthreads();
	col = blockIdx.y * Tile + tx;
	row = blockIdx.x * Tile + ty;
	for (int r = 0; r < Tile; r += Rows)
		dst[(row + r) * n + col] = tile[tx][ty + r];
}

void launch(float *dst, const float *src, int n, hipStream_t s)
{
	hipLaunchKernelGGL((transpose_lds<64, 4, 64>), dim3(n / 64, n / 64), dim3(64, 4), 0, s,
			   dst, src, n);
	hipLaunchKernelGGL((transpose_lds<64, 4, 65>), dim3(n / 64, n / 64), dim3(64, 4), 0, s,
			   dst, src, n);
}
