// SPDX-License-Identifier: MIT
// A kernel compiled for SIMD16 (intel_reqd_sub_group_size(16)) that reads a 16 x 16 tile by
// columns: a model of 16-lane sub-groups prices it, a model of another size cannot.
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void k(__global float *out)
{
	__local float t[16][16];
	int x = get_local_id(0), y = get_local_id(1);
	t[y][x] = x;
	barrier(CLK_LOCAL_MEM_FENCE);
	out[y * 16 + x] = t[x][y];
}
