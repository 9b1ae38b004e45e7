/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/infer_fit.h"
#include "core/error.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const unsigned widths[] = { 4, 8, 16 };
#define NWIDTHS (sizeof widths / sizeof widths[0])
#define NBANKS (CB_MAX_BANKS_SEARCHED - 1) /* 2 .. CB_MAX_BANKS_SEARCHED */
#define NGEOM (NWIDTHS * NBANKS)
/* Rules per geometry: broadcast, broadcast with pair packing, no broadcast. */
#define NRULES 3

size_t cb_family_size(void)
{
	return NGEOM * NRULES;
}

unsigned cb_groupings_for(unsigned subgroup, unsigned *g)
{
	unsigned n = 0;
	for (unsigned v = 4; v < subgroup && n < CB_MAX_GROUPINGS - 1; v *= 2)
		if (subgroup % v == 0)
			g[n++] = v;
	g[n++] = subgroup;
	return n;
}

double cb_sums_sse(const cb_sums *s, double a, double b)
{
	double v = s->tt - 2 * a * s->t0 - 2 * b * s->t1 + a * a * s->s0 + 2 * a * b * s->s1 +
		   b * b * s->s2;
	return v > 0 ? v : 0;
}

cb_line_fit cb_sums_solve(const cb_sums *s)
{
	cb_line_fit f = { s->t0 / s->s0, 0, 0 };
	f.sse = cb_sums_sse(s, f.a, f.b);
	double det = s->s0 * s->s2 - s->s1 * s->s1;
	if (det > 1e-12 * s->s0 * s->s2 && det > 0) {
		double b = (s->s0 * s->t1 - s->s1 * s->t0) / det;
		double a = (s->t0 - b * s->s1) / s->s0;
		if (a >= 0 && b >= 0) {
			double e = cb_sums_sse(s, a, b);
			if (e <= f.sse) {
				f.a = a;
				f.b = b;
				f.sse = e;
			}
			return f;
		}
	}
	if (s->s2 > 0) {
		double b = s->t1 / s->s2;
		if (b > 0) {
			double e = cb_sums_sse(s, 0, b);
			if (e < f.sse) {
				f.a = 0;
				f.b = b;
				f.sse = e;
			}
		}
	}
	return f;
}

/* ---- distinct tables ------------------------------------------------------------------ */

struct cb_pass_cache {
	unsigned subgroup, ngroupings;
	unsigned groupings[CB_MAX_GROUPINGS];
	size_t nobs, ntables;
	size_t *table_of_obs; /* obs -> distinct table */
	size_t *first_obs;    /* distinct table -> an obs that has it */
	size_t ngeom;         /* geometries held */
	unsigned *geom_index; /* which of the NGEOM geometries, in order */
	uint16_t *passes;     /* [geom][rule][grouping][table] */
	cb_pass_memo *lender; /* the memo that lent passes, or NULL */
};

static uint64_t table_hash(const cb_obs *o, unsigned S)
{
	uint64_t h = 1469598103934665603ULL ^ o->elem_bytes;
	for (unsigned l = 0; l < S; l++)
		h = (h ^ o->lanes[l]) * 1099511628211ULL;
	return h;
}

static bool same_table(const cb_obs *a, const cb_obs *b, unsigned S)
{
	return a->elem_bytes == b->elem_bytes &&
	       memcmp(a->lanes, b->lanes, S * sizeof *a->lanes) == 0;
}

/* Numbers the distinct (element size, lane table) pairs of DS. */
static void find_tables(cb_pass_cache *c, const cb_dataset *ds)
{
	size_t size = 16;
	while (size < 2 * ds->n)
		size *= 2;
	size_t *slot = cb_xmalloc(size * sizeof *slot);
	for (size_t i = 0; i < size; i++)
		slot[i] = SIZE_MAX;
	c->table_of_obs = cb_xmalloc((ds->n ? ds->n : 1) * sizeof *c->table_of_obs);
	c->first_obs = cb_xmalloc((ds->n ? ds->n : 1) * sizeof *c->first_obs);
	for (size_t i = 0; i < ds->n; i++) {
		size_t h = (size_t)table_hash(&ds->obs[i], ds->subgroup) & (size - 1);
		while (slot[h] != SIZE_MAX &&
		       !same_table(&ds->obs[c->first_obs[slot[h]]], &ds->obs[i], ds->subgroup))
			h = (h + 1) & (size - 1);
		if (slot[h] == SIZE_MAX) {
			slot[h] = c->ntables;
			c->first_obs[c->ntables++] = i;
		}
		c->table_of_obs[i] = slot[h];
	}
	c->nobs = ds->n;
	free(slot);
}

static unsigned geom_width(unsigned g)
{
	return widths[g / NBANKS];
}

static unsigned geom_banks(unsigned g)
{
	return 2 + g % NBANKS;
}

static size_t cache_at(const cb_pass_cache *c, size_t gpos, int rule, unsigned gi, size_t t)
{
	return ((gpos * NRULES + (size_t)rule) * c->ngroupings + gi) * c->ntables + t;
}

/* ---- the memo: passes by table, across caches ----------------------------------------- */

typedef struct {
	unsigned elem_bytes;
	uint32_t *lanes;  /* NULL: an empty slot */
	uint16_t *passes; /* [geom][rule][grouping], every geometry */
} memo_entry;

/* A buffer the memo lends to one analysis at a time: the candidates (1.7 MB) and a cache's
 * passes (9 KB a table) were allocated afresh for every inference of a run, and every page of
 * them faulted in again (on a virtual machine a third of the stub run's host time). */
typedef struct {
	void *p;
	size_t size; /* bytes */
	bool lent;
} memo_buffer;

struct cb_pass_memo {
	unsigned subgroup, ngroupings; /* of the first cache that used it (0: none yet) */
	unsigned groupings[CB_MAX_GROUPINGS];
	size_t n, size;   /* entries, slots (0 or a power of two) */
	memo_entry *slot; /* open addressing */
	memo_buffer cand, passes;
};

cb_pass_memo *cb_pass_memo_new(void)
{
	return cb_xcalloc(1, sizeof(cb_pass_memo));
}

void cb_pass_memo_free(cb_pass_memo *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->size; i++) {
		free(m->slot[i].lanes);
		free(m->slot[i].passes);
	}
	free(m->slot);
	free(m->cand.p);
	free(m->passes.p);
	free(m);
}

/* SIZE bytes: B's when M has it and it is not lent (then lent until given back), else new. */
static void *borrow(cb_pass_memo *m, memo_buffer *b, size_t size)
{
	if (!m || b->lent)
		return cb_xmalloc(size);
	if (b->size < size) {
		free(b->p);
		b->p = cb_xmalloc(size);
		b->size = size;
	}
	b->lent = true;
	return b->p;
}

/* Gives P back to B when it is B's; else frees it. */
static void give_back(cb_pass_memo *m, memo_buffer *b, void *p)
{
	if (m && p && p == b->p)
		b->lent = false;
	else
		free(p);
}

/* B holding SIZE bytes whose pages are mapped (a lent B is left alone). */
static void warm(memo_buffer *b, size_t size)
{
	if (b->lent || b->size >= size)
		return;
	free(b->p);
	b->p = cb_xmalloc(size);
	b->size = size;
	memset(b->p, 0, size);
}

size_t cb_pass_memo_tables(const cb_pass_memo *m)
{
	return m ? m->n : 0;
}

void cb_pass_memo_warm(cb_pass_memo *m, size_t ntables)
{
	if (!m)
		return;
	/* Before a first cache the groupings are unknown: CB_MAX_GROUPINGS bounds them. A
	 * dataset of more tables than a cache holds has no cache (cb_pass_cache_new). */
	unsigned ng = m->ngroupings ? m->ngroupings : CB_MAX_GROUPINGS;
	if (ntables > CB_CACHE_MAX_TABLES)
		ntables = CB_CACHE_MAX_TABLES;
	warm(&m->cand, (size_t)NGEOM * NRULES * sizeof(cb_candidate));
	warm(&m->passes, ((size_t)NGEOM * NRULES * ng * ntables + 1) * sizeof(uint16_t));
}

/* The memo serves caches of one sub-group and groupings (the first it saw) that hold every
 * geometry. */
static bool memo_serves(cb_pass_memo *m, const cb_pass_cache *c)
{
	if (!m || c->ngeom != NGEOM)
		return false;
	if (!m->ngroupings) {
		m->subgroup = c->subgroup;
		m->ngroupings = c->ngroupings;
		memcpy(m->groupings, c->groupings, c->ngroupings * sizeof *c->groupings);
	}
	return m->subgroup == c->subgroup && m->ngroupings == c->ngroupings &&
	       memcmp(m->groupings, c->groupings, c->ngroupings * sizeof *c->groupings) == 0;
}

/* O's slot: its entry, or the empty slot where it belongs (M has slots, not all full). */
static memo_entry *memo_slot(const cb_pass_memo *m, const cb_obs *o)
{
	size_t h = (size_t)table_hash(o, m->subgroup) & (m->size - 1);
	for (;; h = (h + 1) & (m->size - 1)) {
		memo_entry *e = &m->slot[h];
		if (!e->lanes ||
		    same_table(&(cb_obs){ .elem_bytes = e->elem_bytes, .lanes = e->lanes }, o,
			       m->subgroup))
			return e;
	}
}

static void memo_grow(cb_pass_memo *m)
{
	memo_entry *old = m->slot;
	size_t n = m->size;
	m->size = n ? 2 * n : 64;
	m->slot = cb_xcalloc(m->size, sizeof *m->slot);
	for (size_t i = 0; i < n; i++)
		if (old[i].lanes)
			*memo_slot(m, &(cb_obs){ .elem_bytes = old[i].elem_bytes,
						 .lanes = old[i].lanes }) = old[i];
	free(old);
}

/* Table T's passes between C and a memo entry's BLOCK ([geom][rule][grouping]): into C, or
 * from it. */
static void copy_block(cb_pass_cache *c, size_t t, uint16_t *block, bool into_cache)
{
	for (size_t gp = 0; gp < NGEOM; gp++)
		for (int rule = 0; rule < NRULES; rule++)
			for (unsigned gi = 0; gi < c->ngroupings; gi++, block++) {
				uint16_t *at = &c->passes[cache_at(c, gp, rule, gi, t)];
				if (into_cache)
					*at = *block;
				else
					*block = *at;
			}
}

/* Table T of C from the memo: false when the memo lacks it. */
static bool memo_read(const cb_pass_memo *m, cb_pass_cache *c, const cb_obs *o, size_t t)
{
	memo_entry *e = m->size ? memo_slot(m, o) : NULL;
	if (!e || !e->lanes)
		return false;
	copy_block(c, t, e->passes, true);
	return true;
}

static void memo_add(cb_pass_memo *m, cb_pass_cache *c, const cb_obs *o, size_t t)
{
	if (2 * (m->n + 1) > m->size)
		memo_grow(m);
	memo_entry *e = memo_slot(m, o);
	e->elem_bytes = o->elem_bytes;
	e->lanes = cb_xmalloc(m->subgroup * sizeof *e->lanes);
	memcpy(e->lanes, o->lanes, m->subgroup * sizeof *e->lanes);
	e->passes = cb_xmalloc(NGEOM * NRULES * c->ngroupings * sizeof *e->passes);
	copy_block(c, t, e->passes, false);
	m->n++;
}

/* ---- passes ----------------------------------------------------------------------------- */

/* Whether two lanes of P touch one word (else broadcast changes nothing, nor can pairs pack). */
static bool shares_words(const cb_prepared *p)
{
	for (unsigned k = 0; k < p->nwords; k++)
		if (p->prev_lane[k] >= 0)
			return true;
	return false;
}

/* The largest difference between two words of one group of GROUP lanes of P (a group as
 * cb_prepared_passes makes them). */
static uint32_t group_span(const cb_prepared *p, unsigned group)
{
	if (group == 0 || group > p->nlanes)
		group = p->nlanes;
	uint32_t most = 0;
	for (unsigned g0 = 0; g0 < p->nlanes; g0 += group) {
		unsigned g1 = g0 + group < p->nlanes ? g0 + group : p->nlanes;
		uint32_t lo = UINT32_MAX, hi = 0;
		for (unsigned k = p->lane_first[g0]; k < p->lane_first[g1]; k++) {
			lo = p->words[k] < lo ? p->words[k] : lo;
			hi = p->words[k] > hi ? p->words[k] : hi;
		}
		most = hi >= lo && hi - lo > most ? hi - lo : most;
	}
	return most;
}

/* A table prepared for one width: per grouping and rule, the group it counts, the largest
 * span of words within a group, and the first geometry position with more banks than that
 * span (SIZE_MAX: none yet). */
typedef struct {
	cb_prepared p;
	bool shared; /* two lanes touch one word */
	unsigned group[CB_MAX_GROUPINGS][NRULES];
	uint32_t span[CB_MAX_GROUPINGS][NRULES];
	size_t first[CB_MAX_GROUPINGS][NRULES];
} width_table;

static void width_table_init(width_table *w, const cb_pass_cache *c)
{
	w->shared = shares_words(&w->p);
	for (unsigned gi = 0; gi < c->ngroupings; gi++) {
		unsigned group = c->groupings[gi];
		w->group[gi][0] = w->group[gi][2] = group;
		w->group[gi][1] = cb_effective_group(&w->p, true, group);
		for (int rule = 0; rule < NRULES; rule++) {
			w->span[gi][rule] = group_span(&w->p, w->group[gi][rule]);
			w->first[gi][rule] = SIZE_MAX;
		}
	}
}

/* Geometry position GP's (B banks) passes of table T for every grouping and rule. A rule that
 * changes nothing here (packing that keeps the group, broadcast without shared words) copies
 * the broadcast rule's. With more banks than the span of every group's words, two words of a
 * group share a bank only if they are the same word: such a bank count has the passes of the
 * first one past the span, copied (a stride-1 table of 4-byte elements has the same passes
 * from 32 banks of 4 bytes to 128). The banks of the words go to BANK_OF when needed. */
static void geometry_passes(cb_pass_cache *c, size_t t, size_t gp, width_table *w, unsigned B,
			    uint16_t *bank_of)
{
	bool banked = false;
	for (unsigned gi = 0; gi < c->ngroupings; gi++)
		for (int rule = 0; rule < NRULES; rule++) {
			uint16_t *at = &c->passes[cache_at(c, gp, rule, gi, t)];
			if ((rule == 1 && w->group[gi][1] == w->group[gi][0]) ||
			    (rule == 2 && !w->shared)) {
				*at = c->passes[cache_at(c, gp, 0, gi, t)];
				continue;
			}
			size_t *first = &w->first[gi][rule];
			if (B > w->span[gi][rule] && *first != SIZE_MAX) {
				*at = c->passes[cache_at(c, *first, rule, gi, t)];
				continue;
			}
			if (B > w->span[gi][rule])
				*first = gp;
			if (!banked)
				cb_prepared_banks(&w->p, B, bank_of);
			banked = true;
			*at = (uint16_t)cb_prepared_passes(&w->p, bank_of, B, rule != 2,
							   w->group[gi][rule]);
		}
}

/* Passes of C's table T (O's lanes) for the geometries held; *BANK_OF is scratch. (A table
 * whose lanes share no word, most strides, has the same passes with and without broadcast: a
 * third of analyze's time on a --plan full document went to passes.) */
static void table_passes(cb_pass_cache *c, const cb_obs *o, size_t t, uint16_t **bank_of)
{
	width_table w;
	for (size_t gp = 0; gp < c->ngeom; gp++) {
		unsigned g = c->geom_index[gp], W = geom_width(g), B = geom_banks(g);
		if (gp == 0 || W != geom_width(c->geom_index[gp - 1])) {
			if (gp)
				cb_prepared_free(&w.p);
			cb_prepare(&w.p, W, o->elem_bytes, o->lanes, c->subgroup);
			*bank_of = cb_xrealloc(*bank_of,
					       (w.p.nwords ? w.p.nwords : 1) * sizeof **bank_of);
			width_table_init(&w, c);
		}
		geometry_passes(c, t, gp, &w, B, *bank_of);
	}
	if (c->ngeom)
		cb_prepared_free(&w.p);
}

/* Passes of every distinct table (or only those with MASK set) for the geometries held: from
 * the dataset's memo where it has them, and into it where it has not. */
static void compute_passes(cb_pass_cache *c, const cb_dataset *ds, const bool *mask)
{
	uint16_t *bank_of = NULL;
	bool memo = memo_serves(ds->memo, c);
	for (size_t t = 0; t < c->ntables; t++) {
		if (mask && !mask[t])
			continue;
		const cb_obs *o = &ds->obs[c->first_obs[t]];
		if (memo && memo_read(ds->memo, c, o, t))
			continue;
		table_passes(c, o, t, &bank_of);
		if (memo)
			memo_add(ds->memo, c, o, t);
		if (t % 64 == 0 && cb_stop_signal)
			break;
	}
	free(bank_of);
}

/* C's passes, in a buffer of the dataset's memo when it has one. */
static void fill_passes(cb_pass_cache *c, const cb_dataset *ds)
{
	c->lender = ds->memo;
	c->passes = borrow(c->lender, c->lender ? &c->lender->passes : NULL,
			   (c->ngeom * NRULES * c->ngroupings * c->ntables + 1) *
				   sizeof *c->passes);
	compute_passes(c, ds, NULL);
}

static cb_pass_cache *cache_new(const cb_dataset *ds, const unsigned *groupings, unsigned ng,
				const unsigned *geoms, size_t ngeom, bool fill)
{
	cb_pass_cache *c = cb_xcalloc(1, sizeof *c);
	c->subgroup = ds->subgroup;
	c->ngroupings = ng;
	memcpy(c->groupings, groupings, ng * sizeof *groupings);
	find_tables(c, ds);
	c->ngeom = ngeom;
	c->geom_index = cb_xmalloc((ngeom ? ngeom : 1) * sizeof *c->geom_index);
	if (ngeom) /* geoms may be NULL when there are none */
		memcpy(c->geom_index, geoms, ngeom * sizeof *geoms);
	if (fill)
		fill_passes(c, ds);
	return c;
}

static unsigned all_geometries(unsigned *g)
{
	for (unsigned i = 0; i < NGEOM; i++)
		g[i] = i;
	return NGEOM;
}

cb_pass_cache *cb_pass_cache_new(const cb_dataset *ds)
{
	unsigned groupings[CB_MAX_GROUPINGS], geoms[NGEOM];
	unsigned ng = cb_groupings_for(ds->subgroup, groupings);
	/* The tables found once: counted, then filled (a probe cache found them twice). */
	cb_pass_cache *c = cache_new(ds, groupings, ng, geoms, all_geometries(geoms), false);
	if (c->ntables > CB_CACHE_MAX_TABLES) {
		cb_pass_cache_free(c);
		return NULL;
	}
	fill_passes(c, ds);
	return c;
}

void cb_pass_cache_free(cb_pass_cache *c)
{
	if (!c)
		return;
	free(c->table_of_obs);
	free(c->first_obs);
	free(c->geom_index);
	give_back(c->lender, c->lender ? &c->lender->passes : NULL, c->passes);
	free(c);
}

/* ---- fits ----------------------------------------------------------------------------- */

/* The fit set of one element size grouped by distinct table: an observation's terms of the
 * least-squares sums depend on its table's passes and its time only, so the observations of a
 * table are summed once. A table seen once keeps the exact terms of one observation. */
typedef struct {
	size_t n;
	size_t *table;       /* distinct table */
	double *w, *u, *cnt; /* sums of 1 / t^2, 1 / t, 1 */
	double *t;           /* the time, when the table has one observation; else NAN */
	double s0, t0, tt;   /* the sums that do not depend on passes, in the fit's order */
	/* Per grouping, the passes last fitted (in the cache) and their fit: the next candidate
	 * with the same passes on these tables has the same fit (the span of table_passes, a
	 * rule that changes nothing here: most candidates of a run's analysis). */
	const uint16_t *last[CB_MAX_GROUPINGS];
	cb_line_fit last_fit[CB_MAX_GROUPINGS];
} elem_tables;

static void group_by_table(const cb_fit_set *set, const cb_pass_cache *c, int e, elem_tables *g)
{
	size_t n = set->n[e];
	g->table = cb_xmalloc((n ? n : 1) * sizeof *g->table);
	g->w = cb_xmalloc((n ? n : 1) * sizeof *g->w);
	g->u = cb_xmalloc((n ? n : 1) * sizeof *g->u);
	g->cnt = cb_xmalloc((n ? n : 1) * sizeof *g->cnt);
	g->t = cb_xmalloc((n ? n : 1) * sizeof *g->t);
	size_t *pos = cb_xmalloc((c->ntables ? c->ntables : 1) * sizeof *pos);
	for (size_t t = 0; t < c->ntables; t++)
		pos[t] = SIZE_MAX;
	g->n = 0;
	for (size_t k = 0; k < n; k++) {
		size_t i = set->idx[e][k], tab = c->table_of_obs[i];
		double t = set->ds->obs[i].t;
		if (pos[tab] == SIZE_MAX) {
			pos[tab] = g->n++;
			g->table[pos[tab]] = tab;
			g->w[pos[tab]] = g->u[pos[tab]] = g->cnt[pos[tab]] = 0;
			g->t[pos[tab]] = t;
		} else {
			g->t[pos[tab]] = NAN;
		}
		g->w[pos[tab]] += 1 / (t * t);
		g->u[pos[tab]] += 1 / t;
		g->cnt[pos[tab]] += 1;
	}
	free(pos);
	g->s0 = g->t0 = g->tt = 0;
	for (size_t k = 0; k < g->n; k++) {
		g->s0 += g->w[k];
		g->t0 += g->u[k];
		g->tt += g->cnt[k];
	}
	for (unsigned gi = 0; gi < CB_MAX_GROUPINGS; gi++)
		g->last[gi] = NULL;
}

/* Whether PASS and LAST (a cache's rows) agree on G's tables. */
static bool same_passes(const elem_tables *g, const uint16_t *pass, const uint16_t *last)
{
	if (!last)
		return false;
	for (size_t k = 0; k < g->n; k++)
		if (pass[g->table[k]] != last[g->table[k]])
			return false;
	return true;
}

/* The fit of t = a + b p on G's tables with passes PASS. */
static cb_line_fit fit_line(const elem_tables *g, const uint16_t *pass)
{
	cb_sums s = { .s0 = g->s0, .t0 = g->t0, .tt = g->tt };
	for (size_t k = 0; k < g->n; k++) {
		double p = pass[g->table[k]], wt = g->w[k];
		s.s1 += wt * p;
		s.s2 += wt * p * p;
		s.t1 += isnan(g->t[k]) ? p * g->u[k] : p / g->t[k];
	}
	return cb_sums_solve(&s);
}

static void free_groups(elem_tables *g)
{
	free(g->table);
	free(g->w);
	free(g->u);
	free(g->cnt);
	free(g->t);
}

/* Fits element size E of candidate C (geometry position GP, RULE) for every grouping. Ties go
 * to the larger group (the simpler model). */
static void fit_elem(const cb_fit_set *set, const cb_pass_cache *c, elem_tables *g, size_t gp,
		     int rule, int e, cb_candidate *cand)
{
	double best = INFINITY;
	for (unsigned gi = 0; gi < set->ngroupings; gi++) {
		const uint16_t *pass = &c->passes[cache_at(c, gp, rule, gi, 0)];
		if (!same_passes(g, pass, g->last[gi])) {
			g->last[gi] = pass;
			g->last_fit[gi] = fit_line(g, pass);
		}
		cb_line_fit f = g->last_fit[gi];
		cand->sse_eg[e][gi] = f.sse;
		cand->a_eg[e][gi] = f.a;
		cand->b_eg[e][gi] = f.b;
		if (f.sse <= best) {
			best = f.sse;
			cand->best_g[e] = gi;
		}
	}
	cand->sse += best;
}

/* Candidates in the order of 0.1: per width, per bank count: broadcast, broadcast with pair
 * packing, no broadcast. */
static cb_candidate *fit_all(const cb_fit_set *set, const cb_pass_cache *c, size_t *n)
{
	static const int rule_order[NRULES] = { 0, 1, 2 };
	cb_pass_memo *m = set->ds->memo;
	size_t ncand = c->ngeom * NRULES, bytes = (ncand ? ncand : 1) * sizeof(cb_candidate);
	cb_candidate *cand = borrow(m, m ? &m->cand : NULL, bytes);
	elem_tables groups[CB_NELEM];
	for (int e = 0; e < CB_NELEM; e++)
		group_by_table(set, c, e, &groups[e]);
	size_t nc = 0;
	for (size_t gp = 0; gp < c->ngeom; gp++)
		for (int r = 0; r < NRULES; r++) {
			cb_candidate *x = &cand[nc++];
			/* A lent buffer holds an earlier fit: what no element size below sets
			 * (sse_eg and the others of a size without tables) nothing reads. */
			x->sse = x->score = 0;
			memset(x->best_g, 0, sizeof x->best_g);
			x->banks = geom_banks(c->geom_index[gp]);
			x->width = geom_width(c->geom_index[gp]);
			x->broadcast = rule_order[r] != 2;
			x->pair_packing = rule_order[r] == 1;
			for (int e = 0; e < CB_NELEM; e++)
				if (set->n[e])
					fit_elem(set, c, &groups[e], gp, rule_order[r], e, x);
		}
	for (int e = 0; e < CB_NELEM; e++)
		free_groups(&groups[e]);
	*n = nc;
	return cand;
}

static int cmp_sse(const void *a, const void *b)
{
	double x = ((const cb_candidate *)a)->sse, y = ((const cb_candidate *)b)->sse;
	return (x > y) - (x < y);
}

/* The geometries of the best candidates, at most CB_STAGE2_GEOMETRIES, in family order. */
static size_t best_geometries(cb_candidate *cand, size_t nc, unsigned *geoms)
{
	qsort(cand, nc, sizeof *cand, cmp_sse);
	bool keep[NGEOM] = { false };
	size_t kept = 0;
	for (size_t i = 0; i < nc && kept < CB_STAGE2_GEOMETRIES; i++) {
		unsigned g = (unsigned)((cand[i].width == 4   ? 0
					 : cand[i].width == 8 ? 1
							      : 2) *
						NBANKS +
					(cand[i].banks - 2));
		if (!keep[g]) {
			keep[g] = true;
			kept++;
		}
	}
	size_t n = 0;
	for (unsigned g = 0; g < NGEOM; g++)
		if (keep[g])
			geoms[n++] = g;
	return n;
}

/* Stage 1: every candidate on the observations of every STEP-th distinct table; returns the
 * geometries of the best (at most CB_STAGE2_GEOMETRIES) in GEOMS. */
static size_t stage1(const cb_fit_set *set, const cb_pass_cache *tables, unsigned *geoms)
{
	const cb_dataset *ds = set->ds;
	size_t step = (tables->ntables + CB_CACHE_MAX_TABLES - 1) / CB_CACHE_MAX_TABLES;
	cb_dataset sub = *ds;
	sub.obs = cb_xmalloc((ds->n ? ds->n : 1) * sizeof *sub.obs);
	sub.n = 0;
	cb_fit_set sample = *set;
	sample.ds = &sub;
	for (int e = 0; e < CB_NELEM; e++) {
		sample.idx[e] = cb_xmalloc((set->n[e] ? set->n[e] : 1) * sizeof(size_t));
		sample.n[e] = 0;
		for (size_t k = 0; k < set->n[e]; k++) {
			size_t i = set->idx[e][k];
			if (tables->table_of_obs[i] % step)
				continue;
			sample.idx[e][sample.n[e]++] = sub.n;
			sub.obs[sub.n++] = ds->obs[i];
		}
	}
	size_t nc, ngeom = 0;
	cb_pass_cache *c = cb_pass_cache_new(&sub);
	if (c) {
		cb_candidate *cand = fit_all(&sample, c, &nc);
		ngeom = best_geometries(cand, nc, geoms);
		cb_fit_candidates_free(&sample, cand);
	}
	cb_pass_cache_free(c);
	for (int e = 0; e < CB_NELEM; e++)
		free(sample.idx[e]);
	free(sub.obs);
	return ngeom;
}

/* Stage 2: the best geometries of stage 1 on every table. */
static cb_candidate *fit_two_stages(const cb_fit_set *set, size_t *n)
{
	unsigned geoms[NGEOM];
	cb_pass_cache *tables = cache_new(set->ds, set->groupings, set->ngroupings, NULL, 0, false);
	size_t ngeom = stage1(set, tables, geoms);
	cb_pass_cache_free(tables);
	cb_pass_cache *c = cache_new(set->ds, set->groupings, set->ngroupings, geoms, ngeom, true);
	cb_candidate *cand = fit_all(set, c, n);
	cb_pass_cache_free(c);
	return cand;
}

void cb_sums_add(cb_sums *s, double p, double t)
{
	s->s0 += 1 / (t * t);
	s->s1 += p / (t * t);
	s->s2 += p * p / (t * t);
	s->t0 += 1 / t;
	s->t1 += p / t;
	s->tt += 1;
}

double cb_fit_direct(const cb_fit_set *set, const cb_geometry *g, size_t step)
{
	double total = 0;
	for (int e = 0; e < CB_NELEM; e++) {
		double best = INFINITY;
		for (unsigned gi = 0; gi < set->ngroupings && set->n[e]; gi++) {
			cb_sums s = { 0 };
			for (size_t k = 0; k < set->n[e]; k += step) {
				const cb_obs *o = &set->ds->obs[set->idx[e][k]];
				double p = cb_passes(g, set->groupings[gi], o->elem_bytes, o->lanes,
						     set->ds->subgroup);
				cb_sums_add(&s, p, o->t);
			}
			cb_line_fit f = cb_sums_solve(&s);
			best = f.sse < best ? f.sse : best;
		}
		if (set->n[e])
			total += best;
		if (cb_stop_signal)
			return NAN;
	}
	return total;
}

cb_candidate *cb_fit_candidates(const cb_fit_set *set, const cb_pass_cache *cache, size_t *n)
{
	cb_candidate *cand;
	if (cache) {
		cand = fit_all(set, cache, n);
	} else {
		cb_pass_cache *c = cb_pass_cache_new(set->ds);
		cand = c ? fit_all(set, c, n) : fit_two_stages(set, n);
		cb_pass_cache_free(c);
	}
	if (cb_stop_signal) {
		cb_fit_candidates_free(set, cand);
		return NULL;
	}
	return cand;
}

void cb_fit_candidates_free(const cb_fit_set *set, cb_candidate *cand)
{
	cb_pass_memo *m = set->ds->memo;
	give_back(m, m ? &m->cand : NULL, cand);
}
