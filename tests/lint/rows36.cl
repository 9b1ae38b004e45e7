// SPDX-License-Identifier: MIT
// A 1-D tile in rows that are not a power of two (issue 31, point 7): written by rows of 36,
// read by columns (lanes 36 words apart: 8 banks, 4-way). The fix is given in the code's rows
// of 36: s[r * (36+1) + c], not a swizzle of rows of 4.
#define W 36

__kernel void rows36(__global float *out)
{
	__local float s[W * W];
	int lx = get_local_id(0), ly = get_local_id(1);
	s[ly * W + lx] = (float)lx;
	barrier(CLK_LOCAL_MEM_FENCE);
	out[ly * 32 + lx] = s[lx * W + ly];
}
