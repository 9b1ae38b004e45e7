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

// Two undecidable branches, one inside the other's else side: three runs take the outer then
// side, the inner else side and the inner then side (32-way); every side is priced.
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

// An else-if chain on a flag that is not given, deeper than lint's runs (16): each run takes
// one side no run took yet; the last test's then side (a 32-way column read) is not executed
// and says so.
__kernel void chain(__global float *out, int flag)
{
	__local float tile[T][T];
	int x = get_local_id(0), y = get_local_id(1);
	float v;
	if (flag == 0)
		v = tile[y][x];
	else if (flag == 1)
		v = tile[y][x ^ 1];
	else if (flag == 2)
		v = tile[y][x ^ 2];
	else if (flag == 3)
		v = tile[y][x ^ 3];
	else if (flag == 4)
		v = tile[y][x ^ 4];
	else if (flag == 5)
		v = tile[y][x ^ 5];
	else if (flag == 6)
		v = tile[y][x ^ 6];
	else if (flag == 7)
		v = tile[y][x ^ 7];
	else if (flag == 8)
		v = tile[y][x ^ 8];
	else if (flag == 9)
		v = tile[y][x ^ 9];
	else if (flag == 10)
		v = tile[y][x ^ 10];
	else if (flag == 11)
		v = tile[y][x ^ 11];
	else if (flag == 12)
		v = tile[y][x ^ 12];
	else if (flag == 13)
		v = tile[y][x ^ 13];
	else if (flag == 14)
		v = tile[y][x ^ 14];
	else if (flag == 15)
		v = tile[x][y];
	else
		v = tile[y][31 - x];
	out[y * T + x] = v;
}

// A switch on a mode that is not given: run k of the work-group takes case k, the first run
// the default; the column read of case 2 is 32-way.
__kernel void modes(__global float *out, int mode)
{
	__local float tile[T][T];
	int x = get_local_id(0), y = get_local_id(1);
	float v;
	switch (mode) {
	case 0: v = tile[y][x]; break;
	case 1: v = tile[y][x ^ 7]; break;
	case 2: v = tile[x][y]; break;
	default: v = tile[y][T - 1 - x]; break;
	}
	out[y * T + x] = v;
}
