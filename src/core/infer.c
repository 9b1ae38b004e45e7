/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/infer.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Score gap below which two candidates count as a near-tie (BIC scale: > 10 is very strong
 * evidence). */
#define TIE_SCORE 10.0
/* A banked model must explain at least this share of the variation around the flat model. */
#define R2_MIN 0.90
/* Variation that no bank model explains reads as "not banked" when it is small: the largest
 * slowdown below MIN_EFFECT, or an RMS deviation from a constant below FLAT_RMS_MAX (a CPU's
 * noise and vectorizer steps; banked GPUs deviate by 15% and more even in the latency regime). */
#define MIN_EFFECT 1.5
#define FLAT_RMS_MAX 0.10
/* Relative noise floor: even perfect data is not trusted beyond 1%. */
#define SIGMA_FLOOR 0.01
#define MAX_BANKS_SEARCHED 128
#define MAX_GROUPINGS 12

static const unsigned widths[] = { 4, 8, 16 };
#define NWIDTHS (sizeof widths / sizeof widths[0])

typedef struct {
	double a, b, sse;
} line_fit;

/* Weighted sums for t = a + b p with weights 1 / t^2 (relative residuals). */
typedef struct {
	double s0, s1, s2, t0, t1, tt;
} sums;

static double sse_of(const sums *s, double a, double b)
{
	double v = s->tt - 2 * a * s->t0 - 2 * b * s->t1 + a * a * s->s0 + 2 * a * b * s->s1 +
		   b * b * s->s2;
	return v > 0 ? v : 0;
}

/* Least squares with a >= 0 and b >= 0. */
static line_fit solve(const sums *s)
{
	line_fit f = { s->t0 / s->s0, 0, 0 };
	f.sse = sse_of(s, f.a, f.b);
	double det = s->s0 * s->s2 - s->s1 * s->s1;
	if (det > 1e-12 * s->s0 * s->s2 && det > 0) {
		double b = (s->s0 * s->t1 - s->s1 * s->t0) / det;
		double a = (s->t0 - b * s->s1) / s->s0;
		if (a >= 0 && b >= 0) {
			double e = sse_of(s, a, b);
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
			double e = sse_of(s, 0, b);
			if (e < f.sse) {
				f.a = 0;
				f.b = b;
				f.sse = e;
			}
		}
	}
	return f;
}

typedef struct {
	unsigned banks, width;
	bool merge, pack;
	double sse_eg[CB_NELEM][MAX_GROUPINGS];
	double a_eg[CB_NELEM][MAX_GROUPINGS], b_eg[CB_NELEM][MAX_GROUPINGS];
	unsigned best_g[CB_NELEM];
	double sse;
	double score;
} candidate;

const char *cb_status_name(cb_status s)
{
	switch (s) {
	case CB_BANKED: return "banked";
	case CB_NOT_BANKED: return "not_banked";
	default: return "inconclusive";
	}
}

static unsigned groupings_for(unsigned subgroup, unsigned *g)
{
	unsigned n = 0;
	for (unsigned v = 4; v < subgroup && n < MAX_GROUPINGS - 1; v *= 2)
		if (subgroup % v == 0)
			g[n++] = v;
	g[n++] = subgroup;
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double cb_fit_predict(const cb_fit *f, unsigned subgroup, unsigned elem_bytes, const uint32_t *lanes)
{
	int ei = cb_elem_index(elem_bytes);
	if (ei < 0)
		return NAN;
	if (f->flat)
		return f->t0[ei] > 0 ? f->t0[ei] : NAN;
	if (!f->lanes_per_pass[ei])
		return NAN;
	unsigned p = cb_passes(&f->geom, f->lanes_per_pass[ei], elem_bytes, lanes, subgroup);
	return f->t0[ei] + f->c[ei] * p;
}

static void describe_geom(char *buf, size_t n, const cb_fit *f)
{
	if (f->flat)
		snprintf(buf, n, "flat (no banks)");
	else
		snprintf(buf, n, "%u x %u B%s", f->geom.banks, f->geom.width,
			 f->geom.merge ? "" : " without broadcast");
}

bool cb_infer(const cb_dataset *ds, cb_inference *out)
{
	memset(out, 0, sizeof *out);
	out->cost_per_pass_ns = out->cost_per_pass_cycles = NAN;
	out->val_rms = out->val_max = out->val_within10 = NAN;
	out->r2 = NAN;
	const unsigned S = ds->subgroup;

	/* Split the observations: fit set per element size, hold-out set. */
	size_t *fit_idx[CB_NELEM];
	size_t nfit_e[CB_NELEM] = { 0 };
	for (int e = 0; e < CB_NELEM; e++)
		fit_idx[e] = cb_xmalloc((ds->n ? ds->n : 1) * sizeof(size_t));
	for (size_t i = 0; i < ds->n; i++) {
		const cb_obs *o = &ds->obs[i];
		int e = cb_elem_index(o->elem_bytes);
		if (e < 0 || !(o->t > 0) || !isfinite(o->t))
			continue;
		if (o->holdout) {
			out->n_holdout++;
			continue;
		}
		fit_idx[e][nfit_e[e]++] = i;
		out->n_fit++;
	}
	unsigned n_elem = 0;
	for (int e = 0; e < CB_NELEM; e++) {
		out->elem_present[e] = nfit_e[e] > 0;
		n_elem += out->elem_present[e];
	}
	if (out->n_fit == 0) {
		snprintf(out->reason, sizeof out->reason, "no timed measurements to analyze");
		out->status = CB_INCONCLUSIVE;
		for (int e = 0; e < CB_NELEM; e++)
			free(fit_idx[e]);
		return false;
	}

	/* Largest slowdown within one element size, and the flat model. */
	out->flat.flat = true;
	for (int e = 0; e < CB_NELEM; e++) {
		if (!nfit_e[e])
			continue;
		double lo = INFINITY, hi = 0;
		sums s = { 0 };
		for (size_t k = 0; k < nfit_e[e]; k++) {
			double t = ds->obs[fit_idx[e][k]].t;
			lo = t < lo ? t : lo;
			hi = t > hi ? t : hi;
			s.s0 += 1 / (t * t);
			s.t0 += 1 / t;
			s.tt += 1;
		}
		if (hi / lo > out->max_ratio)
			out->max_ratio = hi / lo;
		out->flat.t0[e] = s.t0 / s.s0;
		out->flat.sse += sse_of(&s, out->flat.t0[e], 0);
	}

	/* Evaluate every candidate: geometry, merge rule, pair packing, and for each element size
	 * every grouping. Passes depend on (W, B, merge, group) only; packing changes them just for
	 * the few tables with uniform lane pairs, so both variants share the pass arrays. */
	unsigned gl[MAX_GROUPINGS];
	unsigned ng = groupings_for(S, gl);
	size_t ncand = NWIDTHS * (MAX_BANKS_SEARCHED - 1) * 3;
	candidate *cand = cb_xcalloc(ncand, sizeof *cand);
	size_t nc = 0;
	cb_prepared *prep = cb_xcalloc(ds->n ? ds->n : 1, sizeof *prep);
	uint16_t **bank_of = cb_xcalloc(ds->n ? ds->n : 1, sizeof *bank_of);
	double *pass_buf = cb_xmalloc((ds->n ? ds->n : 1) * ng * sizeof *pass_buf);

	for (size_t wi = 0; wi < NWIDTHS; wi++) {
		const unsigned W = widths[wi];
		for (int e = 0; e < CB_NELEM; e++)
			for (size_t k = 0; k < nfit_e[e]; k++) {
				size_t i = fit_idx[e][k];
				cb_prepare(&prep[i], W, ds->obs[i].elem_bytes, ds->obs[i].lanes, S);
				bank_of[i] = cb_xmalloc((prep[i].nwords ? prep[i].nwords : 1) * sizeof(uint16_t));
			}
		for (unsigned B = 2; B <= MAX_BANKS_SEARCHED; B++) {
			for (int e = 0; e < CB_NELEM; e++)
				for (size_t k = 0; k < nfit_e[e]; k++) {
					size_t i = fit_idx[e][k];
					cb_prepared_banks(&prep[i], B, bank_of[i]);
				}
			for (int m = 1; m >= 0; m--) {
				candidate *cm[2];
				int npack = m ? 2 : 1;
				for (int pk = 0; pk < npack; pk++) {
					cm[pk] = &cand[nc++];
					cm[pk]->banks = B;
					cm[pk]->width = W;
					cm[pk]->merge = m;
					cm[pk]->pack = pk;
				}
				for (int e = 0; e < CB_NELEM; e++) {
					if (!nfit_e[e])
						continue;
					for (unsigned gi = 0; gi < ng; gi++)
						for (size_t k = 0; k < nfit_e[e]; k++) {
							size_t i = fit_idx[e][k];
							pass_buf[gi * nfit_e[e] + k] =
								cb_prepared_passes(&prep[i], bank_of[i], B, m, gl[gi]);
						}
					for (int pk = 0; pk < npack; pk++) {
						candidate *c = cm[pk];
						double best = INFINITY;
						for (unsigned gi = 0; gi < ng; gi++) {
							sums s = { 0 };
							for (size_t k = 0; k < nfit_e[e]; k++) {
								size_t i = fit_idx[e][k];
								double p = pass_buf[gi * nfit_e[e] + k];
								unsigned eg = pk ? cb_effective_group(&prep[i], true, gl[gi]) : gl[gi];
								if (eg != gl[gi])
									p = cb_prepared_passes(&prep[i], bank_of[i], B, m, eg);
								double t = ds->obs[i].t, w = 1 / (t * t);
								s.s0 += w;
								s.s1 += w * p;
								s.s2 += w * p * p;
								s.t0 += 1 / t;
								s.t1 += p / t;
								s.tt += 1;
							}
							line_fit f = solve(&s);
							c->sse_eg[e][gi] = f.sse;
							c->a_eg[e][gi] = f.a;
							c->b_eg[e][gi] = f.b;
							/* Ties go to the larger group (the simpler model). */
							if (f.sse <= best) {
								best = f.sse;
								c->best_g[e] = gi;
							}
						}
						c->sse += best;
					}
				}
			}
		}
		for (size_t i = 0; i < ds->n; i++) {
			if (bank_of[i]) {
				free(bank_of[i]);
				bank_of[i] = NULL;
				cb_prepared_free(&prep[i]);
			}
		}
	}
	free(pass_buf);
	free(bank_of);
	free(prep);
	out->candidates = nc;

	/* Noise scale: the best fit's residual, the measurements' own spread, or the floor. */
	size_t best_i = 0;
	for (size_t i = 1; i < nc; i++)
		if (cand[i].sse < cand[best_i].sse)
			best_i = i;
	double k_banked = 2.0 * n_elem, k_flat = n_elem;
	double dof = (double)out->n_fit - k_banked;
	double sigma2 = cand[best_i].sse / (dof >= 1 ? dof : 1);
	double *errs = cb_xmalloc(out->n_fit * sizeof *errs);
	size_t nerr = 0;
	for (int e = 0; e < CB_NELEM; e++)
		for (size_t k = 0; k < nfit_e[e]; k++)
			if (ds->obs[fit_idx[e][k]].rel_err > 0)
				errs[nerr++] = ds->obs[fit_idx[e][k]].rel_err;
	if (nerr) {
		qsort(errs, nerr, sizeof *errs, cmp_double);
		double med = errs[nerr / 2];
		if (med * med > sigma2)
			sigma2 = med * med;
	}
	free(errs);
	if (sigma2 < SIGMA_FLOOR * SIGMA_FLOOR)
		sigma2 = SIGMA_FLOOR * SIGMA_FLOOR;
	out->sigma = sqrt(sigma2);
	double lnn = log((double)out->n_fit);
	for (size_t i = 0; i < nc; i++)
		cand[i].score = cand[i].sse / sigma2 + k_banked * lnn;
	out->flat.score = out->flat.sse / sigma2 + k_flat * lnn;
	out->flat.rms = sqrt(out->flat.sse / (double)out->n_fit);

	/* Posterior weights (BIC approximation), flat included. */
	double min_score = out->flat.score;
	for (size_t i = 0; i < nc; i++)
		if (cand[i].score < min_score)
			min_score = cand[i].score;
	double total_w = exp(-(out->flat.score - min_score) / 2);
	for (size_t i = 0; i < nc; i++)
		total_w += exp(-(cand[i].score - min_score) / 2);

	/* The reported model: the best candidate's geometry and merge rule, without pair packing
	 * when that fits as well (simpler), and for each element size the simplest grouping
	 * (largest group) among near-ties. */
	const candidate *bc = &cand[best_i];
	if (bc->pack)
		for (size_t i = 0; i < nc; i++)
			if (cand[i].banks == bc->banks && cand[i].width == bc->width &&
			    cand[i].merge == bc->merge && !cand[i].pack &&
			    cand[i].sse - bc->sse <= TIE_SCORE * sigma2)
				bc = &cand[i];
	cb_fit *bf = &out->best;
	bf->geom.banks = bc->banks;
	bf->geom.width = bc->width;
	bf->geom.merge = bc->merge;
	bf->geom.pack = bc->pack;
	bf->sse = 0;
	for (int e = 0; e < CB_NELEM; e++) {
		if (!nfit_e[e])
			continue;
		double emin = bc->sse_eg[e][bc->best_g[e]];
		unsigned pick = bc->best_g[e], nt = 0;
		for (unsigned gi = 0; gi < ng; gi++)
			if ((bc->sse_eg[e][gi] - emin) / sigma2 <= TIE_SCORE) {
				nt++;
				if (gl[gi] > gl[pick])
					pick = gi;
			}
		out->lanes_certain[e] = nt == 1;
		bf->lanes_per_pass[e] = gl[pick];
		bf->t0[e] = bc->a_eg[e][pick];
		bf->c[e] = bc->b_eg[e][pick];
		bf->sse += bc->sse_eg[e][pick];
	}
	bf->score = bf->sse / sigma2 + k_banked * lnn;
	bf->rms = sqrt(bf->sse / (double)out->n_fit);
	out->has_best = true;
	out->r2 = out->flat.sse > 0 ? 1 - bf->sse / out->flat.sse : 0;

	/* Broadcast is known when no near-tie of the same geometry says otherwise. */
	out->broadcast_known = true;
	double geom_w = 0;
	size_t tie_geoms = 0;
	char tie_desc[200] = "";
	for (size_t i = 0; i < nc; i++) {
		const candidate *c = &cand[i];
		bool same = c->banks == bc->banks && c->width == bc->width;
		if (same)
			geom_w += exp(-(c->score - min_score) / 2);
		if (c->score - cand[best_i].score > TIE_SCORE)
			continue;
		if (same && c->merge != bc->merge)
			out->broadcast_known = false;
		if (!same) {
			/* Count distinct geometries once: a merge variant of a listed one is skipped. */
			bool seen = false;
			for (size_t j = 0; j < i; j++)
				if (cand[j].banks == c->banks && cand[j].width == c->width &&
				    cand[j].score - cand[best_i].score <= TIE_SCORE)
					seen = true;
			if (!seen) {
				if (tie_geoms < 3) {
					size_t len = strlen(tie_desc);
					snprintf(tie_desc + len, sizeof tie_desc - len, "%s%u x %u B",
						 tie_geoms ? ", " : "", c->banks, c->width);
				}
				tie_geoms++;
			}
		}
	}

	/* Runner-up: the best candidate of another geometry, or the flat model if it is better. */
	size_t ru = SIZE_MAX;
	for (size_t i = 0; i < nc; i++) {
		if (cand[i].banks == bc->banks && cand[i].width == bc->width)
			continue;
		if (ru == SIZE_MAX || cand[i].score < cand[ru].score)
			ru = i;
	}
	if (ru == SIZE_MAX || out->flat.score <= cand[ru].score) {
		out->runner_up = out->flat;
	} else {
		const candidate *c = &cand[ru];
		cb_fit *r = &out->runner_up;
		r->geom.banks = c->banks;
		r->geom.width = c->width;
		r->geom.merge = c->merge;
		r->geom.pack = c->pack;
		for (int e = 0; e < CB_NELEM; e++) {
			if (!nfit_e[e])
				continue;
			r->lanes_per_pass[e] = gl[c->best_g[e]];
			r->t0[e] = c->a_eg[e][c->best_g[e]];
			r->c[e] = c->b_eg[e][c->best_g[e]];
		}
		r->sse = c->sse;
		r->score = c->score;
		r->rms = sqrt(c->sse / (double)out->n_fit);
	}
	out->has_runner_up = true;

	/* The verdict. */
	char bdesc[64];
	describe_geom(bdesc, sizeof bdesc, bf);
	if (out->n_fit < 3 * (size_t)n_elem + 2) {
		out->status = CB_INCONCLUSIVE;
		out->confidence = geom_w / total_w;
		snprintf(out->reason, sizeof out->reason,
			 "too few measurements (%zu) to compare bank models", out->n_fit);
	} else if (out->flat.score <= cand[best_i].score + TIE_SCORE) {
		out->status = CB_NOT_BANKED;
		out->confidence = exp(-(out->flat.score - min_score) / 2) / total_w;
		snprintf(out->reason, sizeof out->reason,
			 "time does not depend on the access pattern beyond noise (%.1f%%): the flat "
			 "model fits as well as any bank model", 100 * out->sigma);
	} else if (out->r2 < R2_MIN) {
		if (out->max_ratio < MIN_EFFECT || out->flat.rms < FLAT_RMS_MAX) {
			out->status = CB_NOT_BANKED;
			out->confidence = 1 - (out->r2 > 0 ? out->r2 : 0);
			snprintf(out->reason, sizeof out->reason,
				 "times stay within %.1f%% (RMS) of a constant, at most %.2fx apart, and no "
				 "bank model explains the variation (the best, %s, explains %.0f%% of it)",
				 100 * out->flat.rms, out->max_ratio, bdesc, 100 * (out->r2 > 0 ? out->r2 : 0));
		} else {
			out->status = CB_INCONCLUSIVE;
			out->confidence = geom_w / total_w;
			snprintf(out->reason, sizeof out->reason,
				 "times vary up to %.1fx but no bank model explains them (the best, "
				 "%s, explains %.0f%% of the variation)", out->max_ratio, bdesc,
				 100 * (out->r2 > 0 ? out->r2 : 0));
		}
	} else if (tie_geoms > 0) {
		out->status = CB_INCONCLUSIVE;
		out->confidence = geom_w / total_w;
		snprintf(out->reason, sizeof out->reason,
			 "the measurements cannot separate %s from %s%s", bdesc, tie_desc,
			 tie_geoms > 3 ? " and others" : "");
	} else {
		out->status = CB_BANKED;
		out->confidence = geom_w / total_w;
		char rdesc[64];
		describe_geom(rdesc, sizeof rdesc, &out->runner_up);
		snprintf(out->reason, sizeof out->reason,
			 "%s explains %.1f%% of the variation; the runner-up, %s, fits %.1fx worse",
			 bdesc, 100 * out->r2, rdesc,
			 bf->sse > 0 ? out->runner_up.sse / bf->sse : INFINITY);
	}

	/* Cost of one extra pass: for 4-byte elements, else the median over element sizes. */
	if (out->status != CB_NOT_BANKED) {
		double cs[CB_NELEM];
		int nc_e = 0;
		for (int e = 0; e < CB_NELEM; e++)
			if (nfit_e[e])
				cs[nc_e++] = bf->c[e];
		int e4 = cb_elem_index(4);
		if (nfit_e[e4])
			out->cost_per_pass_ns = bf->c[e4];
		else if (nc_e) {
			qsort(cs, (size_t)nc_e, sizeof *cs, cmp_double);
			out->cost_per_pass_ns = cs[nc_e / 2];
		}
		if (ds->clock_mhz > 0 && ds->subgroups_per_cu > 0 && isfinite(out->cost_per_pass_ns))
			out->cost_per_pass_cycles = out->cost_per_pass_ns * ds->clock_mhz * 1e-3 /
						    ds->subgroups_per_cu;
	}

	/* Validation on the hold-out tables with the reported model (flat when not banked). */
	const cb_fit *vf = out->status == CB_NOT_BANKED ? &out->flat : bf;
	double ss = 0, mx = 0;
	size_t within = 0;
	for (size_t i = 0; i < ds->n; i++) {
		const cb_obs *o = &ds->obs[i];
		if (!o->holdout || !(o->t > 0) || !isfinite(o->t))
			continue;
		double pred = cb_fit_predict(vf, S, o->elem_bytes, o->lanes);
		if (!isfinite(pred))
			continue;
		double r = fabs(pred - o->t) / o->t;
		ss += r * r;
		mx = r > mx ? r : mx;
		within += r <= 0.10;
		out->val_n++;
	}
	if (out->val_n) {
		out->val_rms = sqrt(ss / (double)out->val_n);
		out->val_max = mx;
		out->val_within10 = (double)within / (double)out->val_n;
	}

	free(cand);
	for (int e = 0; e < CB_NELEM; e++)
		free(fit_idx[e]);
	return true;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *lanes_json(const cb_fit *f, const bool *present)
{
	json_t *o = json_object();
	for (int e = 0; e < CB_NELEM; e++)
		if (present[e] && f->lanes_per_pass[e]) {
			char key[8];
			snprintf(key, sizeof key, "%u", cb_elem_sizes[e]);
			json_object_set_new(o, key, json_integer(f->lanes_per_pass[e]));
		}
	return o;
}

static json_t *fit_model_json(const cb_fit *f, const bool *present)
{
	if (f->flat)
		return json_pack("{s:s}", "model", "flat");
	return json_pack("{s:s, s:I, s:I, s:b, s:b, s:o}", "model", "banked",
			 "banks", (json_int_t)f->geom.banks, "bank_width_bytes", (json_int_t)f->geom.width,
			 "broadcast", f->geom.merge, "pair_packing", f->geom.pack,
			 "lanes_per_pass", lanes_json(f, present));
}

json_t *cb_inference_to_json(const cb_inference *inf, unsigned subgroup)
{
	json_t *o = json_object();
	json_object_set_new(o, "status", json_string(cb_status_name(inf->status)));
	json_object_set_new(o, "confidence", num_or_null(inf->confidence));
	json_object_set_new(o, "reason", json_string(inf->reason));
	bool banked = inf->status == CB_BANKED;
	json_object_set_new(o, "banks", banked ? json_integer(inf->best.geom.banks) : json_null());
	json_object_set_new(o, "bank_width_bytes",
			    banked ? json_integer(inf->best.geom.width) : json_null());
	json_object_set_new(o, "lanes_per_pass",
			    banked ? lanes_json(&inf->best, inf->elem_present) : json_null());
	json_object_set_new(o, "broadcast", banked && inf->broadcast_known ?
			    json_boolean(inf->best.geom.merge) : json_null());
	json_object_set_new(o, "pair_packing", banked ? json_boolean(inf->best.geom.pack) : json_null());
	json_object_set_new(o, "cost_per_pass_ns", banked ? num_or_null(inf->cost_per_pass_ns) : json_null());
	json_object_set_new(o, "cost_per_pass_cycles",
			    banked ? num_or_null(inf->cost_per_pass_cycles) : json_null());
	json_object_set_new(o, "subgroup_size", json_integer(subgroup));
	if (banked) {
		json_t *cert = json_object(), *pe = json_object();
		for (int e = 0; e < CB_NELEM; e++) {
			if (!inf->elem_present[e])
				continue;
			char key[8];
			snprintf(key, sizeof key, "%u", cb_elem_sizes[e]);
			json_object_set_new(cert, key, json_boolean(inf->lanes_certain[e]));
			json_object_set_new(pe, key, json_pack("{s:o, s:o}",
				"t0_ns", num_or_null(inf->best.t0[e]),
				"cost_per_pass_ns", num_or_null(inf->best.c[e])));
		}
		json_object_set_new(o, "lanes_per_pass_certain", cert);
		json_object_set_new(o, "per_elem", pe);
	}
	if (inf->has_best && !banked)
		json_object_set_new(o, "best_candidate", fit_model_json(&inf->best, inf->elem_present));
	json_object_set_new(o, "fit", json_pack("{s:I, s:I, s:o, s:o, s:o, s:o, s:o}",
		"measurements", (json_int_t)inf->n_fit, "candidates", (json_int_t)inf->candidates,
		"rms_rel", num_or_null(inf->has_best ? inf->best.rms : NAN),
		"flat_rms_rel", num_or_null(inf->flat.rms), "r2", num_or_null(inf->r2),
		"sigma", num_or_null(inf->sigma), "max_ratio", num_or_null(inf->max_ratio)));
	if (inf->has_runner_up) {
		json_t *ru = fit_model_json(&inf->runner_up, inf->elem_present);
		json_object_set_new(ru, "rms_rel", num_or_null(inf->runner_up.rms));
		json_object_set_new(ru, "sse_ratio", num_or_null(inf->best.sse > 0 ?
			inf->runner_up.sse / inf->best.sse : NAN));
		json_object_set_new(ru, "delta_score", num_or_null(inf->runner_up.score - inf->best.score));
		json_object_set_new(o, "runner_up", ru);
	}
	json_object_set_new(o, "validation", json_pack("{s:I, s:s, s:o, s:o, s:o}",
		"measurements", (json_int_t)inf->val_n,
		"model", inf->status == CB_NOT_BANKED ? "flat" : "banked",
		"rms_rel", num_or_null(inf->val_rms), "max_rel", num_or_null(inf->val_max),
		"within_10pct", num_or_null(inf->val_within10)));
	return o;
}

bool cb_model_from_json(json_t *inf, cb_geometry *g, unsigned lanes_per_pass[CB_NELEM],
			char *err, size_t errlen)
{
	if (!json_is_object(inf)) {
		snprintf(err, errlen, "has no inference object (run 'clbanks analyze' on it first)");
		return false;
	}
	const char *status = json_string_value(json_object_get(inf, "status"));
	if (!status || strcmp(status, "banked") != 0) {
		snprintf(err, errlen, "has no bank model to predict with (inference status: %s)",
			 status ? status : "missing");
		return false;
	}
	json_t *b = json_object_get(inf, "banks"), *w = json_object_get(inf, "bank_width_bytes");
	json_t *lp = json_object_get(inf, "lanes_per_pass"), *bc = json_object_get(inf, "broadcast");
	if (!json_is_integer(b) || json_integer_value(b) < 1 || json_integer_value(b) > CB_MAX_BANKS ||
	    !json_is_integer(w) || json_integer_value(w) < 1 || json_integer_value(w) > 4096 ||
	    !json_is_object(lp)) {
		snprintf(err, errlen, "inference: banks, bank_width_bytes or lanes_per_pass missing or invalid");
		return false;
	}
	g->banks = (unsigned)json_integer_value(b);
	g->width = (unsigned)json_integer_value(w);
	g->merge = !json_is_false(bc); /* unknown broadcast: assume the common case */
	g->pack = json_is_true(json_object_get(inf, "pair_packing"));
	for (int e = 0; e < CB_NELEM; e++) {
		char key[8];
		snprintf(key, sizeof key, "%u", cb_elem_sizes[e]);
		json_t *v = json_object_get(lp, key);
		lanes_per_pass[e] = 0;
		if (v) {
			if (!json_is_integer(v) || json_integer_value(v) < 1 ||
			    json_integer_value(v) > CB_MAX_LANES) {
				snprintf(err, errlen, "inference: lanes_per_pass[\"%s\"] is not a lane count", key);
				return false;
			}
			lanes_per_pass[e] = (unsigned)json_integer_value(v);
		}
	}
	return true;
}
