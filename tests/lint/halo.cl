// SPDX-License-Identifier: MIT
// A 2-D smoothing step over a haloed tile in a dynamic __local buffer (rows of width + 2
// elements), its indices from inline helpers, launched as 1 x W work-items that each walk
// LROWS rows. With -DEXTERN_INDEX the index helper is only declared (another file defines it).
#ifndef LROWS
#define LROWS 4
#endif

#ifdef EXTERN_INDEX
int HaloIndex(int row, int col, int pitch);
#else
inline int HaloIndex(int row, int col, int pitch)
{
	return (row + 1) * (pitch + 2) + (col + 1);
}
#endif

inline int Column(void)
{
	return get_local_id(1);
}

__kernel void smooth(__global const float *in, __global float *out, __local float *sh)
{
	int c = Column(), w = get_local_size(1);
	for (int i = 0; i < LROWS + 2; i++)
		sh[HaloIndex(i - 1, c, w)] = in[i * w + c];
	if (c == 0)
		for (int i = 0; i < LROWS + 2; i++)
			sh[HaloIndex(i - 1, -1, w)] = 0.0f;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (int i = 0; i < LROWS; i++)
		out[i * w + c] = sh[HaloIndex(i, c, w)] + sh[HaloIndex(i - 1, c + 1, w)] +
				 sh[HaloIndex(i + 1, c - 1, w)];
}
