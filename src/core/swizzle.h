/* SPDX-License-Identifier: MIT */
/* clbanks' fixes for a tile, shared by the plan, the advice and lint, and the one search over
 * them. A row padding of p elements stores element (r, c) of a tile of C columns at
 * r * (C + p) + c. The XOR swizzle family stores it at column c ^ m of row r, with
 * m = (r >> shift) & (2^bits - 1) and 2^bits at most C, so every row keeps its elements (a
 * permutation within the row) and no memory is added. When 2^bits does not divide C (odd
 * widths, 24, ...), a column whose partner c ^ m lies past the row's end stays where it is:
 * XOR is its own inverse, so that is still a permutation. */
#ifndef CB_SWIZZLE_H
#define CB_SWIZZLE_H

#include <stdbool.h>
#include <stdint.h>

static inline uint32_t cb_swizzle_column(uint32_t row, uint32_t col, unsigned bits, unsigned shift)
{
	return col ^ ((row >> shift) & ((1u << bits) - 1u));
}

/* The same in a row of COLS columns: a partner past the row's end leaves COL in place. */
static inline uint32_t cb_swizzle_column_in(uint32_t row, uint32_t col, unsigned bits,
					    unsigned shift, uint32_t cols)
{
	uint32_t s = cb_swizzle_column(row, col, bits, shift);
	return s < cols ? s : col;
}

/* A column walk through a swizzled tile: lane l reads row l, column COL. */
void cb_swizzle_column_lanes(uint32_t *lanes, unsigned n, unsigned elem_bytes, unsigned cols,
			     unsigned bits, unsigned shift, unsigned col);
/* The swizzled column: "c ^ ((r >> 1) & 15)", "c ^ (r & 31)"; in a row of COLS columns that
 * 2^bits does not divide, "(c ^ (r & 1)) < 3 ? c ^ (r & 1) : c" (COLS 0: one it divides). */
void cb_swizzle_column_expr_in(unsigned bits, unsigned shift, unsigned cols, char *buf,
			       unsigned long n);
/* The declaration's index expression: "tile[r][c ^ ((r >> 1) & 15)]", "tile[r][c ^ (r & 31)]". */
void cb_swizzle_expr(const char *name, unsigned bits, unsigned shift, char *buf, unsigned long n);
void cb_swizzle_expr_in(const char *name, unsigned bits, unsigned shift, unsigned cols, char *buf,
			unsigned long n);

/* One fix: a row padding (swizzle false) or a swizzle. */
typedef struct {
	bool swizzle;
	unsigned pad; /* elements added to each row */
	unsigned bits, shift;
} cb_fix;

/* Element index of (ROW, COL) of a tile of COLS columns under FIX. */
static inline uint32_t cb_fix_index(const cb_fix *f, uint32_t row, uint32_t col, uint32_t cols)
{
	if (!f->swizzle)
		return row * (cols + f->pad) + col;
	return row * cols + cb_swizzle_column_in(row, col, f->bits, f->shift, cols);
}

/* Where the search looks: paddings MIN_PAD..MAX_PAD elements, then every swizzle of the family
 * for a ROWS x COLS tile, any COLS (fewest bits first, 2^bits at most COLS; then the smallest
 * shift, R >> shift at least 2). */
typedef struct {
	unsigned rows, cols, elem_bytes;
	unsigned min_pad, max_pad;
} cb_fix_space;

/* How a candidate does on every access it is judged on. */
typedef struct {
	bool at_minimum;     /* every access at the minimum the judge asks for */
	double total_passes; /* passes over the accesses, weighted by how often each runs */
	unsigned worst_passes;
} cb_fix_score;

/* Prices every access under FIX; false when it cannot (the candidate is then skipped). */
typedef bool (*cb_fix_judge)(void *ctx, const cb_fix *fix, cb_fix_score *score);

typedef struct {
	bool pad_found; /* the smallest padding at the minimum */
	cb_fix pad;
	cb_fix_score pad_score;
	bool swizzle_found; /* the first swizzle at the minimum */
	cb_fix swizzle;
	cb_fix_score swizzle_score;
	bool best_found; /* the fewest total passes, then the least memory, then the order */
	cb_fix best;
	cb_fix_score best_score;
	bool pad_best_found; /* the same among paddings, and among swizzles */
	cb_fix pad_best;
	cb_fix_score pad_best_score;
	bool swizzle_best_found;
	cb_fix swizzle_best;
	cb_fix_score swizzle_best_score;
} cb_fix_result;

/* The one search (advice and lint): each candidate of SPACE in order, judged by JUDGE. */
void cb_fix_search(const cb_fix_space *space, cb_fix_judge judge, void *ctx, cb_fix_result *out);
/* Does a fix of PASSES in all and BYTES of memory beat the best so far? Fewer passes, then
 * less memory: the order of the one search, and of lint's choice across row widths. */
bool cb_fix_beats(double passes, unsigned long bytes, double best_passes, unsigned long best_bytes);
/* Bytes a fix adds to a tile of ROWS rows. */
unsigned long cb_fix_bytes(const cb_fix *f, unsigned rows, unsigned elem_bytes);

#endif
