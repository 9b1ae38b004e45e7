/* SPDX-License-Identifier: MIT */
/* The distinct lane tables of an access, counted, for lint --measure: a sub-group access is
 * one table (each lane's byte offset, or inactive); the same table in many sub-groups and
 * iterations is kept once with its count. Plain C, built with or without LLVM. */
#include "config.h"
#include "lint/lint.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

static uint32_t table_hash(const uint32_t *offsets, const bool *active, unsigned n)
{
	uint32_t h = 2166136261u ^ n;
	for (unsigned l = 0; l < n; l++)
		h = (h ^ (active[l] ? offsets[l] : 0xFFFFFFFFu)) * 16777619u;
	return h;
}

static bool same(const cb_lint_table *t, const uint32_t *offsets, const bool *active, unsigned n,
		 uint32_t hash)
{
	if (t->hash != hash || t->nlanes != n)
		return false;
	for (unsigned l = 0; l < n; l++)
		if (t->active[l] != active[l] || (active[l] && t->offsets[l] != offsets[l]))
			return false;
	return true;
}

void cb_lint_tables_add(cb_lint_tables *t, const uint32_t *offsets, const bool *active,
			unsigned nlanes, unsigned passes, unsigned min_passes)
{
	uint32_t h = table_hash(offsets, active, nlanes);
	t->total++;
	for (size_t i = 0; i < t->n; i++)
		if (same(&t->v[i], offsets, active, nlanes, h)) {
			t->v[i].count++;
			return;
		}
	if (t->n == CB_LINT_TABLES_KEPT) {
		t->dropped++;
		return;
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 4;
		t->v = cb_xrealloc(t->v, t->cap * sizeof *t->v);
	}
	cb_lint_table *x = &t->v[t->n++];
	x->nlanes = nlanes;
	x->offsets = cb_xmalloc(nlanes * sizeof *x->offsets);
	x->active = cb_xmalloc(nlanes * sizeof *x->active);
	for (unsigned l = 0; l < nlanes; l++) {
		x->active[l] = active[l];
		x->offsets[l] = active[l] ? offsets[l] : 0;
	}
	x->count = 1;
	x->passes = passes;
	x->min_passes = min_passes;
	x->hash = h;
}

/* Most frequent first; among equals, the one seen first (a stable insertion sort: there are
 * at most CB_LINT_TABLES_KEPT). */
void cb_lint_tables_sort(cb_lint_tables *t)
{
	size_t n = t->n;
	if (n < 2)
		return;
	size_t *rank = cb_xmalloc(n * sizeof *rank);
	cb_lint_table *v = cb_xmalloc(n * sizeof *v);
	for (size_t i = 0; i < n; i++)
		rank[i] = i;
	for (size_t i = 1; i < n; i++) {
		size_t r = rank[i], j = i;
		while (j > 0 && t->v[rank[j - 1]].count < t->v[r].count) {
			rank[j] = rank[j - 1];
			j--;
		}
		rank[j] = r;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = t->v[rank[i]];
	memcpy(t->v, v, n * sizeof *v);
	free(v);
	free(rank);
}

void cb_lint_tables_free(cb_lint_tables *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].offsets);
		free(t->v[i].active);
	}
	free(t->v);
	memset(t, 0, sizeof *t);
}
