/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/swizzle.h"

#include <stdio.h>

void cb_swizzle_column_lanes(uint32_t *lanes, unsigned n, unsigned elem_bytes, unsigned cols,
			     unsigned bits, unsigned shift, unsigned col)
{
	for (unsigned l = 0; l < n; l++)
		lanes[l] = (l * cols + cb_swizzle_column(l, col, bits, shift)) * elem_bytes;
}

void cb_swizzle_row_lanes(uint32_t *lanes, unsigned n, unsigned elem_bytes, unsigned cols,
			  unsigned bits, unsigned shift, unsigned row)
{
	for (unsigned l = 0; l < n; l++)
		lanes[l] = (row * cols + cb_swizzle_column(row, l % cols, bits, shift)) * elem_bytes;
}

void cb_swizzle_expr(const char *name, unsigned bits, unsigned shift, char *buf, unsigned long n)
{
	unsigned mask = (1u << bits) - 1u;
	if (shift)
		snprintf(buf, n, "%s[r][c ^ ((r >> %u) & %u)]", name, shift, mask);
	else
		snprintf(buf, n, "%s[r][c ^ (r & %u)]", name, mask);
}
