/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "lint/lint_record.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cb_rec_init(cb_recorder *r, const cb_prog *prog, const cb_lint_pricer *pricer)
{
	memset(r, 0, sizeof *r);
	r->prog = prog;
	r->pricer = pricer;
	r->subgroup = pricer->subgroup;
	r->sites = cb_xcalloc(prog->nsites ? prog->nsites : 1, sizeof *r->sites);
	for (uint32_t s = 0; s < prog->nsites; s++) {
		r->sites[s].obj = -1;
		r->sites[s].range_known = true;
		r->sites[s].fix_ok = true;
	}
	r->offsets = cb_xmalloc(r->subgroup * sizeof *r->offsets);
	r->seq = cb_xmalloc(r->subgroup * sizeof *r->seq);
	r->active = cb_xmalloc(r->subgroup * sizeof *r->active);
}

void cb_rec_free(cb_recorder *r)
{
	for (uint32_t s = 0; r->sites && s < r->prog->nsites; s++) {
		cb_site_rec *x = &r->sites[s];
		free(x->keyoff);
		free(x->hash);
		free(x->keydata);
		free(x->keylen);
		free(x->sum);
		free(x->block);
		free(x->touched);
		free(x->stamp);
		free(x->first);
		free(x->fix);
	}
	free(r->sites);
	free(r->pool);
	free(r->offsets);
	free(r->seq);
	free(r->active);
	memset(r, 0, sizeof *r);
}

static uint32_t key_hash(const uint32_t *key, unsigned n)
{
	uint32_t h = 2166136261u ^ n;
	for (unsigned i = 0; i < n; i++)
		h = (h ^ key[i]) * 16777619u;
	return h;
}

static bool key_equal(const cb_site_rec *s, uint32_t k, const uint32_t *key, unsigned n)
{
	return s->keylen[k] == n && (!n || !memcmp(s->keydata + s->keyoff[k], key, n * sizeof *key));
}

static void rehash(cb_site_rec *s)
{
	free(s->hash);
	s->hcap = s->hcap ? 2 * s->hcap : 64;
	s->hash = cb_xcalloc(s->hcap, sizeof *s->hash);
	for (uint32_t k = 0; k < s->nkeys; k++) {
		uint32_t h = key_hash(s->keydata + s->keyoff[k], s->keylen[k]) & (s->hcap - 1);
		while (s->hash[h])
			h = (h + 1) & (s->hcap - 1);
		s->hash[h] = k + 1;
	}
}

static void grow_keys(cb_site_rec *s)
{
	uint32_t old = s->keycap;
	s->keycap = old ? 2 * old : 8;
	if (!s->keydata) {
		s->kdcap = 64;
		s->keydata = cb_xmalloc(s->kdcap * sizeof *s->keydata);
	}
	s->keyoff = cb_xrealloc(s->keyoff, s->keycap * sizeof *s->keyoff);
	s->keylen = cb_xrealloc(s->keylen, s->keycap * sizeof *s->keylen);
	s->sum = cb_xrealloc(s->sum, s->keycap * sizeof *s->sum);
	s->stamp = cb_xrealloc(s->stamp, s->keycap * sizeof *s->stamp);
	s->touched = cb_xrealloc(s->touched, s->keycap * sizeof *s->touched);
	s->block = cb_xrealloc(s->block, s->keycap * sizeof *s->block);
	memset(s->sum + old, 0, (s->keycap - old) * sizeof *s->sum);
	memset(s->stamp + old, 0, (s->keycap - old) * sizeof *s->stamp);
}

static uint32_t intern(cb_site_rec *s, const uint32_t *key, unsigned n)
{
	if (2 * (s->nkeys + 1) > s->hcap)
		rehash(s);
	uint32_t h = key_hash(key, n) & (s->hcap - 1);
	while (s->hash[h]) {
		if (key_equal(s, s->hash[h] - 1, key, n))
			return s->hash[h] - 1;
		h = (h + 1) & (s->hcap - 1);
	}
	if (s->nkeys == s->keycap)
		grow_keys(s);
	if (s->kdlen + n > s->kdcap) {
		s->kdcap = (s->kdlen + n) * 2 + 16;
		s->keydata = cb_xrealloc(s->keydata, s->kdcap * sizeof *s->keydata);
	}
	uint32_t k = s->nkeys++;
	if (n)
		memcpy(s->keydata + s->kdlen, key, n * sizeof *key);
	s->keyoff[k] = (uint32_t)s->kdlen;
	s->keylen[k] = (uint8_t)n;
	s->kdlen += n;
	s->hash[h] = k + 1;
	return k;
}

void cb_rec_access(cb_recorder *r, int32_t site, const uint32_t *key, unsigned klen,
		   unsigned lane, const cb_val *ptr, bool assumed, uint32_t line)
{
	cb_site_rec *s = &r->sites[site];
	if (r->overflow)
		return;
	uint32_t k = intern(s, key, klen);
	if (s->stamp[k] != r->sg + 1) {
		if ((r->pool_used + 1) * r->subgroup > CB_REC_LANES) {
			r->overflow = true;
			return;
		}
		if (r->pool_used == r->pool_cap) {
			r->pool_cap = r->pool_cap ? 2 * r->pool_cap : 64;
			r->pool = cb_xrealloc(r->pool, r->pool_cap * r->subgroup * sizeof *r->pool);
		}
		memset(r->pool + r->pool_used * r->subgroup, 0, r->subgroup * sizeof *r->pool);
		s->block[k] = (uint32_t)r->pool_used++;
		s->stamp[k] = r->sg + 1;
		s->touched[s->ntouched++] = k;
	}
	cb_lane_rec *l = &r->pool[(size_t)s->block[k] * r->subgroup + lane];
	if (l->state) {
		l->state = 2;
		return;
	}
	l->state = 1;
	l->assumed = assumed;
	l->line = line;
	if (ptr->kind == CB_V_PTR) {
		l->obj = ptr->obj;
		l->lo = ptr->lo;
		l->hi = ptr->hi;
		l->row = ptr->row;
		l->col = ptr->col;
		/* An unknown offset still starts a whole access inside a sized object. */
		const cb_lint_object *o = ptr->obj >= CB_OBJ_FIRST &&
			ptr->obj < CB_OBJ_FIRST + (int32_t)r->prog->nobjects ?
			&r->prog->objects[ptr->obj - CB_OBJ_FIRST] : NULL;
		unsigned e = r->prog->sites[site].elem_bytes;
		if (l->lo != l->hi && o && o->bytes >= e) {
			l->lo = l->lo < 0 ? 0 : l->lo;
			l->hi = l->hi > (int64_t)(o->bytes - e) ? (int64_t)(o->bytes - e) : l->hi;
			if (l->lo > l->hi)
				l->lo = l->hi;
		}
	} else {
		l->obj = CB_OBJ_NONE;
		l->lo = l->hi = 0;
		l->row = l->col = CB_IDX_LOST;
	}
}

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
	if (!p->price(p, site->op, site->elem_bytes, r->seq, r->active, nl, &minp, &ignore))
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
