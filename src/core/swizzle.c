/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/swizzle.h"

#include <stdio.h>
#include <string.h>

void cb_swizzle_column_lanes(uint32_t *lanes, unsigned n, unsigned elem_bytes, unsigned cols,
			     unsigned bits, unsigned shift, unsigned col)
{
	for (unsigned l = 0; l < n; l++)
		lanes[l] = (l * cols + cb_swizzle_column_in(l, col, bits, shift, cols)) *
			   elem_bytes;
}

void cb_swizzle_column_expr_in(unsigned bits, unsigned shift, unsigned cols, char *buf,
			       unsigned long n)
{
	unsigned mask = (1u << bits) - 1u;
	char x[48];
	if (shift)
		snprintf(x, sizeof x, "c ^ ((r >> %u) & %u)", shift, mask);
	else
		snprintf(x, sizeof x, "c ^ (r & %u)", mask);
	if (cols && cols % (mask + 1u))
		snprintf(buf, n, "(%s) < %u ? %s : c", x, cols, x);
	else
		snprintf(buf, n, "%s", x);
}

void cb_swizzle_expr_in(const char *name, unsigned bits, unsigned shift, unsigned cols, char *buf,
			unsigned long n)
{
	char col[112];
	cb_swizzle_column_expr_in(bits, shift, cols, col, sizeof col);
	snprintf(buf, n, "%s[r][%s]", name, col);
}

void cb_swizzle_expr(const char *name, unsigned bits, unsigned shift, char *buf, unsigned long n)
{
	cb_swizzle_expr_in(name, bits, shift, 0, buf, n);
}

bool cb_fix_beats(double passes, unsigned long bytes, double best_passes, unsigned long best_bytes)
{
	return passes < best_passes || (passes == best_passes && bytes < best_bytes);
}

unsigned long cb_fix_bytes(const cb_fix *f, unsigned rows, unsigned elem_bytes)
{
	return f->swizzle ? 0 : (unsigned long)rows * f->pad * elem_bytes;
}

/* Keeps C in *BEST when it beats what is there: fewer total passes, then less memory. */
static void keep(const cb_fix_space *s, const cb_fix *c, const cb_fix_score *sc, bool *found,
		 cb_fix *best, cb_fix_score *score)
{
	if (*found &&
	    !cb_fix_beats(sc->total_passes, cb_fix_bytes(c, s->rows, s->elem_bytes),
			  score->total_passes, cb_fix_bytes(best, s->rows, s->elem_bytes)))
		return;
	*found = true;
	*best = *c;
	*score = *sc;
}

static void consider(const cb_fix_space *s, const cb_fix *c, const cb_fix_score *sc,
		     cb_fix_result *out)
{
	keep(s, c, sc, &out->best_found, &out->best, &out->best_score);
	if (c->swizzle)
		keep(s, c, sc, &out->swizzle_best_found, &out->swizzle_best,
		     &out->swizzle_best_score);
	else
		keep(s, c, sc, &out->pad_best_found, &out->pad_best, &out->pad_best_score);
}

/* Each kind stops at its first candidate at the minimum: no later one of that kind can beat
 * it (the same passes, no less memory). */
void cb_fix_search(const cb_fix_space *s, cb_fix_judge judge, void *ctx, cb_fix_result *out)
{
	memset(out, 0, sizeof *out);
	cb_fix_score sc;
	for (unsigned p = s->min_pad; p <= s->max_pad && !out->pad_found; p++) {
		cb_fix c = { false, p, 0, 0 };
		if (!judge(ctx, &c, &sc))
			continue;
		consider(s, &c, &sc, out);
		if (sc.at_minimum && !out->pad_found) {
			out->pad_found = true;
			out->pad = c;
			out->pad_score = sc;
		}
	}
	for (unsigned bits = 1; bits < 32 && (1u << bits) <= s->cols && !out->swizzle_found; bits++)
		for (unsigned shift = 0; (s->rows >> shift) >= 2 && !out->swizzle_found; shift++) {
			cb_fix c = { true, 0, bits, shift };
			if (!judge(ctx, &c, &sc))
				continue;
			consider(s, &c, &sc, out);
			if (sc.at_minimum && !out->swizzle_found) {
				out->swizzle_found = true;
				out->swizzle = c;
				out->swizzle_score = sc;
			}
		}
}
