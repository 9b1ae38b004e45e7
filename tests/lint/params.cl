// SPDX-License-Identifier: MIT
// A by-value struct argument (issue 31, point 10), as libraries pass shapes: the tile's row
// stride is a field. With --arg p.stride=33 the column read is conflict-free, with 32 it is
// 32-way; without it the index is unknown. --arg p.dims[1]=... sets an array field's element.
typedef struct {
	long dims[4];
	int stride;
	float scale;
} shape;

__kernel void params(__global float *out, shape p)
{
	__local float s[32 * 33];
	int lx = get_local_id(0), ly = get_local_id(1);
	s[ly * p.stride + lx] = (float)lx;
	barrier(CLK_LOCAL_MEM_FENCE);
	if (ly < p.dims[1])
		out[ly * 32 + lx] = s[lx * p.stride + ly] * p.scale;
}
