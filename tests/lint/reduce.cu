// SPDX-License-Identifier: MIT
// Block sums written for clbanks' tests: interleaved addressing with a strided index (the
// bank-conflicted classic), and sequential addressing (conflict-free), both over a dynamic
// shared buffer (extern __shared__, sized by the launch: --shared-bytes).
#include <cuda_runtime.h>

extern __shared__ float partial[];

__global__ void __launch_bounds__(256) sum_interleaved(const float *in, float *out)
{
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

__global__ void __launch_bounds__(256) sum_sequential(const float *in, float *out)
{
	const unsigned t = threadIdx.x;
	partial[t] = in[blockIdx.x * blockDim.x + t];
	__syncthreads();
	for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
		if (t < half)
			partial[t] += partial[t + half];
		__syncthreads();
	}
	if (t == 0)
		out[blockIdx.x] = partial[0];
}
