// SPDX-License-Identifier: MIT
// Indices lint cannot compute, each for its own reason (issue 39, point 18): a bin scaled
// through float arithmetic, a row from a float built-in, a tap read from a table in memory, a
// pitch that is an argument not given, and a bin from a float read from memory.
#define BINS 256

__kernel void floatidx(__global const float *x, __global const int *taps,
		       __global uint *out, float lo, float width, int pitch)
{
	__local uint hist[BINS];
	int l = get_local_id(0);
	hist[(int)(l * 7.5f) & (BINS - 1)] = 0u;
	hist[(int)sqrt((float)l) * 16] = 1u;
	hist[taps[l] & (BINS - 1)] = 2u;
	hist[(l * pitch) & (BINS - 1)] = 3u;
	hist[(int)((x[l] - lo) / width) & (BINS - 1)] = 4u;
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = hist[l];
}
