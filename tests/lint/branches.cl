// SPDX-License-Identifier: MIT
// Branches lint cannot decide (issue 31, points 1 and 2): an early return on a bound that is
// not given, and an if / else on a flag that is not given. Every side is code that runs.
#define T 32

// A guarded transpose: the read after the early return is 32-way on a 32 x 32 tile.
__kernel void guarded(__global const float *in, __global float *out, int n)
{
	__local float tile[T][T];
	int x = get_local_id(0), y = get_local_id(1);
	int gid = get_global_id(1) * get_global_size(0) + get_global_id(0);
	if (gid >= n)
		return;
	tile[y][x] = in[gid];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[gid] = tile[x][y];
}

// Both sides of an undecidable if / else touch the tile: the then side by rows
// (conflict-free), the else side by columns (32-way).
__kernel void sides(__global float *out, int flag)
{
	__local float tile[T][T];
	int x = get_local_id(0), y = get_local_id(1);
	tile[y][x] = (float)x;
	barrier(CLK_LOCAL_MEM_FENCE);
	float v;
	if (flag > 0)
		v = tile[y][x] + 1.0f;
	else
		v = tile[x][y] - 1.0f;
	out[y * T + x] = v;
}

// Two undecidable branches, one inside the other's else side: the runs take the outer then
// side and the inner else side; the inner then side is taken by neither and says so.
__kernel void nested(__global float *out, int flag)
{
	__local float tile[T][T];
	int x = get_local_id(0), y = get_local_id(1);
	tile[y][x] = (float)x;
	barrier(CLK_LOCAL_MEM_FENCE);
	float v;
	if (flag > 0) {
		v = tile[y][x];
	} else {
		if (flag < -5)
			v = tile[x][y];
		else
			v = tile[y][T - 1 - x];
	}
	out[y * T + x] = v;
}
