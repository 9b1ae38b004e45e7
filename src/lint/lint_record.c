/* SPDX-License-Identifier: MIT */
/* Recording: each __local access a work-item makes goes to its site, under its iteration key
 * (interned per site, in the order the work-group first reaches them), into the lane records
 * of the sub-group in flight (lint_price.c prices and clears them). */
#include "config.h"
#include "lint/lint_record.h"
#include "core/util.h"

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
		cb_lint_tables_free(&x->tables);
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
	return s->keylen[k] == n &&
	       (!n || !memcmp(s->keydata + s->keyoff[k], key, n * sizeof *key));
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

static void rec_one(cb_recorder *r, int32_t site, const uint32_t *key, unsigned klen, unsigned lane,
		    const cb_val *ptr, bool assumed, uint32_t line)
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
	l->unseen = ptr->flags & (CB_VF_UNSEEN | CB_VF_CALLEES);
	l->cause = (uint8_t)((ptr->flags & CB_VF_CAUSES) >> 8);
	l->line = line;
	if (ptr->kind == CB_V_PTR) {
		l->obj = ptr->obj;
		l->lo = ptr->lo;
		l->hi = ptr->hi;
		l->row = ptr->row;
		l->col = ptr->col;
		/* An unknown offset still starts a whole access inside a sized object. */
		const cb_lint_object *o = ptr->obj >= CB_OBJ_FIRST &&
							  ptr->obj <
								  CB_OBJ_FIRST +
									  (int32_t)r->prog->nobjects
						  ? &r->prog->objects[ptr->obj - CB_OBJ_FIRST]
						  : NULL;
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

void cb_rec_access(cb_recorder *r, int32_t site, const uint32_t *key, unsigned klen, unsigned lane,
		   const cb_val *ptr, bool assumed, uint32_t line)
{
	for (; r; r = r->next)
		rec_one(r, site, key, klen, lane, ptr, assumed, line);
}
