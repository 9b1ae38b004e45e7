/* SPDX-License-Identifier: MIT */
/*
 * clbanks' check of its advice on a kernel a user would write (OpenCL C 1.2): a tiled matrix
 * transpose through __local memory, the classic bank-conflict example. A work-group of
 * CB_TILE x CB_ROWS work-items copies a CB_TILE x CB_TILE tile of IN into __local memory row by
 * row (each work-item CB_TILE / CB_ROWS elements), and writes it to OUT column by column, so
 * the lanes of a sub-group read one column of the tile: CB_TILE apart.
 *
 *   cb_transpose_naive      T tile[CB_TILE][CB_TILE]
 *   cb_transpose_padded     T tile[CB_TILE][CB_TILE + CB_PAD]
 *   cb_transpose_swizzled   T tile[CB_TILE][CB_TILE], element (r, c) at column
 *                           c ^ ((r >> CB_SHIFT) & CB_MASK)  (clbanks' XOR swizzle family)
 *
 * and, without __local memory, the check's input and its verification on the device (the
 * host reads back a flag and one row, not the whole matrix):
 *
 *   cb_transpose_fill       element i of M is CB_HASH(i ^ salt): the input (salt 0), or an
 *                           output cleared to values no transpose gives (salt 2^31)
 *   cb_transpose_verify     *bad = 1 unless OUT is the transpose of the input
 *
 * Build options: -DCB_ELEM=uint|ulong with -DCB_ELEM_BYTES=4|8 (the 4- and 8-byte elements:
 * float and double moved as bits, so no cl_khr_fp64 is needed), -DCB_TILE=T, -DCB_ROWS=R (T a multiple of R), -DCB_PAD=P,
 * -DCB_MASK=M (2^bits - 1, dividing the tile's width), -DCB_SHIFT=S. N, the matrix's order, is a
 * multiple of CB_TILE.
 */
#ifndef CB_ELEM
#define CB_ELEM uint
#endif
#ifndef CB_ELEM_BYTES
#define CB_ELEM_BYTES 4
#endif
#ifndef CB_TILE
#define CB_TILE 32
#endif
#ifndef CB_ROWS
#define CB_ROWS 8
#endif
#ifndef CB_PAD
#define CB_PAD 1
#endif
#ifndef CB_MASK
#define CB_MASK (CB_TILE - 1)
#endif
#ifndef CB_SHIFT
#define CB_SHIFT 0
#endif
#if CB_TILE % CB_ROWS != 0
#error "CB_TILE must be a multiple of CB_ROWS"
#endif

#define CB_SWIZZLE(r, c) ((c) ^ (((r) >> CB_SHIFT) & CB_MASK))

/* Element I of the input: a hash of I (a bijection of 32-bit values), and I itself in the high
 * half of an 8-byte element, so that a misplaced element shows. The host checks a row with the
 * same rule (transpose.c). */
#if CB_ELEM_BYTES == 8
#define CB_HASH(i) ((CB_ELEM)(((ulong)(i) << 32) | (uint)((uint)(i) * 2654435761u)))
#else
#define CB_HASH(i) ((CB_ELEM)((uint)(i) * 2654435761u))
#endif

__kernel void cb_transpose_fill(__global CB_ELEM *m, const uint n, const uint salt)
{
	const uint i = (uint)get_global_id(1) * n + (uint)get_global_id(0);
	m[i] = CB_HASH(i ^ salt);
}

/* OUT (row y, column x) holds the input's element of row x, column y. */
__kernel void cb_transpose_verify(__global const CB_ELEM *out, const uint n, __global uint *bad)
{
	const uint x = (uint)get_global_id(0), y = (uint)get_global_id(1);
	if (out[y * n + x] != CB_HASH(x * n + y))
		*bad = 1;
}

__kernel __attribute__((reqd_work_group_size(CB_TILE, CB_ROWS, 1)))
void cb_transpose_naive(__global const CB_ELEM *in, __global CB_ELEM *out, const uint n)
{
	__local CB_ELEM tile[CB_TILE][CB_TILE];
	const uint tx = (uint)get_local_id(0), ty = (uint)get_local_id(1);
	const uint bx = (uint)get_group_id(0) * CB_TILE, by = (uint)get_group_id(1) * CB_TILE;
	for (uint j = 0; j < CB_TILE; j += CB_ROWS)
		tile[ty + j][tx] = in[(by + ty + j) * n + bx + tx];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint j = 0; j < CB_TILE; j += CB_ROWS)
		out[(bx + ty + j) * n + by + tx] = tile[tx][ty + j];
}

__kernel __attribute__((reqd_work_group_size(CB_TILE, CB_ROWS, 1)))
void cb_transpose_padded(__global const CB_ELEM *in, __global CB_ELEM *out, const uint n)
{
	__local CB_ELEM tile[CB_TILE][CB_TILE + CB_PAD];
	const uint tx = (uint)get_local_id(0), ty = (uint)get_local_id(1);
	const uint bx = (uint)get_group_id(0) * CB_TILE, by = (uint)get_group_id(1) * CB_TILE;
	for (uint j = 0; j < CB_TILE; j += CB_ROWS)
		tile[ty + j][tx] = in[(by + ty + j) * n + bx + tx];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint j = 0; j < CB_TILE; j += CB_ROWS)
		out[(bx + ty + j) * n + by + tx] = tile[tx][ty + j];
}

__kernel __attribute__((reqd_work_group_size(CB_TILE, CB_ROWS, 1)))
void cb_transpose_swizzled(__global const CB_ELEM *in, __global CB_ELEM *out, const uint n)
{
	__local CB_ELEM tile[CB_TILE][CB_TILE];
	const uint tx = (uint)get_local_id(0), ty = (uint)get_local_id(1);
	const uint bx = (uint)get_group_id(0) * CB_TILE, by = (uint)get_group_id(1) * CB_TILE;
	for (uint j = 0; j < CB_TILE; j += CB_ROWS)
		tile[ty + j][CB_SWIZZLE(ty + j, tx)] = in[(by + ty + j) * n + bx + tx];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint j = 0; j < CB_TILE; j += CB_ROWS)
		out[(bx + ty + j) * n + by + tx] = tile[tx][CB_SWIZZLE(tx, ty + j)];
}
