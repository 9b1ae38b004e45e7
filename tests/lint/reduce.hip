// SPDX-License-Identifier: MIT
// Block sums for clbanks' HIP tests over dynamic LDS (HIP_DYNAMIC_SHARED, sized by the launch:
// --shared-bytes): interleaved addressing with a strided index (bank conflicts), and a
// column sum of a Rows x Cols tile through a header's inlined tile view (inc/smem_tile.cuh).
#include <hip/hip_runtime.h>
#include "inc/smem_tile.cuh"

__global__ void __launch_bounds__(256) sum_interleaved(const float *in, float *out)
{
	HIP_DYNAMIC_SHARED(float, partial)
	const unsigned t = threadIdx.x;
	partial[t] = in[blockIdx.x * blockDim.x + t];
	__syncthreads();
	for (unsigned stride = 1; stride < blockDim.x; stride <<= 1) {
		const unsigned slot = 2 * stride * t;
		if (slot < blockDim.x)
			partial[slot] += partial[slot + stride];
		__syncthreads();
	}
	if (t == 0)
		out[blockIdx.x] = partial[0];
}

// Thread c writes row c of the tile (a stride of Pitch floats: all on one bank when Pitch is a
// multiple of the banks), then sums column c (conflict-free).
template <int Rows, int Cols, int Pitch>
__global__ void __launch_bounds__(Cols) colsum(const float *in, float *out)
{
	__shared__ float buf[Rows * Pitch];
	const SmemTile<float, Rows, Cols, Pitch> tile(buf);
	const int c = threadIdx.x;
	for (int r = 0; r < Rows; ++r)
		tile.put(c, r, in[(blockIdx.x * Cols + c) * Rows + r]);
	__syncthreads();
	float s = 0.0f;
	for (int r = 0; r < Rows; ++r)
		s += tile.at(r, c);
	out[blockIdx.x * Cols + c] = s;
}

template __global__ void colsum<64, 64, 64>(const float *, float *);
template __global__ void colsum<64, 64, 65>(const float *, float *);
