/* SPDX-License-Identifier: MIT */
/* Has the answer settled? After each round (from the minimum on) the inference runs on the
 * medians so far: the run stops when the verdict and the model (geometry, lanes per pass,
 * broadcast, packing) are the same as after the round before, the same on resamples of
 * the rounds, and -- for a banked device -- every ratio the report prints (the stride table,
 * the padding) has its 95% CI within the target. Passes are computed once (a pass cache);
 * each check only refits. */
#include "config.h"
#include "measure/run_internal.h"
#include "core/stats.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RESAMPLES 3

/* The answer as a string: equal strings, equal answers. */
static void answer_key(const cb_inference *inf, char *buf, size_t n)
{
	if (inf->status != CB_BANKED) {
		snprintf(buf, n, "%s", cb_status_name(inf->status));
		return;
	}
	const cb_fit *f = &inf->best;
	size_t len = (size_t)snprintf(buf, n, "banked %u x %u %d %d", f->geom.banks, f->geom.width,
				      f->geom.broadcast, f->geom.pair_packing);
	for (int e = 0; e < CB_NELEM && len < n; e++)
		len += (size_t)snprintf(buf + len, n - len, " %u", f->lanes_per_pass[e]);
}

/* The dataset of OP's medians (or, with RNG, of a resample of each experiment's rounds). */
static void dataset(const cb_runner *r, const cb_experiment *ex, size_t nex, cb_op op, cb_rng *rng,
		    cb_dataset *ds, double *scratch)
{
	const cb_result *plan = r->plan;
	ds->subgroup = r->S;
	ds->n = 0;
	for (size_t i = 1; i < nex; i++) {
		const cb_experiment *x = &ex[i];
		if (x->op != op)
			continue;
		const cb_measurement *m = &plan->ms[x->index];
		/* Every experiment keeps its place (the pass cache is by position); one without a
		 * valid round has no time and is left out of the fit. */
		for (unsigned k = 0; k < x->n; k++)
			scratch[k] = x->ratios[rng ? cb_rng_below(rng, x->n) : k];
		cb_summary s;
		cb_summarize(scratch, x->n, &s);
		if (x->n == 0)
			s.median = NAN;
		cb_obs *o = &ds->obs[ds->n++];
		*o = (cb_obs){ .elem_bytes = m->elem_bytes,
			       .lanes = m->lanes,
			       .t = s.median,
			       .holdout = cb_kind_is(m, "random"),
			       .index = x->index };
		if (isfinite(s.ci_lo) && s.median > 0)
			o->rel_err = (s.ci_hi - s.ci_lo) / (2 * s.median);
	}
}

/* Is every ratio the report prints for OP narrow enough? */
static bool printed_precise(const cb_runner *r, const cb_experiment *ex, size_t nex, cb_op op)
{
	static const long long shown[] = { 0, 1, 2, 3, 4, 8, 16, 17, 32, 33, 64, 65, 128, 129 };
	for (size_t i = 1; i < nex; i++) {
		const cb_measurement *m = &r->plan->ms[ex[i].index];
		long long s;
		if (ex[i].op != op)
			continue;
		if (!cb_kind_is(m, "stride") || !cb_param_get(m, "stride", &s))
			continue;
		for (size_t k = 0; k < sizeof shown / sizeof *shown; k++)
			if (s == shown[k] && !cb_ratio_converged(&ex[i], r->o->ci_target))
				return false;
	}
	return true;
}

static bool same_on_resamples(cb_runner *r, const cb_experiment *ex, size_t nex, cb_op op,
			      unsigned rounds, cb_dataset *ds, double *scratch)
{
	cb_rng rng;
	cb_rng_seed(&rng, r->o->seed * 31 + rounds + 7u * op);
	for (int b = 0; b < RESAMPLES; b++) {
		dataset(r, ex, nex, op, &rng, ds, scratch);
		cb_inference inf;
		char key[160];
		if (cb_infer_cached(ds, r->cache[op], &inf, NULL) != CB_OK)
			return false;
		answer_key(&inf, key, sizeof key);
		if (strcmp(key, r->answers[0][op]) != 0)
			return false;
	}
	return true;
}

/* Has OP's answer settled? */
static bool op_settled(cb_runner *r, const cb_experiment *ex, size_t nex, cb_op op, unsigned rounds,
		       cb_dataset *ds, double *scratch)
{
	dataset(r, ex, nex, op, NULL, ds, scratch);
	if (!r->cache[op])
		r->cache[op] = cb_pass_cache_new(ds);
	cb_inference inf;
	if (cb_infer_cached(ds, r->cache[op], &inf, NULL) != CB_OK)
		return false;
	memmove(r->answers[1][op], r->answers[0][op], sizeof r->answers[0][op]);
	answer_key(&inf, r->answers[0][op], sizeof r->answers[0][op]);
	return r->nanswers >= 1 && strcmp(r->answers[0][op], r->answers[1][op]) == 0 &&
	       (inf.status != CB_BANKED || printed_precise(r, ex, nex, op)) &&
	       same_on_resamples(r, ex, nex, op, rounds, ds, scratch);
}

bool cb_run_settled(void *ctx, const cb_experiment *ex, size_t nex, unsigned rounds)
{
	cb_runner *r = ctx;
	cb_dataset ds = { .obs = cb_xcalloc(nex, sizeof(cb_obs)) };
	double *scratch = cb_xmalloc((rounds ? rounds : 1) * sizeof *scratch);
	bool settled = true, present[CB_NOPS] = { false };
	for (size_t i = 1; i < nex; i++)
		present[ex[i].op] = true;
	char all[3 * 170] = "";
	for (int op = 0; op < CB_NOPS; op++) {
		if (!present[op])
			continue;
		/* Every op is checked (not only until one fails): each keeps its last answer. */
		settled &= op_settled(r, ex, nex, (cb_op)op, rounds, &ds, scratch);
		size_t len = strlen(all);
		snprintf(all + len, sizeof all - len, "%s%s: %s", len ? "; " : "",
			 cb_op_name((cb_op)op), r->answers[0][op]);
	}
	r->nanswers++;
	cb_note(r->o->notify, CB_NOTE_DETAIL, "round %u: %s%s", rounds, all,
		settled ? " (settled)" : "");
	free(scratch);
	free(ds.obs);
	return settled;
}
