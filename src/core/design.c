/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/design.h"
#include "core/analyze.h"
#include "core/infer.h"
#include "core/swizzle.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Leading models the search separates the best from, and the least predicted difference
 * (relative) that counts as separating two models. */
#define LEADERS 16
#define MIN_SEPARATION 0.002

void cb_design_init(cb_design *d, const cb_result *pool)
{
	memset(d, 0, sizeof *d);
	d->nms = pool->nms;
	d->taken = cb_xcalloc(pool->nms ? pool->nms : 1, sizeof *d->taken);
	d->target = CB_DESIGN_TARGET;
	for (size_t i = 0; i < pool->nms; i++)
		d->present[pool->ms[i].op] = true;
}

void cb_design_free(cb_design *d)
{
	cb_design_log_free(d->log, d->nlog, d->stop);
	free(d->taken);
	memset(d, 0, sizeof *d);
}

void cb_design_record(cb_design *d, cb_run_meta *run)
{
	run->design = d->log;
	run->ndesign = d->nlog;
	d->log = NULL;
	d->nlog = 0;
	for (int op = 0; op < CB_NOPS; op++) {
		run->design_stop[op] = d->stop[op];
		d->stop[op] = NULL;
	}
}

/* Decided: banked or not banked at the target confidence; or the flat model fitting as well as
 * any bank model twice in a row (not banked, or inconclusive for want of evidence), the second
 * time after a search batch measured where banked models differ most from the flat one (the
 * confidence of "not banked" grows only slowly with the tables: it is the flat model's share
 * against every banked candidate that fits as well with one more parameter; on PoCL the
 * atomics spent all 6 search batches at 0.2-2% of the evidence, a third of the run). */
static bool decided(const cb_design *d, cb_op op, const cb_inference *inf)
{
	if (inf->status != CB_BANKED && inf->flat_fits && d->was_flat[op] && d->searches[op] >= 1)
		return true;
	return (inf->status == CB_BANKED || inf->status == CB_NOT_BANKED) &&
	       inf->confidence >= d->target;
}

/* Banked, and at the target but for the run's quality: the posterior and the fit have decided,
 * and only the share of tables whose interval missed the target (or the baseline's drift)
 * keeps the confidence below it. More tables cannot separate the models further (on the H200
 * 2 of 10 loads runs spent all 6 search batches at 0.94, the run's factor, doubling their
 * time); the final tables come next, and the report says what limits the confidence. */
static bool only_the_run_limits(const cb_design *d, const cb_inference *inf)
{
	return inf->status == CB_BANKED && inf->run_factor > 0 && inf->run_factor < 1 &&
	       inf->confidence / inf->run_factor >= d->target;
}

/* No bank model describes OP's tables (the best misses them by CB_FIT_NONE times what noise
 * and the model allowance explain) twice in a row, the second time after a search batch.
 * A search batch measures where the leading models disagree, so it cannot make one of them
 * fit where all miss: the H100's atomics missed by 6.7x, 8.2x, 8.5x, 8.3x and 8.0x after the
 * 2nd to 6th search batch, inconclusive every time; the 4th to 6th took 86 ms of the 0.39 s the
 * default run's tables spent on the device. */
static bool no_model_fits_twice(const cb_design *d, cb_op op, const cb_inference *inf)
{
	return inf->status == CB_INCONCLUSIVE && inf->no_model_fits && d->was_misfit[op] &&
	       d->searches[op] >= 1;
}

/* Chooses measurement I unless it is chosen already. */
static void take(cb_design *d, size_t i, size_t *out, size_t *n)
{
	if (i < d->nms && !d->taken[i]) {
		d->taken[i] = true;
		out[(*n)++] = i;
	}
}

static void log_batch(cb_design *d, const cb_result *res, cb_op op, const size_t *idx, size_t n,
		      const char *why)
{
	if (!n)
		return;
	d->log = cb_xrealloc(d->log, (d->nlog + 1) * sizeof *d->log);
	cb_design_batch *b = &d->log[d->nlog++];
	b->op = op;
	b->why = cb_xstrdup(why);
	b->nids = n;
	b->ids = cb_xmalloc(n * sizeof *b->ids);
	for (size_t k = 0; k < n; k++)
		b->ids[k] = res->ms[idx[k]].id;
}

static bool is_stride(const cb_measurement *m, cb_op op, long long *stride)
{
	return m->op == op && cb_kind_is(m, "stride") && cb_param_get(m, "stride", stride);
}

/* The strides of every element size of OP in LIST. */
static void take_strides(cb_design *d, const cb_result *res, cb_op op, const unsigned *list,
			 size_t nlist, size_t *out, size_t *n)
{
	for (size_t i = 0; i < res->nms; i++) {
		long long s;
		if (!is_stride(&res->ms[i], op, &s))
			continue;
		for (size_t k = 0; k < nlist; k++)
			if (s == list[k])
				take(d, i, out, n);
	}
}

/* The first batch: strides that set the scale of every element size and give the search its
 * first posterior. */
static void take_start(cb_design *d, const cb_result *res, cb_op op, size_t *out, size_t *n)
{
	static const unsigned four[] = { 0, 1, 2, 8, 32 }, other[] = { 1, 8, 32 };
	for (size_t i = 0; i < res->nms; i++) {
		const cb_measurement *m = &res->ms[i];
		long long s;
		if (!is_stride(m, op, &s))
			continue;
		const unsigned *list = m->elem_bytes == 4 ? four : other;
		size_t nlist = m->elem_bytes == 4 ? 5 : 3;
		for (size_t k = 0; k < nlist; k++)
			if (s == list[k])
				take(d, i, out, n);
	}
}

/* "16 x 8 B", "without broadcast", "8 B: 16 lanes": how leader K differs from the best. */
static void describe(const cb_fit *best, const cb_fit *k, char *buf, size_t len)
{
	if (k->flat || best->flat) {
		snprintf(buf, len, "%s", k->flat ? "flat" : "banked");
		return;
	}
	if (k->geom.banks != best->geom.banks || k->geom.width != best->geom.width) {
		snprintf(buf, len, "%u x %u B", k->geom.banks, k->geom.width);
		return;
	}
	if (k->geom.broadcast != best->geom.broadcast ||
	    k->geom.pair_packing != best->geom.pair_packing) {
		snprintf(buf, len, "%s",
			 !k->geom.broadcast     ? "without broadcast"
			 : k->geom.pair_packing ? "with packing"
						: "without packing");
		return;
	}
	for (int e = 0; e < CB_NELEM; e++)
		if (k->lanes_per_pass[e] != best->lanes_per_pass[e]) {
			snprintf(buf, len, "%u B: %u lanes", cb_elems[e].bytes,
				 k->lanes_per_pass[e]);
			return;
		}
	snprintf(buf, len, "the same passes");
}

/* Log predicted times of the candidate tables C (NC) under the leaders, leader-major. */
static double *predict_all(const cb_leader *L, size_t nl, const cb_result *res, const size_t *c,
			   size_t nc)
{
	size_t cells = nl * nc;
	double *p = cb_xmalloc((cells ? cells : 1) * sizeof *p);
	const cb_fit **fits = cb_xmalloc((nl ? nl : 1) * sizeof *fits);
	double *t = cb_xmalloc((nl ? nl : 1) * sizeof *t);
	for (size_t k = 0; k < nl; k++)
		fits[k] = &L[k].fit;
	for (size_t j = 0; j < nc; j++) {
		const cb_measurement *m = &res->ms[c[j]];
		cb_fit_predict_each(fits, nl, res->device.subgroup_size, m->elem_bytes, m->lanes,
				    t);
		for (size_t k = 0; k < nl; k++)
			p[k * nc + j] = t[k] > 0 && isfinite(t[k]) ? log(t[k]) : NAN;
	}
	free(fits);
	free(t);
	return p;
}

/* For each leader after the best, in order of weight, the table (not yet taken) whose
 * prediction differs most from the best's, until WANT are chosen; WHY names the leaders. */
static void separate(cb_design *d, const cb_result *res, const cb_leader *L, size_t nl,
		     const size_t *c, size_t nc, size_t want, size_t *out, size_t *n, char *why,
		     size_t whylen)
{
	double *p = predict_all(L, nl, res, c, nc);
	size_t len = (size_t)snprintf(why, whylen, "search: where the best model disagrees with");
	unsigned named = 0;
	size_t start = *n;
	for (int pass = 0; pass < 4 && *n - start < want; pass++)
		for (size_t k = 1; k < nl && *n - start < want; k++) {
			size_t pick = SIZE_MAX;
			double most = MIN_SEPARATION;
			for (size_t j = 0; j < nc; j++) {
				double diff = fabs(p[k * nc + j] - p[j]);
				if (!d->taken[c[j]] && isfinite(diff) && diff > most) {
					most = diff;
					pick = j;
				}
			}
			if (pick == SIZE_MAX)
				continue;
			take(d, c[pick], out, n);
			if (pass == 0 && named < 4 && len < whylen) {
				char what[48];
				describe(&L[0].fit, &L[k].fit, what, sizeof what);
				len += (size_t)snprintf(why + len, whylen - len,
							"%s %s (weight %.2g)", named ? "," : "",
							what, L[k].weight);
				named++;
			}
		}
	free(p);
}

static cb_rc search(cb_design *d, const cb_result *res, cb_op op, size_t *out, size_t *n,
		    cb_error *err)
{
	cb_dataset ds;
	cb_dataset_of(res, op, &ds);
	cb_inference inf;
	cb_leader *L = cb_xmalloc(LEADERS * sizeof *L);
	size_t nl = 0;
	cb_rc rc = cb_infer_leaders(&ds, NULL, &inf, L, LEADERS, &nl, err);
	cb_dataset_free(&ds);
	size_t *c = cb_xmalloc((res->nms ? res->nms : 1) * sizeof *c), nc = 0;
	for (size_t i = 0; i < res->nms; i++)
		if (res->ms[i].op == op && !d->taken[i] && !cb_kind_is(&res->ms[i], "random"))
			c[nc++] = i;
	size_t before = *n;
	char why[320];
	if (rc == CB_OK && nl > 1)
		separate(d, res, L, nl, c, nc, CB_DESIGN_BATCH, out, n, why, sizeof why);
	if (*n > before)
		log_batch(d, res, op, out + before, *n - before, why);
	free(c);
	free(L);
	return rc;
}

/* The lane table of a swizzle the advice cites, if the pool has it. */
static void take_swizzle(cb_design *d, const cb_result *res, const cb_swizzle_advice *a,
			 size_t *out, size_t *n)
{
	unsigned S = res->device.subgroup_size;
	uint32_t *lanes = cb_xmalloc(S * sizeof *lanes);
	cb_swizzle_column_lanes(lanes, S, a->elem_bytes, a->tile, a->bits, a->shift, 0);
	for (size_t i = 0; i < res->nms; i++) {
		const cb_measurement *m = &res->ms[i];
		if (m->op == CB_OP_LOAD && m->elem_bytes == a->elem_bytes &&
		    memcmp(m->lanes, lanes, S * sizeof *lanes) == 0)
			take(d, i, out, n);
	}
	free(lanes);
}

/* Validation tables of each element size of OP: VALIDATION per op (at least one per size;
 * validation counts from five tables on). */
#define VALIDATION 6
static void take_random(cb_design *d, const cb_result *res, cb_op op, size_t *out, size_t *n)
{
	unsigned sizes = 0;
	for (int e = 0; e < CB_NELEM; e++)
		sizes += cb_op_has_elem(op, cb_elems[e].bytes);
	unsigned per = sizes ? VALIDATION / sizes : 0, count[CB_NELEM] = { 0 };
	if (per < 1)
		per = 1;
	for (size_t i = 0; i < res->nms; i++) {
		const cb_measurement *m = &res->ms[i];
		int e = cb_elem_index(m->elem_bytes);
		if (m->op == op && e >= 0 && cb_kind_is(m, "random") && count[e] < per) {
			count[e]++;
			take(d, i, out, n);
		}
	}
}

/* Whether MODEL predicts for table I a time that no table of its op and size chosen so far
 * has (within 1%): a stride that adds a pass count the fit of t = t0 + c x passes has not yet
 * seen. */
static bool new_time(const cb_design *d, const cb_result *res, const cb_fit *model, size_t i)
{
	const cb_measurement *m = &res->ms[i];
	unsigned S = res->device.subgroup_size;
	double t = cb_fit_predict(model, S, m->elem_bytes, m->lanes);
	if (!(t > 0) || !isfinite(t))
		return true;
	for (size_t j = 0; j < res->nms; j++) {
		const cb_measurement *o = &res->ms[j];
		if (!d->taken[j] || o->op != m->op || o->elem_bytes != m->elem_bytes)
			continue;
		double u = cb_fit_predict(model, S, o->elem_bytes, o->lanes);
		if (u > 0 && fabs(log(u / t)) < 0.01)
			return false;
	}
	return true;
}

/* The strides the report prints (LIST) of 4-byte elements (the column people read; the other
 * sizes' come from the start, the search and the advice), where the op's best model (the best
 * guess when it is not banked) predicts a time no chosen table of that size has: a stride whose
 * passes a measured table already shows repeats a known point of the fit. On the H200-like
 * stub 3 of 55 tables, instead of a third of the default run's launches. Without a model,
 * every size's every one. */
static void take_printed(cb_design *d, const cb_result *res, cb_op op, const unsigned *list,
			 size_t nlist, size_t *out, size_t *n)
{
	const cb_inference *inf = &res->inference[op];
	if (!inf->has_best || inf->best.flat) {
		take_strides(d, res, op, list, nlist, out, n);
		return;
	}
	for (size_t k = 0; k < nlist; k++)
		for (size_t i = 0; i < res->nms; i++) {
			long long s;
			if (is_stride(&res->ms[i], op, &s) && s == list[k] && !d->taken[i] &&
			    res->ms[i].elem_bytes == 4 && new_time(d, res, &inf->best, i))
				take(d, i, out, n);
		}
}

/* An advice of an element size whose passes before and after its fix an earlier one of that
 * size has (float tile[64][64+1] after [32][32+1]: 32 -> 1 passes both): its tables repeat
 * what the earlier one's measure, and the report says they were not measured. */
static bool pad_repeats(const cb_result *res, unsigned k)
{
	const cb_pad_advice *a = &res->pad[k];
	for (unsigned j = 0; j < k; j++) {
		const cb_pad_advice *b = &res->pad[j];
		if (b->elem_bytes == a->elem_bytes && b->found == a->found &&
		    b->passes_unpadded == a->passes_unpadded &&
		    b->passes_padded == a->passes_padded)
			return true;
	}
	return false;
}

static bool swizzle_repeats(const cb_result *res, unsigned k)
{
	const cb_swizzle_advice *a = &res->swizzle[k];
	for (unsigned j = 0; j < k; j++) {
		const cb_swizzle_advice *b = &res->swizzle[j];
		if (b->elem_bytes == a->elem_bytes && b->found &&
		    b->passes_unswizzled == a->passes_unswizzled &&
		    b->passes_swizzled == a->passes_swizzled)
			return true;
	}
	return false;
}

/* Validation, the printed strides of new passes (loads) and the advice's tables. */
static void final_tables(cb_design *d, const cb_result *res, cb_op op, size_t *out, size_t *n)
{
	static const unsigned printed[] = { 0, 1, 2, 3, 4, 8, 16, 17, 32, 33, 64, 128 };
	size_t before = *n;
	take_random(d, res, op, out, n);
	if (op == CB_OP_LOAD) {
		take_printed(d, res, op, printed, sizeof printed / sizeof *printed, out, n);
		for (unsigned k = 0; k < res->npad; k++) {
			const cb_pad_advice *a = &res->pad[k];
			if (pad_repeats(res, k))
				continue;
			unsigned list[2] = { a->tile, a->tile + (a->found ? a->pad : 0) };
			for (size_t i = 0; i < res->nms; i++) {
				long long s;
				if (is_stride(&res->ms[i], op, &s) &&
				    res->ms[i].elem_bytes == a->elem_bytes &&
				    (s == list[0] || s == list[1]))
					take(d, i, out, n);
			}
		}
		for (unsigned k = 0; k < res->nswizzle; k++)
			if (res->swizzle[k].found && !swizzle_repeats(res, k))
				take_swizzle(d, res, &res->swizzle[k], out, n);
	}
	log_batch(
		d, res, op, out + before, *n - before,
		op == CB_OP_LOAD
			? "final: the random tables (validation), the strides the report prints and the "
			  "advice's padding and swizzle tables"
			: "final: the random tables (validation)");
}

static void set_stop(cb_design *d, cb_op op, const char *why, const cb_inference *inf)
{
	char buf[240];
	snprintf(buf, sizeof buf, "%s: %s at confidence %.3f after %u search batches", why,
		 cb_status_name(inf->status), inf->confidence, d->searches[op]);
	free(d->stop[op]);
	d->stop[op] = cb_xstrdup(buf);
}

/* The stop reason with the verdict after the final tables. */
static void after_final(cb_design *d, cb_op op, const cb_inference *inf)
{
	char buf[400];
	snprintf(buf, sizeof buf, "%s; with the final tables: %s at confidence %.3f",
		 d->stop[op] ? d->stop[op] : "", cb_status_name(inf->status), inf->confidence);
	free(d->stop[op]);
	d->stop[op] = cb_xstrdup(buf);
}

/* OP's share of the next batch. */
static cb_rc op_next(cb_design *d, const cb_result *res, cb_op op, size_t *out, size_t *n,
		     cb_error *err)
{
	const cb_inference *inf = &res->inference[op];
	size_t before = *n;
	if (d->phase[op] == CB_DESIGN_START)
		d->was_flat[op] = d->was_misfit[op] = false;
	switch (d->phase[op]) {
	case CB_DESIGN_START:
		take_start(d, res, op, out, n);
		log_batch(
			d, res, op, out + before, *n - before,
			"start: strides 0, 1, 2, 8 and 32 of 4-byte elements, 1, 8 and 32 of the others");
		d->phase[op] = CB_DESIGN_SEARCH;
		return CB_OK;
	case CB_DESIGN_SEARCH:
		if (decided(d, op, inf)) {
			set_stop(
				d, op,
				inf->confidence >= d->target
					? "decided"
					: "decided, the flat "
					  "model fits as well as any bank model in two analyses in a row, the "
					  "second after a search batch",
				inf);
		} else if (only_the_run_limits(d, inf)) {
			char why[160];
			snprintf(why, sizeof why,
				 "separated, the run's noise limits the confidence (x %.2f)",
				 inf->run_factor);
			set_stop(d, op, why, inf);
		} else if (no_model_fits_twice(d, op, inf)) {
			/* The final tables validate a model, and there is none: on the H100 the
			 * atomics' random tables took 30 ms of a 0.59 s run for no verdict. */
			set_stop(
				d, op,
				"no bank model describes the tables in two analyses in a row, the "
				"second after a search batch; no final tables (nothing to validate)",
				inf);
			d->phase[op] = CB_DESIGN_DONE;
			return CB_OK;
		} else if (d->searches[op] >= CB_DESIGN_MAX_SEARCH) {
			set_stop(d, op, "the search's batches are spent", inf);
		} else {
			cb_rc rc = search(d, res, op, out, n, err);
			if (rc != CB_OK || *n > before) {
				d->searches[op]++;
				return rc;
			}
			set_stop(d, op, "no table left separates the leading models", inf);
		}
		final_tables(d, res, op, out, n);
		d->phase[op] = CB_DESIGN_FINAL;
		return CB_OK;
	case CB_DESIGN_FINAL:
		/* The validation took a decided verdict below the target: search on. */
		d->phase[op] = CB_DESIGN_DONE;
		if (!decided(d, op, inf) && d->stop[op] &&
		    strncmp(d->stop[op], "decided", 7) == 0 &&
		    d->searches[op] < CB_DESIGN_MAX_SEARCH) {
			d->phase[op] = CB_DESIGN_SEARCH;
			return op_next(d, res, op, out, n, err);
		}
		after_final(d, op, inf);
		return CB_OK;
	case CB_DESIGN_DONE:
		return CB_OK;
	}
	return CB_OK;
}

size_t cb_design_batches_left(const cb_design *d)
{
	size_t most = 0;
	for (int op = 0; op < CB_NOPS; op++) {
		size_t left = 0;
		if (!d->present[op])
			continue;
		if (d->phase[op] == CB_DESIGN_START)
			left = CB_DESIGN_MAX_SEARCH + 2;
		else if (d->phase[op] == CB_DESIGN_SEARCH)
			left = CB_DESIGN_MAX_SEARCH - d->searches[op] + 1;
		most = left > most ? left : most;
	}
	return most;
}

cb_rc cb_design_next(cb_design *d, const cb_result *res, size_t *out, size_t *n, cb_error *err)
{
	*n = 0;
	for (int op = 0; op < CB_NOPS; op++) {
		if (!d->present[op])
			continue;
		cb_rc rc = op_next(d, res, (cb_op)op, out, n, err);
		if (rc != CB_OK)
			return rc;
		d->was_flat[op] = d->phase[op] != CB_DESIGN_START &&
				  res->inference[op].status != CB_BANKED &&
				  res->inference[op].flat_fits;
		d->was_misfit[op] = d->phase[op] != CB_DESIGN_START &&
				    res->inference[op].status == CB_INCONCLUSIVE &&
				    res->inference[op].no_model_fits;
	}
	return CB_OK;
}
