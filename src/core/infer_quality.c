/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/infer_quality.h"
#include "core/stats.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KINDS 8
/* A group of tables stands out when its mean squared misfit exceeds CB_FIT_GOOD^2 by more than
 * chance would with that many tables (three standard deviations of a chi-square mean). */
#define MIN_GROUP 3

typedef struct {
	double sum; /* of squared misfits */
	size_t n;
} acc;

typedef struct {
	acc all[CB_NELEM], val;
	const char *kind[CB_NELEM][MAX_KINDS];
	acc by_kind[CB_NELEM][MAX_KINDS];
	unsigned nkinds[CB_NELEM];
	double worst_z2[CB_NELEM][CB_WORST_TABLES];
	double *noise;
	size_t nnoise;
	double e2_sum;
	size_t e2_n;
} judge_state;

double cb_fit_factor(double q)
{
	if (!isfinite(q) || q <= CB_FIT_GOOD)
		return 1;
	return (CB_FIT_GOOD / q) * (CB_FIT_GOOD / q);
}

static bool stands_out(const acc *a)
{
	if (a->n < MIN_GROUP)
		return false;
	double mean = a->sum / (double)a->n;
	return mean > CB_FIT_GOOD * CB_FIT_GOOD + 3 * sqrt(2.0 / (double)a->n);
}

static void add_kind(judge_state *st, int e, const char *kind, double z2)
{
	if (!kind)
		return;
	unsigned k = 0;
	while (k < st->nkinds[e] && strcmp(st->kind[e][k], kind) != 0)
		k++;
	if (k == st->nkinds[e]) {
		if (k == MAX_KINDS)
			return;
		st->kind[e][st->nkinds[e]++] = kind;
	}
	st->by_kind[e][k].sum += z2;
	st->by_kind[e][k].n++;
}

/* Keeps the CB_WORST_TABLES largest misfits of element size E, largest first. */
static void add_worst(judge_state *st, cb_fit_quality *q, int e, size_t index, double z2)
{
	unsigned n = q->nworst[e], pos = n;
	while (pos > 0 && st->worst_z2[e][pos - 1] < z2)
		pos--;
	if (pos >= CB_WORST_TABLES)
		return;
	unsigned last = n < CB_WORST_TABLES ? n : CB_WORST_TABLES - 1;
	for (unsigned k = last; k > pos; k--) {
		st->worst_z2[e][k] = st->worst_z2[e][k - 1];
		q->worst[e][k] = q->worst[e][k - 1];
	}
	st->worst_z2[e][pos] = z2;
	q->worst[e][pos] = index;
	if (n < CB_WORST_TABLES)
		q->nworst[e]++;
}

static void observe(judge_state *st, cb_fit_quality *q, const cb_obs *o, double pred)
{
	int e = cb_elem_index(o->elem_bytes);
	double r = (pred - o->t) / o->t;
	double s = o->rel_err / 1.96; /* a 95% CI's half-width is 1.96 standard errors */
	double e2 = s * s + CB_MODEL_ALLOWANCE * CB_MODEL_ALLOWANCE;
	double z2 = r * r / e2;
	if (o->holdout) {
		st->val.sum += z2;
		st->val.n++;
		return;
	}
	st->all[e].sum += z2;
	st->all[e].n++;
	st->e2_sum += e2;
	st->e2_n++;
	if (o->rel_err > 0)
		st->noise[st->nnoise++] = s;
	add_kind(st, e, o->kind, z2);
	add_worst(st, q, e, o->index, z2);
}

/* Per element size: its misfit, and whether it (or one kind of its tables) stands out. */
static void judge_sizes(judge_state *st, cb_fit_quality *q)
{
	acc total = { 0, 0 };
	for (int e = 0; e < CB_NELEM; e++) {
		total.sum += st->all[e].sum;
		total.n += st->all[e].n;
		q->elem_misfit[e] = st->all[e].n ? sqrt(st->all[e].sum / (double)st->all[e].n)
						 : NAN;
		q->approximate[e] = stands_out(&st->all[e]);
		double worst = 0;
		for (unsigned k = 0; k < st->nkinds[e]; k++) {
			const acc *a = &st->by_kind[e][k];
			double m = a->n ? sqrt(a->sum / (double)a->n) : 0;
			if (!stands_out(a) || m <= worst)
				continue;
			worst = m;
			q->approximate[e] = true;
			snprintf(q->approx_kind[e], sizeof q->approx_kind[e], "%s", st->kind[e][k]);
			q->approx_kind_misfit[e] = m;
		}
	}
	q->misfit = total.n ? sqrt(total.sum / (double)total.n) : NAN;
}

void cb_judge_fit(const cb_dataset *ds, const cb_fit *fit, cb_fit_quality *q)
{
	memset(q, 0, sizeof *q);
	judge_state st;
	memset(&st, 0, sizeof st);
	st.noise = cb_xmalloc((ds->n ? ds->n : 1) * sizeof *st.noise);
	for (size_t i = 0; i < ds->n; i++) {
		const cb_obs *o = &ds->obs[i];
		if (!(o->t > 0) || !isfinite(o->t) || cb_elem_index(o->elem_bytes) < 0)
			continue;
		double pred = cb_fit_predict(fit, ds->subgroup, o->elem_bytes, o->lanes);
		if (isfinite(pred))
			observe(&st, q, o, pred);
	}
	judge_sizes(&st, q);
	q->val_misfit = st.val.n ? sqrt(st.val.sum / (double)st.val.n) : NAN;
	q->expected = st.e2_n ? sqrt(st.e2_sum / (double)st.e2_n) : NAN;
	q->noise_known = st.nnoise > 0;
	if (st.nnoise) {
		qsort(st.noise, st.nnoise, sizeof *st.noise, cb_cmp_double);
		q->noise = st.noise[st.nnoise / 2];
	}
	q->judged = true;
	free(st.noise);
}
