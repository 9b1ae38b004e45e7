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
#include "lint/lint_lang.h"
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
			why = x->unseen              ? CB_WHY_UNSEEN
			      : why == CB_WHY_UNSEEN ? why
						     : CB_WHY_POINTER;
			continue;
		}
		if (obj >= 0 && x->obj != obj && why != CB_WHY_POINTER && why != CB_WHY_UNSEEN)
			why = CB_WHY_OBJECTS;
		obj = x->obj;
		*lo = x->lo < *lo ? x->lo : *lo;
		*hi = x->hi > *hi ? x->hi : *hi;
		if (x->lo != x->hi) {
			if (x->unseen &&
			    (why == CB_WHY_NONE || why == CB_WHY_BOUNDS || why == CB_WHY_DATA))
				why = CB_WHY_UNSEEN;
			else if (why == CB_WHY_NONE || why == CB_WHY_BOUNDS)
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

static void keep_first(const cb_recorder *r, cb_site_rec *s, const cb_lane_rec *lanes, unsigned nl)
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

/* What the fix search keeps of one lane: row << 16 | column for a 2-D array, the element
 * index for a 1-D one; false when the lane's offset does not say. */
static bool fix_word(const cb_lint_object *o, const cb_lane_rec *x, uint32_t *w)
{
	if (o->rank == 2) {
		if (x->row < 0 || x->col < 0 || x->row > 0xFFFF || x->col > 0xFFFF)
			return false;
		*w = (uint32_t)x->row << 16 | (uint32_t)x->col;
		return true;
	}
	if (x->lo < 0 || x->lo % o->elem_bytes || x->lo / o->elem_bytes >= UINT32_MAX)
		return false;
	*w = (uint32_t)(x->lo / o->elem_bytes);
	return true;
}

static void drop_fix(cb_site_rec *s)
{
	s->fix_ok = false;
	free(s->fix);
	s->fix = NULL;
	s->nfix = s->fixcap = 0;
}

/* Why object OBJ of P, used through a pointer (rank 0), has no fix: what the kernel has, a
 * __local pointer argument or (CUDA, HIP) an extern __shared__ array of run-time size. */
static void no_rows(char *note, size_t n, const cb_prog *p, int32_t obj)
{
	uint32_t k = (uint32_t)(obj - CB_OBJ_FIRST);
	snprintf(note, n, "%s is %s: the rows it is used as are not declared", p->objects[k].name,
		 cb_lint_lang_dynamic_shared(p, k) ? "an extern __shared__ array of run-time size"
						   : "a __local pointer argument");
}

/* The lanes of a priced sub-group access into a 1-D or 2-D array, for the fix search. */
static void keep_fix(cb_recorder *r, cb_site_rec *s, const cb_site *site, const cb_lane_rec *lanes,
		     unsigned nl, int32_t obj)
{
	if (!s->fix_ok)
		return;
	const cb_lint_object *o = &r->prog->objects[obj - CB_OBJ_FIRST];
	if (o->rank == 0) {
		no_rows(s->fix_note, sizeof s->fix_note, r->prog, obj);
		drop_fix(s);
		return;
	}
	if ((o->rank != 1 && o->rank != 2) || o->elem_bytes != site->elem_bytes) {
		snprintf(s->fix_note, sizeof s->fix_note,
			 o->rank != 1 && o->rank != 2 ? "%s is not a 1-D or 2-D array"
						      : "%s's elements are not accessed whole "
							"(%u-byte accesses)",
			 o->name, site->elem_bytes);
		drop_fix(s);
		return;
	}
	if (r->fix_words + nl + 1 > CB_FIX_WORDS) {
		snprintf(s->fix_note, sizeof s->fix_note, "too many sub-group accesses to search");
		drop_fix(s);
		return;
	}
	r->fix_words += nl + 1;
	if (s->nfix + nl + 1 > s->fixcap) {
		s->fixcap = (s->nfix + nl + 1) * 2;
		s->fix = cb_xrealloc(s->fix, s->fixcap * sizeof *s->fix);
	}
	s->fix[s->nfix++] = nl;
	for (unsigned l = 0; l < nl; l++) {
		uint32_t w = UINT32_MAX;
		if (lanes[l].state && !fix_word(o, &lanes[l], &w)) {
			snprintf(s->fix_note, sizeof s->fix_note,
				 o->rank == 2 ? "the access does not index %s as %s[row][column]"
					      : "the access does not index %s by whole elements",
				 o->name, o->name);
			drop_fix(s);
			return;
		}
		s->fix[s->nfix++] = w;
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
		if (lanes[l].state && (why == CB_WHY_UNSEEN || s->why == CB_WHY_UNSEEN))
			s->unseen_calls |= lanes[l].unseen & CB_VF_CALLEES;
		if (lanes[l].state && lanes[l].lo != lanes[l].hi)
			s->causes |= lanes[l].cause;
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
	else if (why == CB_WHY_NONE && !p->price(p, site->op, site->elem_bytes, r->offsets,
						 r->active, nl, &passes, &minp))
		why = CB_WHY_MODEL;
	/* Lanes that share words (broadcast) can take fewer passes than distinct consecutive
	 * elements: such an access is at its minimum, never below it. */
	if (why == CB_WHY_NONE && passes < minp)
		minp = passes;
	sum->min_passes = minp > sum->min_passes ? minp : sum->min_passes;
	s->min_max = minp > s->min_max ? minp : s->min_max;
	if (why != CB_WHY_NONE) {
		sum->unknown = true;
		set_why(s, why, lo, hi);
		return;
	}
	if (passes > s->passes_max && s->priced) {
		/* the lanes shown are the worst sub-group access's, not merely the first's */
		free(s->first);
		keep_first(r, s, lanes, nl);
	}
	s->total += passes;
	s->total_min += minp;
	sum->passes = passes > sum->passes ? passes : sum->passes;
	s->passes_max = passes > s->passes_max ? passes : s->passes_max;
	unsigned ways = minp ? (passes + minp - 1) / minp : passes;
	s->ways = ways > s->ways ? ways : s->ways;
	s->conflict |= passes > minp;
	s->priced = true;
	if (r->observe) {
		cb_lint_sample x = {
			site->file, site->line, site->column, site->op,  site->elem_bytes, r->sg,
			k,          nl,         r->offsets,   r->active, passes,           minp
		};
		r->observe(r->observe_ctx, &x);
	}
	if (r->keep_tables)
		cb_lint_tables_add(&s->tables, r->offsets, r->active, nl, passes, minp);
	keep_fix(r, s, site, lanes, nl, obj);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void flush_one(cb_recorder *r, unsigned nlanes)
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

void cb_rec_flush(cb_recorder *r, unsigned nlanes)
{
	for (; r; r = r->next)
		flush_one(r, nlanes);
}

/* The fix search of one array: its sites, judged together under a candidate. */
typedef struct {
	cb_recorder *r;
	const cb_lint_object *o;
	int32_t obj;
	unsigned cols;              /* the row width judged */
	unsigned *site_worst;       /* when not NULL: each site's worst passes under the fix */
	cb_lint_tables *site_fixed; /* when not NULL: each site's lane tables under the fix */
	cb_recorder *const *more;   /* the search across models: these recorders too (r is
				   * more[0]), each candidate's passes summed over them */
	size_t nmore;
} array_ctx;

static bool judged(const cb_site_rec *s, int32_t obj)
{
	return s->obj == obj && s->priced && !s->unknown && s->fix_ok;
}

/* Every sub-group access of site I under FIX, added to SC. */
static bool judge_site(const array_ctx *x, uint32_t i, const cb_fix *fix, cb_fix_score *sc)
{
	cb_recorder *r = x->r;
	const cb_site_rec *s = &r->sites[i];
	const cb_site *site = &r->prog->sites[i];
	const cb_lint_pricer *pr = r->pricer;
	bool two_d = x->o->rank == 2;
	for (size_t at = 0; at < s->nfix;) {
		unsigned nl = s->fix[at++];
		for (unsigned l = 0; l < nl; l++) {
			uint32_t v = s->fix[at + l];
			uint32_t row = two_d ? v >> 16 : v / x->cols,
				 col = two_d ? v & 0xFFFF : v % x->cols;
			r->active[l] = v != UINT32_MAX;
			r->offsets[l] = r->active[l] ? cb_fix_index(fix, row, col, x->cols) *
							       site->elem_bytes
						     : 0;
		}
		at += nl;
		unsigned passes, minp;
		if (!pr->price(pr, site->op, site->elem_bytes, r->offsets, r->active, nl, &passes,
			       &minp))
			return false;
		sc->at_minimum &= passes <= minp;
		sc->total_passes += passes;
		sc->worst_passes = passes > sc->worst_passes ? passes : sc->worst_passes;
		if (x->site_worst && passes > x->site_worst[i])
			x->site_worst[i] = passes;
		if (x->site_fixed)
			cb_lint_tables_add(&x->site_fixed[i], r->offsets, r->active, nl, passes,
					   minp);
	}
	return true;
}

static bool judge(void *p, const cb_fix *fix, cb_fix_score *sc)
{
	const array_ctx *x = p;
	*sc = (cb_fix_score){ true, 0, 0 };
	for (size_t m = 0; m < (x->nmore ? x->nmore : 1); m++) {
		array_ctx y = *x;
		y.r = x->nmore ? x->more[m] : x->r;
		for (uint32_t i = 0; i < y.r->prog->nsites; i++)
			if (judged(&y.r->sites[i], y.obj) && !judge_site(&y, i, fix, sc))
				return false;
	}
	return true;
}

/* The bytes after which the banks repeat, the largest of the models judging (256 when none
 * says). */
static unsigned period_of(const array_ctx *x)
{
	unsigned period = x->r->pricer->period;
	for (size_t m = 0; m < x->nmore; m++)
		if (x->more[m]->pricer->period > period)
			period = x->more[m]->pricer->period;
	return period ? period : 256;
}

static void choice(const cb_fix *f, const cb_fix_score *sc, unsigned rows, unsigned elem_bytes,
		   cb_lint_fix_choice *c)
{
	*c = (cb_lint_fix_choice){ f->swizzle,
				   f->pad,
				   f->bits,
				   f->shift,
				   cb_fix_bytes(f, rows, elem_bytes),
				   sc->total_passes,
				   sc->worst_passes,
				   sc->at_minimum };
}

/* The search over one shape (ROWS x COLS); keeps the best fix and the other kind's best. */
static void search_shape(array_ctx *x, unsigned rows, unsigned cols, cb_lint_fix *fix)
{
	unsigned period = period_of(x);
	unsigned E = x->o->elem_bytes, max_pad = period / E ? period / E : 1;
	cb_fix_space sp = { rows, cols, E, 1, max_pad };
	cb_fix_result res;
	x->cols = cols;
	cb_fix_search(&sp, judge, x, &res);
	if (!res.best_found)
		return;
	cb_lint_fix_choice best, alt;
	choice(&res.best, &res.best_score, rows, E, &best);
	bool other = res.best.swizzle ? res.pad_best_found : res.swizzle_best_found;
	if (other)
		choice(res.best.swizzle ? &res.pad_best : &res.swizzle_best,
		       res.best.swizzle ? &res.pad_best_score : &res.swizzle_best_score, rows, E,
		       &alt);
	if (fix->found &&
	    !cb_fix_beats(best.total_passes, best.bytes, fix->best.total_passes, fix->best.bytes))
		return;
	fix->found = true;
	fix->best = best;
	fix->rows = rows;
	fix->width = cols;
	fix->alt_found = other && alt.total_passes == best.total_passes;
	if (fix->alt_found)
		fix->alt = alt;
}

/* Which sites touch object K, how many can be judged, and whether any conflicts. */
static void census_one(const cb_recorder *r, int32_t obj, cb_lint_fix *fix)
{
	for (uint32_t i = 0; i < r->prog->nsites; i++) {
		const cb_site_rec *s = &r->sites[i];
		if (s->obj != obj || !s->subgroups)
			continue;
		fix->wanted |= s->conflict && !s->unknown;
		if (judged(s, obj))
			fix->judged++;
		else
			fix->unjudged++;
	}
}

static void census(const array_ctx *x, cb_lint_fix *fix)
{
	for (size_t m = 0; m < (x->nmore ? x->nmore : 1); m++)
		census_one(x->nmore ? x->more[m] : x->r, x->obj, fix);
}

/* The search of object O's fix over X's recorders into FIX; false when there is none. */
static bool search(array_ctx *x, cb_lint_fix *fix)
{
	const cb_lint_object *o = x->o;
	memset(fix, 0, sizeof *fix);
	census(x, fix);
	if (!fix->wanted)
		return false;
	if (o->rank != 1 && o->rank != 2) {
		if (o->rank)
			snprintf(fix->note, sizeof fix->note, "%s is not a 1-D or 2-D array",
				 o->name);
		else
			no_rows(fix->note, sizeof fix->note, x->r->prog, x->obj);
		return false;
	}
	if (!fix->judged) {
		snprintf(fix->note, sizeof fix->note, "no access into %s can be judged", o->name);
		return false;
	}
	if (o->dims[0] > 0xFFFFFF || (o->rank == 2 && o->dims[1] > 0xFFFF)) {
		snprintf(fix->note, sizeof fix->note, "%s is too large to search fixes for",
			 o->name);
		return false;
	}
	fix->computed = true;
	cb_fix none = { false, 0, 0, 0 };
	cb_fix_score sc;
	x->cols = o->rank == 2 ? o->dims[1] : 1;
	judge(x, &none, &sc);
	fix->total_before = sc.total_passes;
	if (o->rank == 2)
		search_shape(x, o->dims[0], o->dims[1], fix);
	/* a 1-D array: by the rows its code uses (s[r * 36 + c]), else by power-of-two rows */
	bool by_code = false;
	for (unsigned w = 0; o->rank == 1 && w < o->nwidths; w++)
		if (o->widths[w] <= o->dims[0] / 2 && o->dims[0] % o->widths[w] == 0) {
			search_shape(x, o->dims[0] / o->widths[w], o->widths[w], fix);
			by_code = true;
		}
	for (unsigned w = 2; o->rank == 1 && !by_code && w <= o->dims[0] / 2; w *= 2)
		if (o->dims[0] % w == 0)
			search_shape(x, o->dims[0] / w, w, fix);
	if (fix->found && fix->best.total_passes >= fix->total_before)
		fix->found = false;
	if (!fix->found)
		snprintf(fix->note, sizeof fix->note,
			 "no padding up to one bank period and no XOR "
			 "swizzle lowers the passes of %s",
			 o->name);
	return fix->found;
}

void cb_rec_array_fix(cb_recorder *r, uint32_t k, cb_lint_fix *fix, unsigned *site_worst,
		      unsigned *site_alt, cb_lint_tables *site_fixed)
{
	const cb_lint_object *o = &r->prog->objects[k];
	array_ctx x = { r, o, CB_OBJ_FIRST + (int32_t)k, 0, NULL, NULL, NULL, 0 };
	if (!search(&x, fix))
		return;
	cb_fix_score sc;
	x.cols = fix->width;
	for (int kind = 0; kind < 2; kind++) {
		const cb_lint_fix_choice *c = kind ? &fix->alt : &fix->best;
		if (kind && !fix->alt_found)
			break;
		cb_fix f = { c->swizzle, c->pad, c->bits, c->shift };
		x.site_worst = kind ? site_alt : site_worst;
		x.site_fixed = kind ? NULL : site_fixed;
		judge(&x, &f, &sc);
	}
}

void cb_rec_judge_fix(cb_recorder *r, uint32_t k, const cb_lint_fix *given, cb_lint_fix *fix,
		      unsigned *site_worst, cb_lint_tables *site_fixed)
{
	const cb_lint_object *o = &r->prog->objects[k];
	array_ctx x = { r, o, CB_OBJ_FIRST + (int32_t)k, 0, NULL, NULL, NULL, 0 };
	memset(fix, 0, sizeof *fix);
	census(&x, fix);
	fix->wanted = given->wanted;
	snprintf(fix->note, sizeof fix->note, "%s", given->note);
	if (!given->found)
		return;
	fix->computed = fix->found = true;
	fix->rows = given->rows;
	fix->width = given->width;
	cb_fix none = { false, 0, 0, 0 };
	cb_fix_score sc;
	x.cols = o->rank == 2 ? o->dims[1] : 1;
	judge(&x, &none, &sc);
	fix->total_before = sc.total_passes;
	const cb_lint_fix_choice *c = &given->best;
	cb_fix f = { c->swizzle, c->pad, c->bits, c->shift };
	x.cols = given->width;
	x.site_worst = site_worst;
	x.site_fixed = site_fixed;
	judge(&x, &f, &sc);
	choice(&f, &sc, given->rows, o->elem_bytes, &fix->best);
}

void cb_rec_array_fix_across(cb_recorder *const *rs, size_t n, uint32_t k, cb_lint_fix *fix)
{
	const cb_lint_object *o = &rs[0]->prog->objects[k];
	array_ctx x = { rs[0], o, CB_OBJ_FIRST + (int32_t)k, 0, NULL, NULL, rs, n };
	search(&x, fix);
}
