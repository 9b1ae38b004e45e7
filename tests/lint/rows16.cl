// SPDX-License-Identifier: MIT
// A 16 x 16 work-group: each 32-lane sub-group spans two rows of the tile.
__kernel void rows16(__global float *out)
{
	__local float tile[16][16];
	int x = get_local_id(0), y = get_local_id(1);
	tile[y][x] = x + y;
	barrier(CLK_LOCAL_MEM_FENCE);
	out[y * 16 + x] = tile[x][y];
}
