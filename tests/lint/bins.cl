// SPDX-License-Identifier: MIT
// Indices that depend on memory contents (issue 31, point 5): a histogram whose bin is found
// by a binary search over bin edges read from global memory. Which bin each work-item hits is
// data: the atomic is unknown, anywhere in the 100 bins (bytes 0..396), never a guessed bin.
#define BINS 100

__kernel void bins(__global const float *x, __global const float *edges,
		   __global uint *out)
{
	__local uint hist[BINS];
	int l = get_local_id(0);
	for (int b = l; b < BINS; b += get_local_size(0))
		hist[b] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	float v = x[get_global_id(0)];
	int lo = 0, hi = BINS - 1;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (v < edges[mid + 1])
			hi = mid;
		else
			lo = mid + 1;
	}
	atomic_inc(&hist[lo]);
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int b = l; b < BINS; b += get_local_size(0))
		atomic_add(&out[b], hist[b]);
}
