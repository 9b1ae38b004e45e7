/* SPDX-License-Identifier: MIT */
/* The verdict of an inference (banked, not banked, inconclusive) and what its reader must
 * know: the confidence, the reason, the warnings, the validation on the hold-out tables and
 * the cost of a pass. The model selection that comes before is infer.c's. */
#include "config.h"
#include "core/infer_ctx.h"
#include "core/infer_quality.h"
#include "core/stats.h"
#include "core/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A banked model must explain at least this share of the variation around the flat model. */
#define R2_MIN 0.90
/* Variation that no bank model explains reads as "not banked" when it is small: the largest
 * slowdown below MIN_EFFECT, or an RMS deviation from a constant below FLAT_RMS_MAX (a CPU's
 * noise and vectorizer steps; banked GPUs deviate by 15% and more even in the latency regime). */
#define MIN_EFFECT 1.5
#define FLAT_RMS_MAX 0.10
/* Hold-out tables from which their misfit counts against the confidence: a few tables far off
 * are evidence enough (0.2.0 asked for five, and 8-byte atomics of the quick plan, four tables
 * off by 31%, kept a confidence of 0.998). */
#define VAL_MIN 3

static void describe_geom(char *buf, size_t n, const cb_fit *f)
{
	if (f->flat)
		snprintf(buf, n, "flat (no banks)");
	else
		snprintf(buf, n, "%u x %u B%s", f->geom.banks, f->geom.width,
			 f->geom.broadcast ? "" : " without broadcast");
}

cb_decision cb_infer_decide(const cb_decision_input *in)
{
	double banked_confidence = in->geometry_weight / in->total_weight * in->lanes_share *
				   cb_fit_factor(in->misfit);
	cb_decision d = { CB_INCONCLUSIVE, banked_confidence, CB_WHY_TOO_FEW };
	double r2 = in->r2 > 0 ? in->r2 : 0;
	if (in->n_fit < 3 * (size_t)in->n_elem + 2)
		return d;
	if (in->flat_score <= in->best_score + TIE_SCORE) {
		d.status = CB_NOT_BANKED;
		d.confidence = in->flat_weight / in->total_weight;
		d.why = CB_WHY_FLAT_FITS;
		if (!(d.confidence >= CB_NOT_BANKED_MIN_CONFIDENCE)) {
			d.status = CB_INCONCLUSIVE;
			d.why = CB_WHY_FLAT_UNSURE;
		}
	} else if (in->r2 < R2_MIN) {
		if (in->max_ratio < MIN_EFFECT || in->flat_rms < FLAT_RMS_MAX) {
			d.status = CB_NOT_BANKED;
			d.confidence = 1 - r2;
			d.why = CB_WHY_SMALL_EFFECT;
		} else {
			d.why = CB_WHY_UNEXPLAINED;
		}
	} else if (in->beyond_fits) {
		d.why = CB_WHY_BEYOND;
	} else if (in->tie_geometries > 0) {
		d.why = CB_WHY_TIE;
	} else if (in->misfit > CB_FIT_NONE) {
		d.why = CB_WHY_MISFIT;
	} else {
		d.status = CB_BANKED;
		d.why = CB_WHY_BANKED;
	}
	return d;
}

/* The misfit the verdict uses: the fit's, or the hold-out tables' when larger (over-fitting). */
static double misfit_of(const cb_inference *out)
{
	double q = out->quality.misfit, v = out->quality.val_misfit;
	if (out->val_n >= VAL_MIN && isfinite(v) && v > q)
		q = v;
	return q;
}

static void explain(const infer_ctx *x, cb_decision_reason why)
{
	cb_inference *out = x->out;
	char best[64], runner[64];
	describe_geom(best, sizeof best, &out->best);
	describe_geom(runner, sizeof runner, &out->runner_up);
	double r2 = out->r2 > 0 ? out->r2 : 0;
	char *s = out->reason;
	size_t n = sizeof out->reason;
	switch (why) {
	case CB_WHY_TOO_FEW:
		snprintf(s, n, "too few measurements (%zu) to compare bank models", out->n_fit);
		break;
	case CB_WHY_FLAT_FITS:
		snprintf(
			s, n,
			"time does not depend on the access pattern beyond the noise (%.1f%%: the "
			"larger of the best fit's error and the measurements' own noise plus %.0f%%): "
			"the flat model fits as well as any bank model",
			100 * out->sigma, 100 * CB_MODEL_ALLOWANCE);
		break;
	case CB_WHY_FLAT_UNSURE:
		snprintf(
			s, n,
			"the flat model fits as well as %s and other bank models but holds only "
			"%.1f%% of the evidence: the measurements cannot tell banked from not banked",
			best, 100 * out->confidence);
		break;
	case CB_WHY_SMALL_EFFECT:
		snprintf(
			s, n,
			"times stay within %.1f%% (RMS) of a constant, at most %.2fx apart, and no "
			"bank model explains the variation (the best, %s, explains %.0f%% of it)",
			100 * out->flat.rms, out->max_ratio, best, 100 * r2);
		break;
	case CB_WHY_UNEXPLAINED:
		snprintf(s, n,
			 "times vary up to %.1fx but no bank model explains them (the best, %s, "
			 "explains %.0f%% of the variation)",
			 out->max_ratio, best, 100 * r2);
		break;
	case CB_WHY_TIE:
		snprintf(s, n, "the measurements cannot separate %s from %s%s", best, x->tie_desc,
			 x->tie_geometries > 3 ? " and others" : "");
		break;
	case CB_WHY_BEYOND:
		snprintf(
			s, n,
			"the best model, %s, lies near the edge of the search (at most %d banks), "
			"and %s beyond it fits as well or better: the device may have more banks than "
			"clbanks searches",
			best, CB_MAX_BANKS_SEARCHED, x->beyond_desc);
		break;
	case CB_WHY_MISFIT:
		snprintf(s, n,
			 "no bank model describes these measurements: the best, %s, misses them "
			 "by %.1fx what their noise and a %.0f%% model allowance explain",
			 best, misfit_of(out), 100 * CB_MODEL_ALLOWANCE);
		break;
	case CB_WHY_BANKED:
		snprintf(s, n,
			 "%s explains %.1f%% of the variation; the runner-up, %s, fits %.1fx worse",
			 best, 100 * out->r2, runner,
			 out->best.sse > 0 ? out->runner_up.sse / out->best.sse : INFINITY);
		break;
	}
}

static void add_warning(cb_inference *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add_warning(cb_inference *out, const char *fmt, ...)
{
	if (out->nwarnings >= CB_MAX_INFER_WARNINGS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(out->warnings[out->nwarnings++], sizeof out->warnings[0], fmt, ap);
	va_end(ap);
}

/* What a banked verdict's reader must know about its fit. */
static void fit_warnings(cb_inference *out)
{
	const cb_fit_quality *q = &out->quality;
	if (out->status != CB_BANKED || !q->judged)
		return;
	double held = q->val_misfit;
	if (out->fit_factor < 1)
		add_warning(
			out,
			"the model explains this device only approximately: it misses the %s by "
			"%.1fx what their noise and a %.0f%% model allowance explain (confidence x %.2f)",
			out->val_n >= VAL_MIN && isfinite(held) && held > q->misfit
				? "held-out random tables (over-fitted)"
				: "measurements",
			misfit_of(out), 100 * CB_MODEL_ALLOWANCE, out->fit_factor);
	if (!q->noise_known)
		add_warning(out,
			    "the document records no uncertainty of its measurements: the fit is "
			    "judged against the %.0f%% model allowance alone",
			    100 * CB_MODEL_ALLOWANCE);
}

/* The first number the verdict would rest on that is not finite, or NULL: such a fit is no
 * model (a verdict from it would be arbitrary), whatever the thresholds say. */
static const char *unsound(const infer_ctx *x)
{
	const cb_inference *out = x->out;
	const cb_candidate *best = &x->cand[x->best_index];
	if (!isfinite(out->flat.sse) || !isfinite(out->flat.score))
		return "the flat model's residual";
	if (!isfinite(best->sse) || !isfinite(x->min_score))
		return "the best bank model's residual";
	if (!isfinite(x->total_weight) || !(x->total_weight > 0) || !isfinite(x->geometry_weight))
		return "the models' posterior weights";
	if (!isfinite(out->lanes_share) || !isfinite(out->sigma))
		return "the noise scale";
	if (!isfinite(out->quality.misfit))
		return "the misfit of the best bank model";
	for (int e = 0; e < CB_NELEM; e++)
		if (x->set.n[e] && (!isfinite(out->best.t0[e]) || !isfinite(out->best.c[e]) ||
				    !isfinite(out->flat.t0[e])))
			return "a fitted time";
	return NULL;
}

/* Step 11: the verdict and its reason. */
void cb_infer_verdict(infer_ctx *x)
{
	cb_inference *out = x->out;
	const char *bad = unsound(x);
	if (bad) {
		out->status = CB_INCONCLUSIVE;
		out->confidence = 0;
		snprintf(out->reason, sizeof out->reason,
			 "the fit is numerically unusable (%s is not a "
			 "finite number): the times are beyond what the fit can represent",
			 bad);
		return;
	}
	cb_decision_input in = {
		.n_fit = out->n_fit,
		.n_elem = x->n_elem,
		.flat_score = out->flat.score,
		.best_score = x->cand[x->best_index].score,
		.r2 = out->r2,
		.max_ratio = out->max_ratio,
		.flat_rms = out->flat.rms,
		.tie_geometries = x->tie_geometries,
		.flat_weight = exp(-(out->flat.score - x->min_score) / 2),
		.geometry_weight = x->geometry_weight,
		.total_weight = x->total_weight,
		.lanes_share = out->lanes_share,
		.misfit = misfit_of(out),
		.beyond_fits = x->beyond_fits,
	};
	cb_decision d = cb_infer_decide(&in);
	out->status = d.status;
	out->no_model_fits = d.why == CB_WHY_MISFIT;
	out->flat_fits = d.why == CB_WHY_FLAT_FITS || d.why == CB_WHY_FLAT_UNSURE;
	out->confidence = d.confidence;
	out->geometry_share = x->geometry_weight / x->total_weight;
	out->fit_factor = cb_fit_factor(in.misfit);
	fit_warnings(out);
	explain(x, d.why);
}

/* Step 12: the cost of one extra pass: for 4-byte elements, else the median over element
 * sizes; per sub-group when the sub-groups per compute unit are known, and then in cycles
 * when the clock is. */
void cb_infer_cost_per_pass(infer_ctx *x)
{
	cb_inference *out = x->out;
	if (out->status == CB_NOT_BANKED)
		return;
	double costs[CB_NELEM];
	int n_costs = 0;
	for (int e = 0; e < CB_NELEM; e++)
		if (x->set.n[e])
			costs[n_costs++] = out->best.c[e];
	int e4 = cb_elem_index(4);
	if (x->set.n[e4])
		out->step_pass_ns = out->best.c[e4];
	else if (n_costs) {
		qsort(costs, (size_t)n_costs, sizeof *costs, cb_cmp_double);
		out->step_pass_ns = costs[n_costs / 2];
	}
	/* A step serves subgroups_per_cu sub-groups on each compute unit, the units side by side:
	 * one sub-group's share of the step is the step's cost over that count (latency: 1). */
	if (x->ds->subgroups_per_cu > 0 && isfinite(out->step_pass_ns))
		out->pass_ns_per_subgroup = out->step_pass_ns / x->ds->subgroups_per_cu;
	if (x->ds->clock_mhz > 0 && isfinite(out->pass_ns_per_subgroup))
		out->pass_cycles = out->pass_ns_per_subgroup * x->ds->clock_mhz * 1e-3;
}

/* Standard errors a single table's one-pass step must span for the lanes it tells apart to
 * count as resolved. */
#define RESOLVE_SIGMAS 3.0

/* Whether size E's tables resolve one pass at the fewest passes its accesses take (under the
 * best fit): which lanes share a pass shows only there (a lane pair: one pass more or not), and
 * the family's groupings are contiguous. Where the measurements' noise hides that step, a
 * grouping outside the family fits as well (CDNA's ds_read_b128 lane sets read as contiguous
 * groups of 8 at 1.000 from the quick tables at 8% noise: 8 passes, one pass 12.5%, a table's
 * standard error 4.6%), so the lanes per pass are only approximate. */
static bool resolves_one_pass(const infer_ctx *x, int e)
{
	const cb_fit *f = &x->out->best;
	const cb_dataset *ds = x->ds;
	if (!(f->c[e] > 0))
		return true;
	double *s = cb_xmalloc((ds->n ? ds->n : 1) * sizeof *s), fewest = INFINITY;
	size_t ns = 0;
	for (size_t i = 0; i < ds->n; i++) {
		const cb_obs *o = &ds->obs[i];
		if (o->holdout || cb_elem_index(o->elem_bytes) != e || !(o->t > 0))
			continue;
		double t = cb_fit_predict(f, ds->subgroup, o->elem_bytes, o->lanes);
		double p = (t - f->t0[e]) / f->c[e];
		if (isfinite(p) && p >= 0.5)
			fewest = fmin(fewest, p);
		if (o->rel_err > 0)
			s[ns++] = o->rel_err /
				  1.96; /* a 95% CI's half-width is 1.96 standard errors */
	}
	bool resolved = true;
	if (ns && isfinite(fewest)) {
		qsort(s, ns, sizeof *s, cb_cmp_double);
		resolved = 1 / fewest >= RESOLVE_SIGMAS * s[ns / 2];
	}
	free(s);
	return resolved;
}

/* Step 9: how well the best model fits, against the measurements' noise; a size whose tables
 * stand out, or too noisy to see one pass where lanes share it, keeps its lanes per pass only
 * as approximate. */
void cb_infer_judge(infer_ctx *x)
{
	cb_inference *out = x->out;
	cb_judge_fit(x->ds, &out->best, &out->quality);
	for (int e = 0; e < CB_NELEM; e++)
		if (out->quality.approximate[e] ||
		    (out->lanes_certain[e] && !resolves_one_pass(x, e)))
			out->lanes_certain[e] = false;
}

/* Step 10: validation on the hold-out tables with MODEL (the best; the flat one when not
 * banked). */
void cb_infer_validate(infer_ctx *x, const cb_fit *model)
{
	cb_inference *out = x->out;
	double ss = 0, worst = 0;
	size_t within = 0;
	out->val_n = 0;
	out->val_rms = out->val_max = out->val_within10 = NAN;
	for (size_t i = 0; i < x->ds->n; i++) {
		const cb_obs *o = &x->ds->obs[i];
		if (!o->holdout || !(o->t > 0) || !isfinite(o->t))
			continue;
		double pred = cb_fit_predict(model, x->ds->subgroup, o->elem_bytes, o->lanes);
		if (!isfinite(pred))
			continue;
		double r = fabs(pred - o->t) / o->t;
		ss += r * r;
		worst = r > worst ? r : worst;
		within += r <= 0.10;
		out->val_n++;
	}
	if (out->val_n) {
		out->val_rms = sqrt(ss / (double)out->val_n);
		out->val_max = worst;
		out->val_within10 = (double)within / (double)out->val_n;
	}
}
