/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/analyze.h"
#include "core/advice.h"
#include "core/util.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Relative half-width of a measurement's 95% CI, when the run recorded one; else 0. */
static double relative_error(const cb_measurement *m)
{
	if (!m->has_stats || !(m->stats.median > 0))
		return 0;
	double r = (m->stats.ci_hi - m->stats.ci_lo) / (2 * m->stats.median);
	return isfinite(r) && r > 0 ? r : 0;
}

void cb_dataset_of(const cb_result *r, cb_op op, cb_dataset *ds)
{
	memset(ds, 0, sizeof *ds);
	ds->subgroup = r->device.subgroup_size;
	ds->memo = r->pass_memo;
	ds->obs = cb_xcalloc(r->nms ? r->nms : 1, sizeof *ds->obs);
	if (r->device.max_clock_mhz != CB_UNSET && r->device.max_clock_mhz > 0)
		ds->clock_mhz = (double)r->device.max_clock_mhz;
	if (r->run.subgroups_per_cu > 0)
		ds->subgroups_per_cu = r->run.subgroups_per_cu;
	for (size_t i = 0; i < r->nms; i++) {
		const cb_measurement *m = &r->ms[i];
		if (m->op != op || !isfinite(m->ns_per_access))
			continue;
		cb_obs *o = &ds->obs[ds->n++];
		o->lanes = m->lanes;
		o->elem_bytes = m->elem_bytes;
		o->t = m->ns_per_access;
		o->index = i;
		o->holdout = cb_kind_is(m, "random");
		o->kind = m->kind;
		o->rel_err = relative_error(m);
	}
}

void cb_analyze_prefetch(cb_result *r, const size_t *idx, size_t n)
{
	if (!r->pass_memo || n == 0)
		return;
	cb_dataset ds = { .subgroup = r->device.subgroup_size, .memo = r->pass_memo };
	ds.obs = cb_xcalloc(n, sizeof *ds.obs);
	for (size_t k = 0; k < n; k++) {
		const cb_measurement *m = &r->ms[idx[k]];
		ds.obs[ds.n++] = (cb_obs){
			.lanes = m->lanes, .elem_bytes = m->elem_bytes, .t = 1, .index = idx[k]
		};
	}
	cb_pass_cache_free(cb_pass_cache_new(&ds));
	cb_dataset_free(&ds);
	/* The analysis after the batch fits each op's tables measured so far and the batch's, one
	 * op at a time in the same buffers: a batch may hold several ops' tables. */
	size_t of_op[CB_NOPS] = { 0 }, most = 0;
	for (size_t k = 0; k < n; k++)
		of_op[r->ms[idx[k]].op]++;
	for (size_t i = 0; i < r->nms; i++)
		of_op[r->ms[i].op] += isfinite(r->ms[i].ns_per_access);
	for (int op = 0; op < CB_NOPS; op++)
		most = of_op[op] > most ? of_op[op] : most;
	cb_pass_memo_warm(r->pass_memo, most);
}

void cb_dataset_free(cb_dataset *ds)
{
	free(ds->obs);
	memset(ds, 0, sizeof *ds);
}

/* How far the run's own quality lets the verdict be trusted: a measurement whose CI never met
 * the target counts half, and a baseline that drifted by half its time leaves nothing. A
 * measurement that was run but never gave a valid time (samples, no time) never converged. */
static double run_factor(const cb_result *r, cb_op op, size_t *unconverged, size_t *with_stats)
{
	*unconverged = *with_stats = 0;
	for (size_t i = 0; i < r->nms; i++) {
		const cb_measurement *m = &r->ms[i];
		bool untimed = m->has_samples && !isfinite(m->ns_per_access);
		if (m->op == op && (m->has_stats || untimed)) {
			(*with_stats)++;
			*unconverged += untimed || !m->stats.converged;
		}
	}
	double f = *with_stats ? 1 - 0.5 * (double)*unconverged / (double)*with_stats : 1;
	double drift = r->quality.has_drift && isfinite(r->quality.drift) ? fabs(r->quality.drift)
									  : 0;
	return f * (drift < 0.5 ? 1 - drift / 0.5 : 0);
}

/* A baseline that drifted by this share or more leaves times that cannot be compared. */
#define DRIFT_INCONCLUSIVE 0.5

static void apply_run_factor(const cb_result *r, cb_op op, cb_inference *inf)
{
	size_t bad, total;
	inf->run_factor = run_factor(r, op, &bad, &total);
	inf->confidence *= inf->run_factor;
	double drift = r->quality.has_drift && isfinite(r->quality.drift) ? r->quality.drift : 0;
	if (fabs(drift) >= DRIFT_INCONCLUSIVE && inf->status != CB_INCONCLUSIVE) {
		/* No verdict, not a confident "not banked": the times moved more than any pattern. */
		inf->status = CB_INCONCLUSIVE;
		inf->confidence = 0;
		snprintf(
			inf->reason, sizeof inf->reason,
			"the baseline drifted by %+.0f%% during the "
			"run (clock changes or other load): times measured at different moments cannot "
			"be compared, so the run decides nothing; measure again on a quiet device",
			100 * drift);
	}
	if (inf->status == CB_NOT_BANKED && !(inf->confidence >= CB_NOT_BANKED_MIN_CONFIDENCE)) {
		inf->status = CB_INCONCLUSIVE;
		snprintf(
			inf->reason, sizeof inf->reason,
			"no bank model explains the times, but the "
			"run was too poor to call them flat (confidence %.3f once its quality counts, "
			"below %.1f): measure again on a quiet device",
			inf->confidence, CB_NOT_BANKED_MIN_CONFIDENCE);
	}
	if (inf->run_factor < 0.9 && inf->nwarnings < CB_MAX_INFER_WARNINGS)
		snprintf(
			inf->warnings[inf->nwarnings++], sizeof inf->warnings[0],
			"the run was noisy (%zu of %zu measurements did not reach their CI target; "
			"baseline drift %.1f%%): confidence x %.2f",
			bad, total,
			r->quality.has_drift && isfinite(r->quality.drift) ? 100 * r->quality.drift
									   : 0.0,
			inf->run_factor);
}

const cb_inference *cb_size_model(const cb_result *r, cb_op op, int e)
{
	const cb_inference *joint = &r->inference[op], *own = &r->by_size[op][e];
	bool joint_sure = joint->status == CB_BANKED &&
			  joint->confidence >= CB_BY_SIZE_MIN_CONFIDENCE;
	return r->has_by_size[op][e] && !joint_sure && own->status == CB_BANKED &&
			       own->confidence >= CB_BY_SIZE_MIN_CONFIDENCE
		       ? own
		       : NULL;
}

static bool sure_own(const cb_result *r, cb_op op, int e)
{
	const cb_inference *s = &r->by_size[op][e];
	return r->has_by_size[op][e] && s->status == CB_BANKED &&
	       s->confidence >= CB_BY_SIZE_MIN_CONFIDENCE;
}

static bool same_geometry(const cb_geometry *a, const cb_geometry *b)
{
	return a->banks == b->banks && a->width == b->width && a->broadcast == b->broadcast;
}

/* The sizes of an op share one geometry in the model family. A size whose own sure model has
 * another geometry than most of the op's other sure sizes, or is the only sure one and not
 * the geometry of the op's best fit, is outside the family (a port limit, a latency floor, a
 * lane grouping it lacks: issue 36.5 saw "8 banks x 16 B" for 8-byte atomics at 0.91-1.00):
 * inconclusive, and never used in place of the op's model. */
static void disagreeing_sizes(cb_result *r, cb_op op)
{
	bool drop[CB_NELEM] = { false };
	for (int e = 0; e < CB_NELEM; e++) {
		if (!sure_own(r, op, e))
			continue;
		unsigned same = 0, other = 0;
		int first_other = -1;
		for (int k = 0; k < CB_NELEM; k++) {
			if (k == e || !sure_own(r, op, k))
				continue;
			if (same_geometry(&r->by_size[op][k].best.geom,
					  &r->by_size[op][e].best.geom)) {
				same++;
			} else {
				other++;
				first_other = first_other < 0 ? k : first_other;
			}
		}
		const cb_inference *joint = &r->inference[op];
		bool as_joint = joint->has_best && joint->status != CB_NOT_BANKED &&
				same_geometry(&joint->best.geom, &r->by_size[op][e].best.geom);
		if ((other == 0 && (same > 0 || as_joint)) || same > other)
			continue;
		drop[e] = true;
		cb_inference *s = &r->by_size[op][e];
		const cb_geometry *g = &s->best.geom;
		if (first_other < 0) {
			char why[sizeof s->reason];
			snprintf(
				why, sizeof why,
				"this size's own best model, %u x %u B%s (confidence "
				"%.3f), is the only sure one of the op and not its best fit's geometry: nothing "
				"corroborates it (the sizes fit no one model of the family), so it is not "
				"told as a result",
				g->banks, g->width, g->broadcast ? "" : " without broadcast",
				s->confidence);
			memcpy(s->reason, why, sizeof why);
			continue;
		}
		const cb_geometry *o = &r->by_size[op][first_other].best.geom;
		char why[sizeof s->reason];
		snprintf(
			why, sizeof why,
			"this size's own best model, %u x %u B%s (confidence %.3f), "
			"has another geometry than the %u-byte one's, %u x %u B%s: the sizes fit no one "
			"model of the family (a port limit, a latency floor or a lane grouping outside "
			"it), so neither is told as a result",
			g->banks, g->width, g->broadcast ? "" : " without broadcast", s->confidence,
			cb_elems[first_other].bytes, o->banks, o->width,
			o->broadcast ? "" : " without broadcast");
		memcpy(s->reason, why, sizeof why);
	}
	for (int e = 0; e < CB_NELEM; e++)
		if (drop[e])
			r->by_size[op][e].status = CB_INCONCLUSIVE;
}

/* Each element size of OP on its own, when the sizes together fit no model of the family well
 * (inconclusive because the model misses, or banked with a fit that misses): reported beside
 * the joint verdict, and used for a size only where the joint model is less sure. */
static cb_rc infer_by_size(cb_result *r, cb_op op, cb_error *err)
{
	const cb_inference *joint = &r->inference[op];
	unsigned nsizes = 0;
	for (int e = 0; e < CB_NELEM; e++) {
		r->has_by_size[op][e] = false;
		nsizes += joint->elem_present[e];
	}
	bool misses = joint->status == CB_INCONCLUSIVE
			      ? joint->no_model_fits
			      : joint->status == CB_BANKED && joint->fit_factor < 1;
	if (!misses || nsizes < 2)
		return CB_OK;
	for (int e = 0; e < CB_NELEM; e++) {
		if (!joint->elem_present[e])
			continue;
		cb_dataset ds;
		cb_dataset_of(r, op, &ds);
		size_t kept = 0;
		for (size_t i = 0; i < ds.n; i++)
			if (ds.obs[i].elem_bytes == cb_elems[e].bytes)
				ds.obs[kept++] = ds.obs[i];
		ds.n = kept;
		cb_rc rc = cb_infer_cached(&ds, NULL, &r->by_size[op][e], err);
		cb_dataset_free(&ds);
		if (rc != CB_OK)
			return rc;
		apply_run_factor(r, op, &r->by_size[op][e]);
		r->has_by_size[op][e] = true;
	}
	disagreeing_sizes(r, op);
	return CB_OK;
}

bool cb_same_tables(const cb_result *a, const cb_result *b, cb_op op)
{
	if (a->device.subgroup_size != b->device.subgroup_size)
		return false;
	size_t i = 0, j = 0;
	for (;; i++, j++) {
		while (i < a->nms && (a->ms[i].op != op || !isfinite(a->ms[i].ns_per_access)))
			i++;
		while (j < b->nms && (b->ms[j].op != op || !isfinite(b->ms[j].ns_per_access)))
			j++;
		if (i == a->nms || j == b->nms)
			return i == a->nms && j == b->nms;
		if (a->ms[i].elem_bytes != b->ms[j].elem_bytes ||
		    memcmp(a->ms[i].lanes, b->ms[j].lanes,
			   a->device.subgroup_size * sizeof *a->ms[i].lanes))
			return false;
	}
}

cb_rc cb_analyze(cb_result *r, cb_error *err)
{
	return cb_analyze_cached(r, NULL, err);
}

/* A documented model has nothing to fit: its inferences are the vendor's model as the document
 * records it, with no confidence, cost or fit (NAN), and no advice. */
static void documented_inference(cb_result *r)
{
	for (int op = 0; op < CB_NOPS; op++) {
		const cb_recorded_model *m = &r->recorded[op];
		cb_inference *inf = &r->inference[op];
		memset(inf, 0, sizeof *inf);
		r->op_present[op] = r->has_recorded[op];
		inf->confidence = inf->geometry_share = inf->lanes_share = NAN;
		inf->fit_factor = inf->run_factor = inf->r2 = inf->sigma = inf->max_ratio = NAN;
		inf->step_pass_ns = inf->pass_ns_per_subgroup = inf->pass_cycles = NAN;
		inf->best.rms = inf->flat.rms = inf->runner_up.rms = inf->val_rms = NAN;
		inf->status = m->banked                                           ? CB_BANKED
			      : m->status && strcmp(m->status, "not_banked") == 0 ? CB_NOT_BANKED
										  : CB_INCONCLUSIVE;
		snprintf(inf->reason, sizeof inf->reason,
			 "documented by the vendor, not measured: %s",
			 r->doc.title ? r->doc.title : "-");
		if (!m->banked)
			continue;
		inf->has_best = true;
		inf->best.geom = m->geom;
		inf->broadcast_known = m->broadcast_known;
		for (int e = 0; e < CB_NELEM; e++) {
			inf->best.lanes_per_pass[e] = m->lanes_per_pass[e];
			inf->elem_present[e] = inf->lanes_certain[e] = m->lanes_per_pass[e] != 0;
		}
	}
	r->npad = r->nswizzle = 0;
	r->analyzed = true;
}

cb_rc cb_analyze_cached(cb_result *r, const cb_pass_cache *load_cache, cb_error *err)
{
	if (r->documented) {
		documented_inference(r);
		return CB_OK;
	}
	r->analyzed = false;
	r->npad = r->nswizzle = 0;
	for (int op = 0; op < CB_NOPS; op++) {
		r->op_present[op] = false;
		for (size_t i = 0; i < r->nms && !r->op_present[op]; i++)
			r->op_present[op] = r->ms[i].op == (cb_op)op;
		/* Loads always get an inference (inconclusive when there is nothing to analyze). */
		if (!r->op_present[op] && op != CB_OP_LOAD)
			continue;
		cb_dataset ds;
		cb_dataset_of(r, (cb_op)op, &ds);
		cb_rc rc = cb_infer_cached(&ds, op == CB_OP_LOAD ? load_cache : NULL,
					   &r->inference[op], err);
		cb_dataset_free(&ds);
		if (rc != CB_OK)
			return rc;
		apply_run_factor(r, (cb_op)op, &r->inference[op]);
		if ((rc = infer_by_size(r, (cb_op)op, err)) != CB_OK)
			return rc;
	}
	r->npad = cb_padding_advice(&r->inference[CB_OP_LOAD], r, CB_OP_LOAD, r->pad);
	r->nswizzle = cb_advise_swizzles(&r->inference[CB_OP_LOAD],
					 r->op_present[CB_OP_STORE] ? &r->inference[CB_OP_STORE]
								    : NULL,
					 r, r->swizzle);
	r->analyzed = true;
	return CB_OK;
}

/* ---- many results at once (compare) ------------------------------------------------------ */

#define MAX_CACHES 16

typedef struct {
	cb_result *rs;
	size_t n, next;
	const cb_pass_cache **cache_of;
	pthread_mutex_t lock;
	size_t failed; /* the lowest index that failed, n when none */
	cb_error err;
} analyze_job;

static void *analyze_worker(void *p)
{
	analyze_job *job = p;
	cb_error *err = cb_xcalloc(1, sizeof *err);
	for (;;) {
		pthread_mutex_lock(&job->lock);
		size_t i = job->next < job->failed ? job->next++ : job->n;
		pthread_mutex_unlock(&job->lock);
		if (i >= job->n)
			break;
		if (cb_analyze_cached(&job->rs[i], job->cache_of[i], err) == CB_OK)
			continue;
		pthread_mutex_lock(&job->lock);
		if (i < job->failed) {
			job->failed = i;
			job->err = *err;
		}
		pthread_mutex_unlock(&job->lock);
	}
	free(err);
	return NULL;
}

/* One pass cache per distinct set of load tables (MAX_CACHES at most; the rest get none). */
static size_t share_caches(cb_result *rs, size_t n, const cb_pass_cache **cache_of,
			   cb_pass_cache **caches)
{
	size_t owner[MAX_CACHES], ncaches = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		while (k < ncaches && !cb_same_tables(&rs[owner[k]], &rs[i], CB_OP_LOAD))
			k++;
		if (k == ncaches && ncaches < MAX_CACHES) {
			cb_dataset ds;
			cb_dataset_of(&rs[i], CB_OP_LOAD, &ds);
			caches[ncaches] = cb_pass_cache_new(&ds);
			cb_dataset_free(&ds);
			owner[ncaches++] = i;
		}
		cache_of[i] = k < ncaches ? caches[k] : NULL;
	}
	return ncaches;
}

cb_rc cb_analyze_all(cb_result *rs, size_t n, unsigned threads, cb_error *err)
{
	long usable = cb_usable_cores();
	if (threads == 0)
		threads = (unsigned)(usable < 16 ? usable : 16);
	if (threads > n)
		threads = n ? (unsigned)n : 1;
	analyze_job *job = cb_xcalloc(1, sizeof *job);
	cb_pass_cache *caches[MAX_CACHES];
	*job = (analyze_job){
		.rs = rs, .n = n, .failed = n, .cache_of = cb_xcalloc(n + 1, sizeof *job->cache_of)
	};
	pthread_mutex_init(&job->lock, NULL);
	size_t ncaches = share_caches(rs, n, job->cache_of, caches);
	pthread_t *tid = cb_xcalloc(threads, sizeof *tid);
	unsigned started = 0;
	for (; started + 1 < threads; started++)
		if (pthread_create(&tid[started], NULL, analyze_worker, job) != 0)
			break; /* fewer threads: the work is the same */
	analyze_worker(job);
	for (unsigned t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	cb_rc rc = job->failed < n ? job->err.rc : CB_OK;
	if (rc != CB_OK && err)
		*err = job->err;
	for (size_t k = 0; k < ncaches; k++)
		cb_pass_cache_free(caches[k]);
	pthread_mutex_destroy(&job->lock);
	free(tid);
	free(job->cache_of);
	free(job);
	return rc;
}
