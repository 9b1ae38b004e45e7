// SPDX-License-Identifier: MIT
// Rows of 3 floats (an RGB-like record per row) read two rows apart by 32 lanes: row 2l sits
// 24 l bytes in, so lanes l and l + 16 share a bank whatever the row's padding. Only a swizzle
// that moves the rows from 32 on fixes it; 3 is odd, so it swaps columns 0 and 1 and leaves 2.
__kernel void oddrows(__global const float *in, __global float *out)
{
	__local float t[64][3];
	int l = get_local_id(0);
	for (int r = l; r < 64; r += 32) {
		t[r][0] = in[3 * r];
		t[r][1] = in[3 * r + 1];
		t[r][2] = in[3 * r + 2];
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	out[l] = t[2 * l][0];
}
