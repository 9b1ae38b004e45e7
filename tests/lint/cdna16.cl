// SPDX-License-Identifier: MIT
// 16-byte accesses on AMD CDNA (issue 38): ds_read_b128 serves a wavefront's 64 lanes in
// eight groups of 8 that are not contiguous ({0-3, 20-23}, {4-7, 16-19}, ...), ds_write_b128
// in contiguous groups of 8. Two float4 patterns of a 64-lane wavefront over 32 x 4 B banks:
// `pairs` puts lanes 0-3 and 8-11 on one 128-byte row and lanes 4-7 and 12-15 on another;
// `halves` swaps the halves of each 8-lane row in the second 16 lanes of each 32. Each is
// written and read back: a pattern that conflicts in one grouping is free in the other.
__kernel void cdna16(__global const float4 *in, __global float4 *out)
{
	__local float4 t[512];
	int l = get_local_id(0);
	int pairs = (l & 3) + ((l >> 2) & 1) * 8 + (l >> 3) * 2;
	int halves = ((l & 7) ^ (((l >> 4) & 1) << 2)) + (l >> 3) * 8;
	t[pairs] = in[l];
	t[halves] = in[l + 64];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[l] = t[pairs] + t[halves];
}
