// SPDX-License-Identifier: MIT
// Per-warp sub-histograms in one __local array, updated through a C99 inline helper that
// retries a tagged read-modify-write until its own write survives (software atomics for GPUs
// without __local ones), then cleared and reduced by plain loops.
#define BINS 256
#define WARPS 2
#define WARP_SHIFT 5

inline void AddTagged(volatile __local uint *h, uint bin, uint tag)
{
	uint v;
	do {
		v = h[bin] & 0x07FFFFFFu;
		v = tag | (v + 1);
		h[bin] = v;
	} while (h[bin] != v);
}

__kernel void warphist(__global const uint *data, __global uint *result, uint n)
{
	__local uint hist[WARPS * BINS];
	uint l = get_local_id(0);
	for (uint i = l; i < WARPS * BINS; i += get_local_size(0))
		hist[i] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	__local uint *mine = hist + (l >> WARP_SHIFT) * BINS;
	for (uint i = get_global_id(0); i < n; i += get_global_size(0))
		AddTagged(mine, data[i] & (BINS - 1), l << (32 - WARP_SHIFT));
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint b = l; b < BINS; b += get_local_size(0)) {
		uint sum = 0;
		for (uint w = 0; w < WARPS; w++)
			sum += hist[w * BINS + b] & 0x07FFFFFFu;
		result[b] = sum;
	}
}
