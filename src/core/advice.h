/* SPDX-License-Identifier: MIT */
/* What the model means for kernels: the padding and the XOR swizzle that make a column walk
 * through a tile conflict-free, and the measured slowdown of the lane tables involved. A tile
 * of W columns is walked by a whole sub-group (lane l reads row l), so it has max(W, sub-group)
 * rows. */
#ifndef CB_ADVICE_H
#define CB_ADVICE_H

#include "core/infer.h"
#include "core/result.h"

/* Rows of a tile of TILE columns walked by SUBGROUP lanes. */
unsigned cb_tile_rows(unsigned tile, unsigned subgroup);

/* Padding advice for element sizes 4, 8, 16 and tile widths 16, 32, 64 (up to
 * CB_MAX_PAD_ADVICE entries) from a banked inference of OP; returns the number written. */
unsigned cb_padding_advice(const cb_inference *inf, const cb_result *r, cb_op op,
			   cb_pad_advice *out);

/* Swizzle advice for the same tiles: the smallest swizzle (fewest bits, then smallest shift)
 * that makes the column read conflict-free under LOAD and the row write under STORE (LOAD when
 * STORE is NULL or not banked); returns the number written. */
unsigned cb_advise_swizzles(const cb_inference *load, const cb_inference *store, const cb_result *r,
			    cb_swizzle_advice *out);

/* The transpose check of one element size and tile: each variant's time per launch (NAN when
 * it was not run) and the fixes' speed-ups over the naive tile. */
typedef struct {
	unsigned elem_bytes, tile;
	long long pad, bits, shift, matrix;
	double naive_ns, padded_ns, swizzled_ns;
	double speedup_padded, speedup_swizzled;
	bool verified; /* every variant's result was checked */
} cb_transpose_summary;
#define CB_MAX_TRANSPOSE 8
/* The summaries of R's kernel checks, by element size and tile; returns how many. */
unsigned cb_transpose_summaries(const cb_result *r, cb_transpose_summary *out);

/* Passes of a column walk: lane l reads element l * PITCH (a tile row of PITCH elements). */
unsigned cb_column_walk_passes(const cb_inference *inf, unsigned subgroup, unsigned elem_bytes,
			       unsigned pitch);

#endif
