/* SPDX-License-Identifier: MIT */
/* clbanks' XOR swizzle family, shared by the plan, the advice and lint: element (r, c) of a
 * tile of C columns is stored at column c ^ ((r >> shift) & (2^bits - 1)) of row r, with 2^bits
 * dividing C, so every row keeps its elements (a permutation within the row) and no memory is
 * added. */
#ifndef CB_SWIZZLE_H
#define CB_SWIZZLE_H

#include <stdint.h>

static inline uint32_t cb_swizzle_column(uint32_t row, uint32_t col, unsigned bits, unsigned shift)
{
	return col ^ ((row >> shift) & ((1u << bits) - 1u));
}

/* A column walk through a swizzled tile: lane l reads row l, column COL. */
void cb_swizzle_column_lanes(uint32_t *lanes, unsigned n, unsigned elem_bytes, unsigned cols,
			     unsigned bits, unsigned shift, unsigned col);
/* A row write: lane l writes row ROW, column l (n <= cols). */
void cb_swizzle_row_lanes(uint32_t *lanes, unsigned n, unsigned elem_bytes, unsigned cols,
			  unsigned bits, unsigned shift, unsigned row);
/* The declaration's index expression: "tile[r][c ^ ((r >> 1) & 15)]", "tile[r][c ^ (r & 31)]". */
void cb_swizzle_expr(const char *name, unsigned bits, unsigned shift, char *buf, unsigned long n);

#endif
