/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/infer_fit.h"
#include "core/error.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>

static const unsigned widths[] = { 4, 8, 16 };
#define NWIDTHS (sizeof widths / sizeof widths[0])

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

/* Prepared tables and bank arrays of the fit set, for one bank width. */
typedef struct {
	const cb_fit_set *set;
	cb_prepared *prep;
	uint16_t **bank_of;
	double *passes;   /* per grouping x observation of one element size */
} workspace;

static void prepare_width(workspace *w, unsigned width)
{
	const cb_dataset *ds = w->set->ds;
	for (int e = 0; e < CB_NELEM; e++)
		for (size_t k = 0; k < w->set->n[e]; k++) {
			size_t i = w->set->idx[e][k];
			cb_prepare(&w->prep[i], width, ds->obs[i].elem_bytes, ds->obs[i].lanes, ds->subgroup);
			w->bank_of[i] = cb_xmalloc((w->prep[i].nwords ? w->prep[i].nwords : 1) *
						   sizeof(uint16_t));
		}
}

static void release_width(workspace *w)
{
	for (size_t i = 0; i < w->set->ds->n; i++)
		if (w->bank_of[i]) {
			free(w->bank_of[i]);
			w->bank_of[i] = NULL;
			cb_prepared_free(&w->prep[i]);
		}
}

/* Fits one element size of the candidates VARIANTS[0..nvar) (the pair-packing variants of one
 * geometry and broadcast rule) for every grouping. Ties go to the larger group (simpler). */
static void fit_elem(workspace *w, int e, unsigned banks, bool broadcast, cb_candidate **variants,
		     int nvar)
{
	const cb_fit_set *set = w->set;
	size_t n = set->n[e];
	for (unsigned gi = 0; gi < set->ngroupings; gi++)
		for (size_t k = 0; k < n; k++) {
			size_t i = set->idx[e][k];
			w->passes[gi * n + k] = cb_prepared_passes(&w->prep[i], w->bank_of[i], banks,
								   broadcast, set->groupings[gi]);
		}
	for (int v = 0; v < nvar; v++) {
		cb_candidate *c = variants[v];
		double best = INFINITY;
		for (unsigned gi = 0; gi < set->ngroupings; gi++) {
			unsigned group = set->groupings[gi];
			cb_sums s = { 0 };
			for (size_t k = 0; k < n; k++) {
				size_t i = set->idx[e][k];
				double p = w->passes[gi * n + k];
				unsigned eg = c->pair_packing ? cb_effective_group(&w->prep[i], true, group) : group;
				if (eg != group)
					p = cb_prepared_passes(&w->prep[i], w->bank_of[i], banks, broadcast, eg);
				double t = set->ds->obs[i].t, wt = 1 / (t * t);
				s.s0 += wt;
				s.s1 += wt * p;
				s.s2 += wt * p * p;
				s.t0 += 1 / t;
				s.t1 += p / t;
				s.tt += 1;
			}
			cb_line_fit f = cb_sums_solve(&s);
			c->sse_eg[e][gi] = f.sse;
			c->a_eg[e][gi] = f.a;
			c->b_eg[e][gi] = f.b;
			if (f.sse <= best) {
				best = f.sse;
				c->best_g[e] = gi;
			}
		}
		c->sse += best;
	}
}

/* The candidates of one geometry: with broadcast (with and without pair packing), then
 * without broadcast. */
static void fit_geometry(workspace *w, unsigned banks, unsigned width, cb_candidate *cand,
			 size_t *nc)
{
	for (int broadcast = 1; broadcast >= 0; broadcast--) {
		cb_candidate *variants[2];
		int nvar = broadcast ? 2 : 1;
		for (int v = 0; v < nvar; v++) {
			variants[v] = &cand[(*nc)++];
			variants[v]->banks = banks;
			variants[v]->width = width;
			variants[v]->broadcast = broadcast;
			variants[v]->pair_packing = v;
		}
		for (int e = 0; e < CB_NELEM; e++)
			if (w->set->n[e])
				fit_elem(w, e, banks, broadcast, variants, nvar);
	}
}

cb_candidate *cb_fit_candidates(const cb_fit_set *set, size_t *n)
{
	const cb_dataset *ds = set->ds;
	size_t nobs = ds->n ? ds->n : 1;
	cb_candidate *cand = cb_xcalloc(NWIDTHS * (CB_MAX_BANKS_SEARCHED - 1) * 3, sizeof *cand);
	workspace w = { set, cb_xcalloc(nobs, sizeof(cb_prepared)), cb_xcalloc(nobs, sizeof(uint16_t *)),
			cb_xmalloc(nobs * set->ngroupings * sizeof(double)) };
	size_t nc = 0;
	bool stopped = false;
	for (size_t wi = 0; wi < NWIDTHS && !stopped; wi++) {
		prepare_width(&w, widths[wi]);
		for (unsigned banks = 2; banks <= CB_MAX_BANKS_SEARCHED && !stopped; banks++) {
			for (int e = 0; e < CB_NELEM; e++)
				for (size_t k = 0; k < set->n[e]; k++) {
					size_t i = set->idx[e][k];
					cb_prepared_banks(&w.prep[i], banks, w.bank_of[i]);
				}
			fit_geometry(&w, banks, widths[wi], cand, &nc);
			stopped = cb_stop_signal != 0;
		}
		release_width(&w);
	}
	free(w.passes);
	free(w.bank_of);
	free(w.prep);
	if (stopped) {
		free(cand);
		return NULL;
	}
	*n = nc;
	return cand;
}
