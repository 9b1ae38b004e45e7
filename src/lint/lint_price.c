/* SPDX-License-Identifier: MIT */
/* Pricing. When a sub-group's last work-item ends, each (site, iteration key) it reached is
 * one sub-group access: its lanes (consecutive linear ids, those that did not reach it left
 * out but in place) are priced with the pricer, with the conflict-free minimum (the same
 * lanes reading consecutive elements), and folded into the site's summaries.
 *
 * The fix for a conflicting access into a __local 2-D array T a[R][C] is searched with the
 * same pricer over every sub-group access the work-group made: the smallest row padding p
 * (offsets row * (C + p) + col) that takes each to its minimum, and the XOR swizzle
 * a[r][c ^ ((r >> shift) & mask)] of clbanks' family (mask = 2^bits - 1, 2^bits dividing C,
 * R >> shift at least 2) that does, fewest bits first, then smallest shift. */
#include "config.h"
#include "lint/lint_price.h"
#include "core/swizzle.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_why(cb_site_rec *s, cb_why why, int64_t lo, int64_t hi)
{
	s->unknown = true;
	if (s->why == CB_WHY_NONE) {
		s->why = why;
		s->why_lo = lo;
		s->why_hi = hi;
	}
}

/* What stops the sub-group access from being priced (CB_WHY_NONE: nothing), and its lanes'
 * offsets in r->offsets. */
static cb_why check_lanes(const cb_recorder *r, const cb_site *site, const cb_lane_rec *lanes,
			  unsigned nl, int64_t *lo, int64_t *hi)
{
	cb_why why = CB_WHY_NONE;
	int32_t obj = -1;
	for (unsigned l = 0; l < nl; l++) {
		const cb_lane_rec *x = &lanes[l];
		r->offsets[l] = 0;
		if (!x->state)
			continue;
		if (x->state == 2 && why == CB_WHY_NONE)
			why = CB_WHY_AMBIGUOUS;
		if (x->obj < CB_OBJ_FIRST || x->obj >= CB_OBJ_FIRST + (int32_t)r->prog->nobjects) {
			why = CB_WHY_POINTER;
			continue;
		}
		if (obj >= 0 && x->obj != obj && why != CB_WHY_POINTER)
			why = CB_WHY_OBJECTS;
		obj = x->obj;
		*lo = x->lo < *lo ? x->lo : *lo;
		*hi = x->hi > *hi ? x->hi : *hi;
		if (x->lo != x->hi) {
			if (why == CB_WHY_NONE || why == CB_WHY_BOUNDS)
				why = CB_WHY_DATA;
			continue;
		}
		const cb_lint_object *o = &r->prog->objects[x->obj - CB_OBJ_FIRST];
		if (x->lo < 0 || x->lo > UINT32_MAX - 64 ||
		    (o->bytes && (uint64_t)x->lo + site->elem_bytes > o->bytes)) {
			if (why == CB_WHY_NONE)
				why = CB_WHY_BOUNDS;
			continue;
		}
		r->offsets[l] = (uint32_t)x->lo;
	}
	return why;
}

static void keep_first(const cb_recorder *r, cb_site_rec *s, const cb_lane_rec *lanes,
		       unsigned nl)
{
	s->first_sg = r->sg;
	s->nfirst = nl;
	s->first = cb_xcalloc(nl, sizeof *s->first);
	for (unsigned l = 0; l < nl; l++) {
		s->first[l].active = lanes[l].state != 0;
		s->first[l].known = lanes[l].state && lanes[l].lo == lanes[l].hi &&
				    lanes[l].obj >= CB_OBJ_FIRST;
		s->first[l].lo = lanes[l].lo;
		s->first[l].hi = lanes[l].hi;
	}
}

/* Rows and columns of a priced sub-group access into a 2-D array, for the fix search. */
static void keep_fix(cb_recorder *r, cb_site_rec *s, const cb_site *site,
		     const cb_lane_rec *lanes, unsigned nl, int32_t obj)
{
	if (!s->fix_ok)
		return;
	const cb_lint_object *o = &r->prog->objects[obj - CB_OBJ_FIRST];
	if (o->rank != 2 || o->elem_bytes != site->elem_bytes) {
		snprintf(s->fix_note, sizeof s->fix_note, "%s is not a 2-D array of %u-byte elements",
			 o->name, site->elem_bytes);
		s->fix_ok = false;
		return;
	}
	if (r->fix_words + nl + 1 > CB_FIX_WORDS) {
		snprintf(s->fix_note, sizeof s->fix_note, "too many sub-group accesses to search");
		s->fix_ok = false;
		free(s->fix);
		s->fix = NULL;
		s->nfix = s->fixcap = 0;
		return;
	}
	r->fix_words += nl + 1;
	if (s->nfix + nl + 1 > s->fixcap) {
		s->fixcap = (s->nfix + nl + 1) * 2;
		s->fix = cb_xrealloc(s->fix, s->fixcap * sizeof *s->fix);
	}
	s->fix[s->nfix++] = nl;
	for (unsigned l = 0; l < nl; l++) {
		const cb_lane_rec *x = &lanes[l];
		if (x->state && (x->row < 0 || x->col < 0 || x->row > 0xFFFF || x->col > 0xFFFF)) {
			snprintf(s->fix_note, sizeof s->fix_note,
				 "the access does not index %s as %s[row][column]", o->name, o->name);
			s->fix_ok = false;
			return;
		}
		s->fix[s->nfix++] = x->state ? (uint32_t)x->row << 16 | (uint32_t)x->col : UINT32_MAX;
	}
}

static void price_key(cb_recorder *r, uint32_t site_index, uint32_t k, unsigned nl)
{
	cb_site_rec *s = &r->sites[site_index];
	const cb_site *site = &r->prog->sites[site_index];
	cb_lane_rec *lanes = &r->pool[(size_t)s->block[k] * r->subgroup];
	cb_key_sum *sum = &s->sum[k];
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	cb_why why = check_lanes(r, site, lanes, nl, &lo, &hi);
	bool assumed = false;
	int32_t obj = CB_OBJ_NONE;
	for (unsigned l = 0; l < nl; l++) {
		r->active[l] = lanes[l].state != 0;
		r->seq[l] = l * site->elem_bytes;
		if (lanes[l].state && lanes[l].assumed) {
			assumed = true;
			if (!s->assumed_line)
				s->assumed_line = lanes[l].line;
		}
		if (lanes[l].state && lanes[l].obj >= CB_OBJ_FIRST) {
			s->obj = s->obj < 0 || s->obj == lanes[l].obj ? lanes[l].obj : CB_OBJ_MULTI;
			obj = lanes[l].obj;
		}
	}
	if (!s->first)
		keep_first(r, s, lanes, nl);
	if (lo <= hi) {
		s->lo = s->any ? (lo < s->lo ? lo : s->lo) : lo;
		s->hi = s->any ? (hi > s->hi ? hi : s->hi) : hi;
		s->any = true;
	}
	s->range_known &= why == CB_WHY_NONE || why == CB_WHY_BOUNDS;
	sum->reached = true;
	sum->assumed |= assumed;
	s->assumed |= assumed;
	unsigned passes = 0, minp = 0, ignore;
	const cb_lint_pricer *p = r->pricer;
	if (site->op == CB_LINT_CALL)
		why = CB_WHY_CALL; /* what the function does is not seen: never priced */
	else if (!p->price(p, site->op, site->elem_bytes, r->seq, r->active, nl, &minp, &ignore))
		why = CB_WHY_MODEL;
	else if (why == CB_WHY_NONE &&
		 !p->price(p, site->op, site->elem_bytes, r->offsets, r->active, nl, &passes, &minp))
		why = CB_WHY_MODEL;
	sum->min_passes = minp > sum->min_passes ? minp : sum->min_passes;
	s->min_max = minp > s->min_max ? minp : s->min_max;
	if (why != CB_WHY_NONE) {
		sum->unknown = true;
		set_why(s, why, lo, hi);
		return;
	}
	sum->passes = passes > sum->passes ? passes : sum->passes;
	s->passes_max = passes > s->passes_max ? passes : s->passes_max;
	unsigned ways = minp ? (passes + minp - 1) / minp : passes;
	s->ways = ways > s->ways ? ways : s->ways;
	s->conflict |= passes > minp;
	s->priced = true;
	if (r->observe) {
		cb_lint_sample x = { site->file, site->line, site->column, site->op, site->elem_bytes,
				     r->sg, k, nl, r->offsets, r->active, passes, minp };
		r->observe(r->observe_ctx, &x);
	}
	keep_fix(r, s, site, lanes, nl, obj);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

void cb_rec_flush(cb_recorder *r, unsigned nlanes)
{
	for (uint32_t i = 0; i < r->prog->nsites; i++) {
		cb_site_rec *s = &r->sites[i];
		if (!s->ntouched)
			continue;
		s->subgroups++;
		qsort(s->touched, s->ntouched, sizeof *s->touched, cmp_u32);
		for (uint32_t t = 0; t < s->ntouched; t++)
			price_key(r, i, s->touched[t], nlanes);
		s->ntouched = 0;
	}
	r->pool_used = 0;
	r->sg++;
}

typedef struct {
	bool swizzle;
	unsigned pad, bits, shift;
} candidate;

static uint32_t column(const candidate *c, uint32_t row, uint32_t col, uint32_t cols)
{
	if (!c->swizzle)
		return row * (cols + c->pad) + col;
	return row * cols + cb_swizzle_column(row, col, c->bits, c->shift);
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
