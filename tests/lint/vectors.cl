// SPDX-License-Identifier: MIT
// Integer vectors as indices (issue 31, point 8): coordinates kept in an int2 and an int4, as
// image and stencil kernels keep them. Their components are the work-item's ids, not memory
// contents: every access is priced.
__kernel void vectors(__global float *out)
{
	__local float line[64];
	__local float grid[8][33];
	int l = get_local_id(0);
	int2 c = (int2)(l, 7);
	line[c.x] = (float)l;                 // lane l at word l: 1 pass
	int4 q = (int4)(l / 8, l % 8, 0, 1);
	grid[q.y][q.x] = 1.0f;                // word 33 (l % 8) + l / 8: banks r + c, 4 passes
	barrier(CLK_LOCAL_MEM_FENCE);
	out[l] = line[c.y * 8 + (c.x & 7)];   // words 56..63, each read by 4 lanes: 1 pass
}

// Coordinates computed as vectors: a base plus an offset vector, scaled by a constant one, as
// stencil kernels step through their neighbours. Every lane is followed through the vector
// arithmetic (it was unknown, "memory contents or arguments").
__kernel void arith(__global float *out)
{
	__local float grid[16][64];
	int l = get_local_id(0);
	int2 base = (int2)(l & 15, l >> 4);
	int2 p = base * (int2)(1, 2) + (int2)(0, 1);
	grid[p.x][p.y] = 1.0f;                // rows l & 15, columns 1 and 3: 16 passes
	uint4 s = (uint4)(l, l, 2, 3) << (uint4)(0, 1, 0, 0);
	barrier(CLK_LOCAL_MEM_FENCE);
	out[l] = grid[0][s.y & 63];           // words 2 l: two lanes a bank, 2 passes
}

// Swizzles (shufflevector in the IR): q.yx and q.zw are lanes of q.
__kernel void swizzle(__global float *out)
{
	__local float line[128];
	int l = get_local_id(0);
	int4 q = (int4)(l, 2 * l, 3, 4);
	int2 a = q.yx, b = q.zw;
	line[a.x & 127] = 1.0f;               // words 2 l: 2 passes
	line[b.y * 8 + (a.y & 7)] = 2.0f;     // words 32 + (l & 7), shared: 1 pass
	barrier(CLK_LOCAL_MEM_FENCE);
	out[l] = line[l];
}
