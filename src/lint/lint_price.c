/* SPDX-License-Identifier: MIT */
/* The fix for a conflicting access into a __local 2-D array T a[R][C], searched with the same
 * pricer over every sub-group access the work-group made: the smallest row padding p
 * (offsets row * (C + p) + col) that takes each to its minimum, and the XOR swizzle
 * a[r][c ^ ((r >> shift) & mask)] of clbanks' family (mask = 2^bits - 1, 2^bits dividing C,
 * R >> shift at least 2) that does, fewest bits first, then smallest shift. */
#include "config.h"
#include "lint/lint_record.h"

#include <stdio.h>
#include <string.h>

typedef struct {
	bool swizzle;
	unsigned pad, bits, shift;
} candidate;

static uint32_t column(const candidate *c, uint32_t row, uint32_t col, uint32_t cols)
{
	if (!c->swizzle)
		return row * (cols + c->pad) + col;
	return row * cols + (col ^ ((row >> c->shift) & ((1u << c->bits) - 1)));
}

/* Every sub-group access at its minimum with candidate C; *worst: the most passes. */
static bool conflict_free(cb_recorder *r, const cb_site_rec *s, const cb_site *site,
			  const cb_lint_object *o, const candidate *c, unsigned *worst)
{
	const cb_lint_pricer *p = r->pricer;
	*worst = 0;
	for (size_t at = 0; at < s->nfix;) {
		unsigned nl = s->fix[at++];
		for (unsigned l = 0; l < nl; l++) {
			uint32_t x = s->fix[at + l];
			r->active[l] = x != UINT32_MAX;
			r->offsets[l] = r->active[l] ?
				column(c, x >> 16, x & 0xFFFF, o->dims[1]) * site->elem_bytes : 0;
		}
		at += nl;
		unsigned passes, minp;
		if (!p->price(p, site->op, site->elem_bytes, r->offsets, r->active, nl, &passes, &minp) ||
		    passes > minp)
			return false;
		*worst = passes > *worst ? passes : *worst;
	}
	return true;
}

static void search(cb_recorder *r, const cb_site_rec *s, const cb_site *site,
		   const cb_lint_object *o, cb_lint_fix *fix)
{
	unsigned period = r->pricer->period ? r->pricer->period : 256;
	unsigned max_pad = period / site->elem_bytes ? period / site->elem_bytes : 1;
	unsigned rows = o->dims[0], cols = o->dims[1], worst;
	for (unsigned p = 1; p <= max_pad; p++) {
		candidate c = { false, p, 0, 0 };
		if (conflict_free(r, s, site, o, &c, &worst)) {
			fix->pad_found = true;
			fix->pad = p;
			fix->pad_passes = worst;
			fix->pad_bytes = (uint64_t)rows * p * o->elem_bytes;
			break;
		}
	}
	for (unsigned bits = 1; (1u << bits) <= cols && cols % (1u << bits) == 0 && !fix->swizzle_found;
	     bits++)
		for (unsigned shift = 0; (rows >> shift) >= 2 && !fix->swizzle_found; shift++) {
			candidate c = { true, 0, bits, shift };
			if (conflict_free(r, s, site, o, &c, &worst)) {
				fix->swizzle_found = true;
				fix->bits = bits;
				fix->shift = shift;
				fix->swizzle_passes = worst;
			}
		}
	if (!fix->pad_found && !fix->swizzle_found)
		snprintf(fix->note, sizeof fix->note,
			 "no padding up to %u elements and no XOR swizzle makes it conflict-free",
			 max_pad);
}

void cb_fix_search(cb_recorder *r, uint32_t index, cb_lint_fix *fix)
{
	const cb_site_rec *s = &r->sites[index];
	const cb_site *site = &r->prog->sites[index];
	memset(fix, 0, sizeof *fix);
	fix->wanted = s->conflict && !s->unknown;
	if (!fix->wanted)
		return;
	if (s->obj < CB_OBJ_FIRST || !s->fix_ok) {
		snprintf(fix->note, sizeof fix->note, "%s",
			 s->fix_ok ? "the lanes do not index one array" : s->fix_note);
		return;
	}
	const cb_lint_object *o = &r->prog->objects[s->obj - CB_OBJ_FIRST];
	fix->computed = true;
	search(r, s, site, o, fix);
}
