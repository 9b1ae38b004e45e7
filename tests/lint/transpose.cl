// SPDX-License-Identifier: MIT
// Tile transpose through __local memory: naive, padded and XOR-swizzled tiles. TILE_H rows of
// work-items (TILE_H == TILE: one element each; TILE_H < TILE: each loads TILE / TILE_H rows).
#ifndef TILE
#define TILE 32
#endif
#ifndef TILE_H
#define TILE_H TILE
#endif

__kernel void naive(__global const float *in, __global float *out, int n)
{
	__local float tile[TILE][TILE];
	int tx = get_local_id(0), ty = get_local_id(1);
	int x = get_group_id(0) * TILE + tx, y = get_group_id(1) * TILE + ty;
	for (int j = 0; j < TILE; j += TILE_H)
		tile[ty + j][tx] = in[(y + j) * n + x];
	barrier(CLK_LOCAL_MEM_FENCE);
	x = get_group_id(1) * TILE + tx;
	y = get_group_id(0) * TILE + ty;
	for (int j = 0; j < TILE; j += TILE_H)
		out[(y + j) * n + x] = tile[tx][ty + j];
}

__kernel void padded(__global const float *in, __global float *out, int n)
{
	__local float tile[TILE][TILE + 1];
	int tx = get_local_id(0), ty = get_local_id(1);
	int x = get_group_id(0) * TILE + tx, y = get_group_id(1) * TILE + ty;
	for (int j = 0; j < TILE; j += TILE_H)
		tile[ty + j][tx] = in[(y + j) * n + x];
	barrier(CLK_LOCAL_MEM_FENCE);
	x = get_group_id(1) * TILE + tx;
	y = get_group_id(0) * TILE + ty;
	for (int j = 0; j < TILE; j += TILE_H)
		out[(y + j) * n + x] = tile[tx][ty + j];
}

__kernel void swizzled(__global const float *in, __global float *out, int n)
{
	__local float tile[TILE][TILE];
	int tx = get_local_id(0), ty = get_local_id(1);
	int x = get_group_id(0) * TILE + tx, y = get_group_id(1) * TILE + ty;
	for (int j = 0; j < TILE; j += TILE_H)
		tile[ty + j][tx ^ ((ty + j) % TILE)] = in[(y + j) * n + x];
	barrier(CLK_LOCAL_MEM_FENCE);
	x = get_group_id(1) * TILE + tx;
	y = get_group_id(0) * TILE + ty;
	for (int j = 0; j < TILE; j += TILE_H)
		out[(y + j) * n + x] = tile[tx][(ty + j) ^ tx];
}
