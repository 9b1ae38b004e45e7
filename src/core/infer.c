/* SPDX-License-Identifier: MIT */
/* The inference of a bank model: the fit sets, every candidate of the family scored, the
 * reported model, its ties, runner-up and leaders (steps 1 to 8); the verdict that follows is
 * infer_verdict.c's (steps 9 to 12). */
#include "config.h"
#include "core/infer.h"
#include "core/infer_ctx.h"
#include "core/infer_fit.h"
#include "core/infer_quality.h"
#include "core/stats.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Score gap below which two groupings are indistinguishable: the larger one is reported. */
#define SAME_SCORE 1.0
/* Relative noise floor: even perfect data is not trusted beyond 1%. */
#define SIGMA_FLOOR 0.01

const char *cb_status_name(cb_status s)
{
	switch (s) {
	case CB_BANKED:
		return "banked";
	case CB_NOT_BANKED:
		return "not_banked";
	default:
		return "inconclusive";
	}
}

/* Step 1: the fit set per element size, and the hold-out set. */
static void split_observations(infer_ctx *x)
{
	const cb_dataset *ds = x->ds;
	cb_inference *out = x->out;
	for (int e = 0; e < CB_NELEM; e++)
		x->set.idx[e] = cb_xmalloc((ds->n ? ds->n : 1) * sizeof(size_t));
	for (size_t i = 0; i < ds->n; i++) {
		const cb_obs *o = &ds->obs[i];
		int e = cb_elem_index(o->elem_bytes);
		if (e < 0 || !(o->t > 0) || !isfinite(o->t))
			continue;
		if (o->holdout) {
			out->n_holdout++;
			continue;
		}
		x->set.idx[e][x->set.n[e]++] = i;
		out->n_fit++;
	}
	for (int e = 0; e < CB_NELEM; e++) {
		out->elem_present[e] = x->set.n[e] > 0;
		x->n_elem += out->elem_present[e];
	}
}

/* Step 2: the largest slowdown within one element size, and the flat model. */
static void fit_flat(infer_ctx *x)
{
	cb_inference *out = x->out;
	out->flat.flat = true;
	for (int e = 0; e < CB_NELEM; e++) {
		if (!x->set.n[e])
			continue;
		double lo = INFINITY, hi = 0;
		cb_sums s = { 0 };
		for (size_t k = 0; k < x->set.n[e]; k++) {
			double t = x->ds->obs[x->set.idx[e][k]].t;
			lo = t < lo ? t : lo;
			hi = t > hi ? t : hi;
			s.s0 += 1 / (t * t);
			s.t0 += 1 / t;
			s.tt += 1;
		}
		if (hi / lo > out->max_ratio)
			out->max_ratio = hi / lo;
		out->flat.t0[e] = s.t0 / s.s0;
		out->flat.sse += cb_sums_sse(&s, out->flat.t0[e], 0);
	}
}

/* Step 4: the noise scale: the best fit's residual, or what noise and model error explain
 * (the median standard error of the measurements, from their 95% CI, and the model allowance),
 * or the floor, whichever is largest. */
static void set_noise_scale(infer_ctx *x)
{
	cb_inference *out = x->out;
	x->best_index = 0;
	for (size_t i = 1; i < x->ncand; i++)
		if (x->cand[i].sse < x->cand[x->best_index].sse)
			x->best_index = i;
	double dof = (double)out->n_fit - 2.0 * x->n_elem;
	double sigma2 = x->cand[x->best_index].sse / (dof >= 1 ? dof : 1);
	double *errs = cb_xmalloc(out->n_fit * sizeof *errs);
	size_t nerr = 0;
	for (int e = 0; e < CB_NELEM; e++)
		for (size_t k = 0; k < x->set.n[e]; k++)
			if (x->ds->obs[x->set.idx[e][k]].rel_err > 0)
				errs[nerr++] = x->ds->obs[x->set.idx[e][k]].rel_err / 1.96;
	/* What a correct model may miss by: the measurements' noise plus the model allowance. */
	double med = 0;
	if (nerr) {
		qsort(errs, nerr, sizeof *errs, cb_cmp_double);
		med = errs[nerr / 2];
	}
	double expected2 = med * med + CB_MODEL_ALLOWANCE * CB_MODEL_ALLOWANCE;
	if (expected2 > sigma2)
		sigma2 = expected2;
	free(errs);
	if (sigma2 < SIGMA_FLOOR * SIGMA_FLOOR)
		sigma2 = SIGMA_FLOOR * SIGMA_FLOOR;
	x->sigma2 = sigma2;
	out->sigma = sqrt(sigma2);
}

/* Step 5: BIC-style scores and posterior weights, the flat model included. */
static void score_candidates(infer_ctx *x)
{
	cb_inference *out = x->out;
	double k_banked = 2.0 * x->n_elem, k_flat = x->n_elem;
	double lnn = log((double)out->n_fit);
	for (size_t i = 0; i < x->ncand; i++)
		x->cand[i].score = x->cand[i].sse / x->sigma2 + k_banked * lnn;
	out->flat.score = out->flat.sse / x->sigma2 + k_flat * lnn;
	out->flat.rms = sqrt(out->flat.sse / (double)out->n_fit);
	x->min_score = out->flat.score;
	for (size_t i = 0; i < x->ncand; i++)
		if (x->cand[i].score < x->min_score)
			x->min_score = x->cand[i].score;
	x->total_weight = exp(-(out->flat.score - x->min_score) / 2);
	for (size_t i = 0; i < x->ncand; i++)
		x->total_weight += exp(-(x->cand[i].score - x->min_score) / 2);
}

/* A candidate as a fit, with each element size's best grouping. */
static cb_fit candidate_to_fit(const infer_ctx *x, const cb_candidate *c)
{
	cb_fit f;
	memset(&f, 0, sizeof f);
	f.geom.banks = c->banks;
	f.geom.width = c->width;
	f.geom.broadcast = c->broadcast;
	f.geom.pair_packing = c->pair_packing;
	for (int e = 0; e < CB_NELEM; e++) {
		if (!x->set.n[e])
			continue;
		f.lanes_per_pass[e] = x->set.groupings[c->best_g[e]];
		f.t0[e] = c->a_eg[e][c->best_g[e]];
		f.c[e] = c->b_eg[e][c->best_g[e]];
	}
	f.sse = c->sse;
	f.score = c->score;
	f.rms = sqrt(c->sse / (double)x->out->n_fit);
	return f;
}

/* The posterior share of grouping PICK among the groupings of element size E in candidate C. */
static double grouping_share(const infer_ctx *x, const cb_candidate *c, int e, unsigned pick)
{
	double emin = c->sse_eg[e][c->best_g[e]], total = 0;
	for (unsigned gi = 0; gi < x->set.ngroupings; gi++)
		total += exp(-(c->sse_eg[e][gi] - emin) / (2 * x->sigma2));
	return exp(-(c->sse_eg[e][pick] - emin) / (2 * x->sigma2)) / total;
}

/* Step 6: the reported model: the best candidate's geometry and broadcast rule, without pair
 * packing when that fits as well (simpler), and for each element size the best grouping (the
 * largest of those the data cannot tell apart); near-ties make it uncertain. */
static void pick_reported(infer_ctx *x)
{
	cb_inference *out = x->out;
	const cb_candidate *rep = &x->cand[x->best_index];
	if (rep->pair_packing)
		for (size_t i = 0; i < x->ncand; i++) {
			const cb_candidate *c = &x->cand[i];
			if (c->banks == rep->banks && c->width == rep->width &&
			    c->broadcast == rep->broadcast && !c->pair_packing &&
			    c->sse - rep->sse <= TIE_SCORE * x->sigma2)
				rep = c;
		}
	x->reported = rep;
	out->lanes_share = 1;
	cb_fit *best = &out->best;
	*best = candidate_to_fit(x, rep);
	best->sse = 0;
	for (int e = 0; e < CB_NELEM; e++) {
		if (!x->set.n[e])
			continue;
		double emin = rep->sse_eg[e][rep->best_g[e]];
		unsigned pick = rep->best_g[e], ties = 0;
		for (unsigned gi = 0; gi < x->set.ngroupings; gi++)
			if ((rep->sse_eg[e][gi] - emin) / x->sigma2 <= TIE_SCORE) {
				ties++;
				/* Between groupings the data cannot tell apart at all, the larger. */
				if ((rep->sse_eg[e][gi] - emin) / x->sigma2 <= SAME_SCORE &&
				    x->set.groupings[gi] > x->set.groupings[pick])
					pick = gi;
			}
		out->lanes_certain[e] = ties == 1;
		out->lanes_share *= grouping_share(x, rep, e, pick);
		best->lanes_per_pass[e] = x->set.groupings[pick];
		best->t0[e] = rep->a_eg[e][pick];
		best->c[e] = rep->b_eg[e][pick];
		best->sse += rep->sse_eg[e][pick];
	}
	double lnn = log((double)out->n_fit);
	best->score = best->sse / x->sigma2 + 2.0 * x->n_elem * lnn;
	best->rms = sqrt(best->sse / (double)out->n_fit);
	out->has_best = true;
	out->r2 = out->flat.sse > 0 ? 1 - best->sse / out->flat.sse : 0;
}

/* Step 7: is broadcast decided (no near-tie of the same geometry says otherwise), the weight
 * of the reported geometry, and the other geometries within the tie margin. */
static void find_ties(infer_ctx *x)
{
	const cb_candidate *rep = x->reported, *best = &x->cand[x->best_index];
	x->out->broadcast_known = true;
	for (size_t i = 0; i < x->ncand; i++) {
		const cb_candidate *c = &x->cand[i];
		bool same = c->banks == rep->banks && c->width == rep->width;
		if (same)
			x->geometry_weight += exp(-(c->score - x->min_score) / 2);
		if (c->score - best->score > TIE_SCORE)
			continue;
		if (same && c->broadcast != rep->broadcast)
			x->out->broadcast_known = false;
		if (same)
			continue;
		/* Count distinct geometries once: a broadcast variant of a listed one is skipped. */
		bool seen = false;
		for (size_t j = 0; j < i; j++)
			if (x->cand[j].banks == c->banks && x->cand[j].width == c->width &&
			    x->cand[j].score - best->score <= TIE_SCORE)
				seen = true;
		if (seen)
			continue;
		if (x->tie_geometries < 3) {
			size_t len = strlen(x->tie_desc);
			snprintf(x->tie_desc + len, sizeof x->tie_desc - len, "%s%u x %u B",
				 x->tie_geometries ? ", " : "", c->banks, c->width);
		}
		x->tie_geometries++;
	}
}

/* Step 8: the runner-up: the best candidate of another geometry, or the flat model if that
 * scores better. */
static void find_runner_up(infer_ctx *x)
{
	const cb_candidate *rep = x->reported;
	size_t runner = SIZE_MAX;
	for (size_t i = 0; i < x->ncand; i++) {
		if (x->cand[i].banks == rep->banks && x->cand[i].width == rep->width)
			continue;
		if (runner == SIZE_MAX || x->cand[i].score < x->cand[runner].score)
			runner = i;
	}
	if (runner == SIZE_MAX || x->out->flat.score <= x->cand[runner].score)
		x->out->runner_up = x->out->flat;
	else
		x->out->runner_up = candidate_to_fit(x, &x->cand[runner]);
	x->out->has_runner_up = true;
}

/* Observations the edge check fits at most (an evenly spread sample of larger sets). */
#define EDGE_SAMPLE 2048

/* The smallest residual of BANKS x WIDTH under the three rules (broadcast, with pair
 * packing, none) on every STEP-th fit observation. */
static double direct_sse(const infer_ctx *x, unsigned banks, unsigned width, size_t step)
{
	double best = INFINITY;
	for (int rule = 0; rule < 3; rule++) {
		cb_geometry g = { banks, width, rule != 2, rule == 1 };
		double sse = cb_fit_direct(&x->set, &g, step);
		best = sse < best ? sse : best;
	}
	return best;
}

/* Step 8b: a best geometry whose bank count doubled lies beyond the search (B > 64 of at most
 * 128) may be the shadow of a device with more banks: 256 x 4 B reads much like 128 x 8 B.
 * The doubled counts (at the same width and at half of it) are fitted on the same tables; if
 * one fits as well or better, the family cannot single out the device. */
static void check_edge(infer_ctx *x)
{
	const cb_candidate *rep = x->reported;
	if (2 * rep->banks <= CB_MAX_BANKS_SEARCHED)
		return;
	size_t step = x->out->n_fit / EDGE_SAMPLE + 1;
	double in = direct_sse(x, rep->banks, rep->width, step);
	const unsigned widths[2] = { rep->width, rep->width / 2 };
	for (int k = 0; k < 2 && !x->beyond_fits; k++) {
		if (widths[k] < 4)
			continue;
		double out = direct_sse(x, 2 * rep->banks, widths[k], step);
		if (isfinite(in) && isfinite(out) && (out - in) / x->sigma2 <= TIE_SCORE) {
			x->beyond_fits = true;
			snprintf(x->beyond_desc, sizeof x->beyond_desc, "%u x %u B", 2 * rep->banks,
				 widths[k]);
		}
	}
}

/* Leaders are gathered in a buffer of their own (the flat model, the reported one, its other
 * groupings, the best candidates), sorted, and the heaviest kept. */
typedef struct {
	cb_leader *v;
	size_t n, cap;
} leader_buf;

static void add_leader(leader_buf *b, const cb_fit *f, double weight)
{
	if (b->n < b->cap)
		b->v[b->n++] = (cb_leader){ *f, weight };
}

static int cmp_leader(const void *a, const void *b)
{
	double wa = ((const cb_leader *)a)->weight, wb = ((const cb_leader *)b)->weight;
	return wa > wb ? -1 : wa < wb;
}

/* The leading models: the flat one, the reported model's other groupings (one element size
 * changed at a time), then the best candidates by score; heaviest first. */
static void collect_leaders(infer_ctx *x)
{
	if (!x->leaders || !x->max_leaders)
		return;
	const cb_inference *out = x->out;
	leader_buf b = { .cap = 2 + CB_NELEM * CB_MAX_GROUPINGS + x->max_leaders };
	b.v = cb_xmalloc(b.cap * sizeof *b.v);
	add_leader(&b, &out->flat, exp(-(out->flat.score - x->min_score) / 2) / x->total_weight);
	add_leader(&b, &out->best, exp(-(out->best.score - x->min_score) / 2) / x->total_weight);
	const cb_candidate *rep = x->reported;
	for (int e = 0; e < CB_NELEM; e++)
		for (unsigned gi = 0; gi < x->set.ngroupings && x->set.n[e]; gi++) {
			if (x->set.groupings[gi] == out->best.lanes_per_pass[e])
				continue;
			cb_fit f = out->best;
			f.lanes_per_pass[e] = x->set.groupings[gi];
			f.t0[e] = rep->a_eg[e][gi];
			f.c[e] = rep->b_eg[e][gi];
			double d = (rep->sse_eg[e][gi] - rep->sse_eg[e][rep->best_g[e]]) /
				   (2 * x->sigma2);
			add_leader(&b, &f,
				   exp(-(out->best.score - x->min_score) / 2 - d) /
					   x->total_weight);
		}
	/* The best candidates by score, other than the reported one. */
	size_t want = x->max_leaders, ntop = 0;
	size_t *top = cb_xmalloc(want * sizeof *top);
	for (size_t i = 0; i < x->ncand; i++) {
		const cb_candidate *c = &x->cand[i];
		if (c == rep || (ntop == want && c->score >= x->cand[top[want - 1]].score))
			continue;
		size_t at = ntop < want ? ntop++ : want - 1;
		while (at > 0 && x->cand[top[at - 1]].score > c->score) {
			top[at] = top[at - 1];
			at--;
		}
		top[at] = i;
	}
	for (size_t k = 0; k < ntop; k++) {
		cb_fit f = candidate_to_fit(x, &x->cand[top[k]]);
		add_leader(&b, &f,
			   exp(-(x->cand[top[k]].score - x->min_score) / 2) / x->total_weight);
	}
	free(top);
	qsort(b.v, b.n, sizeof *b.v, cmp_leader);
	x->nleaders = b.n < x->max_leaders ? b.n : x->max_leaders;
	memcpy(x->leaders, b.v, x->nleaders * sizeof *b.v);
	free(b.v);
}

static void init_output(cb_inference *out)
{
	memset(out, 0, sizeof *out);
	out->step_pass_ns = out->pass_ns_per_subgroup = out->pass_cycles = NAN;
	out->run_factor = 1;
	out->val_rms = out->val_max = out->val_within10 = NAN;
	out->r2 = NAN;
}

/* The fit is scale-invariant, but its sums (1 / t^2 times passes^2, and their products)
 * overflow or underflow for absurd times. So the times are divided by a power of two near
 * their median -- exact, so that a document of ordinary times fits bit for bit as without it --
 * and the fitted times multiplied back. Returns the exponent; 0 when there is nothing to do. */
static int time_exponent(const cb_dataset *ds)
{
	double *t = cb_xmalloc((ds->n ? ds->n : 1) * sizeof *t);
	size_t n = 0;
	for (size_t i = 0; i < ds->n; i++)
		if (ds->obs[i].t > 0 && isfinite(ds->obs[i].t))
			t[n++] = ds->obs[i].t;
	int ex = 0;
	if (n) {
		qsort(t, n, sizeof *t, cb_cmp_double);
		frexp(t[n / 2], &ex);
	}
	free(t);
	/* Times between 2^-32 and 2^32 need no scaling (and keep exactly their old fit). */
	return ex < -32 || ex > 32 ? ex : 0;
}

/* Times this far from their median cannot be fitted together (no device spans that much). */
#define SPAN_MAX 1e60

/* Whether every time of DS lies within SPAN_MAX of 2^EX. */
static bool times_fit_together(const cb_dataset *ds, int ex)
{
	for (size_t i = 0; i < ds->n; i++) {
		double t = ldexp(ds->obs[i].t, -ex);
		if (t > 0 && isfinite(t) && (t > SPAN_MAX || t < 1 / SPAN_MAX))
			return false;
	}
	return true;
}

/* DS with its times divided by 2^EX, in observations of its own (freed by the caller). */
static cb_dataset scale_times(const cb_dataset *ds, int ex)
{
	cb_dataset scaled = *ds;
	scaled.obs = cb_xmalloc((ds->n ? ds->n : 1) * sizeof *scaled.obs);
	for (size_t i = 0; i < ds->n; i++) {
		scaled.obs[i] = ds->obs[i];
		scaled.obs[i].t = ldexp(ds->obs[i].t, -ex);
	}
	return scaled;
}

static void unscale_fit(cb_fit *f, int ex)
{
	for (int e = 0; e < CB_NELEM; e++) {
		f->t0[e] = ldexp(f->t0[e], ex);
		f->c[e] = ldexp(f->c[e], ex);
	}
}

static cb_rc infer_scaled(const cb_dataset *ds, const cb_pass_cache *cache, cb_inference *out,
			  infer_ctx *lead, cb_error *err);

cb_rc cb_infer(const cb_dataset *ds, cb_inference *out, cb_error *err)
{
	return cb_infer_cached(ds, NULL, out, err);
}

cb_rc cb_infer_cached(const cb_dataset *ds, const cb_pass_cache *cache, cb_inference *out,
		      cb_error *err)
{
	size_t n;
	return cb_infer_leaders(ds, cache, out, NULL, 0, &n, err);
}

cb_rc cb_infer_leaders(const cb_dataset *ds, const cb_pass_cache *cache, cb_inference *out,
		       cb_leader *leaders, size_t max, size_t *n, cb_error *err)
{
	infer_ctx lead = { .leaders = leaders, .max_leaders = leaders ? max : 0 };
	*n = 0;
	int ex = time_exponent(ds);
	if (!times_fit_together(ds, ex)) {
		init_output(out);
		out->status = CB_INCONCLUSIVE;
		snprintf(out->reason, sizeof out->reason,
			 "the times span more than %.0e times their "
			 "median: no device measures that, and no fit could use them together",
			 SPAN_MAX);
		return CB_OK;
	}
	if (ex == 0) {
		cb_rc rc = infer_scaled(ds, cache, out, &lead, err);
		*n = lead.nleaders;
		return rc;
	}
	cb_dataset scaled = scale_times(ds, ex);
	cb_rc rc = infer_scaled(&scaled, cache, out, &lead, err);
	free(scaled.obs);
	*n = lead.nleaders;
	for (size_t i = 0; i < *n; i++)
		unscale_fit(&leaders[i].fit, ex);
	unscale_fit(&out->best, ex);
	unscale_fit(&out->runner_up, ex);
	unscale_fit(&out->flat, ex);
	out->step_pass_ns = ldexp(out->step_pass_ns, ex);
	out->pass_ns_per_subgroup = ldexp(out->pass_ns_per_subgroup, ex);
	out->pass_cycles = ldexp(out->pass_cycles, ex);
	return rc;
}

/* cb_infer_cached on a dataset whose times are near 1 (or were given so). */
static cb_rc infer_scaled(const cb_dataset *ds, const cb_pass_cache *cache, cb_inference *out,
			  infer_ctx *lead, cb_error *err)
{
	infer_ctx x;
	memset(&x, 0, sizeof x);
	x.leaders = lead->leaders;
	x.max_leaders = lead->max_leaders;
	x.ds = ds;
	x.out = out;
	x.set.ds = ds;
	init_output(out);
	split_observations(&x);
	cb_rc rc = CB_OK;
	if (out->n_fit == 0) {
		snprintf(out->reason, sizeof out->reason, "no timed measurements to analyze");
		out->status = CB_INCONCLUSIVE;
		goto done;
	}
	fit_flat(&x);
	x.set.ngroupings = cb_groupings_for(ds->subgroup, x.set.groupings);
	x.cand = cb_fit_candidates(&x.set, cache, &x.ncand);
	if (!x.cand) {
		rc = cb_check_interrupt(err);
		goto done;
	}
	out->candidates = cb_family_size();
	set_noise_scale(&x);
	score_candidates(&x);
	pick_reported(&x);
	find_ties(&x);
	find_runner_up(&x);
	check_edge(&x);
	cb_infer_judge(&x);
	cb_infer_validate(&x, &out->best);
	cb_infer_verdict(&x);
	if (out->status == CB_NOT_BANKED)
		cb_infer_validate(&x, &out->flat);
	cb_infer_cost_per_pass(&x);
	collect_leaders(&x);
	lead->nleaders = x.nleaders;
done:
	cb_fit_candidates_free(&x.set, x.cand);
	for (int e = 0; e < CB_NELEM; e++)
		free(x.set.idx[e]);
	return rc;
}
