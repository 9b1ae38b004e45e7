// SPDX-License-Identifier: MIT
// Integer vectors as indices (issue 31, point 8): a coordinate pair built from the work-item's
// id, its components used as row and column, and a store one element past a row's end.
__kernel void vectors(__global float *out)
{
	__local float line[64];
	__local float grid[8][33];
	int l = get_local_id(0);
	int2 c = (int2)(l, 7);
	line[c.x] = (float)l;                 // lane l at word l: 1 pass
	int4 q = (int4)(l / 8, l % 8, 0, 1);
	grid[q.y][q.x] = 1.0f;                // rows of 33 words: lanes 8 apart by row, 1 pass
	barrier(CLK_LOCAL_MEM_FENCE);
	out[l] = line[c.y * 8 + c.x % 8] + grid[q.x][q.y];
	line[l + 33] = 0.0f;                  // lanes 31 and up write past line[63]
}
