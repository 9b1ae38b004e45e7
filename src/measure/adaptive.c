/* SPDX-License-Identifier: MIT */
/* The adaptive protocol (the default): the timer and the launch length once, then batches of
 * the pool's tables that the design (core/design.h) chooses from what has been measured, each
 * batch calibrated and measured in rounds of its own against the same baseline, analyzed as
 * analyze would analyze the document, until the design is done. */
#include "config.h"
#include "measure/run_internal.h"
#include "core/analyze.h"
#include "core/design.h"
#include "core/stats.h"
#include "core/util.h"
#include "measure/watchdog.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rounds a batch may take beyond the minimum while its intervals are not yet narrow: three
 * steps of rounds_to_narrow from 6 rounds (before, 2 at a time and 8 at most). */
#define BATCH_EXTRA_ROUNDS 9
#define BUDGET_TABLES 400

/* What the rounds so far say, in RES as analyze reads it: each measured table's median ratio
 * and its interval; every other table untimed. */
static void interim(const cb_runner *r, cb_result *res)
{
	for (size_t i = 1; i < r->nex; i++) {
		const cb_experiment *x = &r->ex[i];
		cb_measurement *m = &res->ms[x->index];
		if (!x->rounds) {
			m->ns_per_access = NAN;
			continue;
		}
		cb_summary s;
		cb_summarize(x->ratios, x->n, &s);
		m->ns_per_access = x->n ? s.median : NAN;
		m->has_stats = x->n > 0;
		m->stats = (cb_ratio_stats){ .rounds = x->n,
					     .median = s.median,
					     .ci_lo = isfinite(s.ci_lo) ? s.ci_lo : s.min,
					     .ci_hi = isfinite(s.ci_hi) ? s.ci_hi : s.max,
					     .mad = s.mad,
					     .converged = cb_ratio_converged(x, r->o->ci_target) };
	}
}

/* Each table's expected ratio to the baseline under its op's current model (the best fit, or
 * the flat one), into RATIO[1..n]; false when some table has none (then the chains are
 * probed). */
static bool predict_ratios(const cb_result *res, const size_t *idx, size_t n, double *ratio)
{
	for (size_t k = 0; k < n; k++) {
		const cb_measurement *m = &res->ms[idx[k]];
		const cb_inference *inf = &res->inference[m->op];
		const cb_fit *f = inf->has_best && inf->status != CB_NOT_BANKED ? &inf->best
										: &inf->flat;
		double t = cb_fit_predict(f, res->device.subgroup_size, m->elem_bytes, m->lanes);
		if (!(t > 0) || !isfinite(t))
			return false;
		ratio[k + 1] = t;
	}
	return true;
}

/* Rounds of the baseline (its samples from round *FIRST on) and the experiments X[0..n) (their
 * samples from their own rounds on) as one set; *FIRST advances. */
static cb_rc rounds_of(cb_runner *r, const cb_launcher *l, const cb_protocol_opts *o,
		       cb_experiment **x, size_t n, unsigned *first, cb_error *err)
{
	cb_experiment *bx = cb_xmalloc((n + 1) * sizeof *bx);
	bx[0] = r->ex[0];
	bx[0].samples += (size_t)*first * CB_BASELINE_REPS;
	bx[0].samples_short += (size_t)*first * CB_BASELINE_REPS;
	for (size_t k = 0; k < n; k++) {
		bx[k + 1] = *x[k];
		bx[k + 1].samples += x[k]->rounds;
		bx[k + 1].samples_short += x[k]->rounds;
	}
	r->st.rounds = 0;
	cb_rc rc = cb_measure_rounds(l, o, bx, n + 1, &r->st, err);
	for (unsigned k = *first; k < *first + r->st.rounds; k++)
		for (unsigned j = 0; j < CB_BASELINE_REPS; j++) {
			r->base_steps[k * CB_BASELINE_REPS + j] = bx[0].steps;
			r->base_steps_short[k * CB_BASELINE_REPS + j] = bx[0].steps_short;
		}
	*first += r->st.rounds;
	for (size_t k = 0; k < n; k++) {
		unsigned before = x[k]->rounds;
		*x[k] = bx[k + 1];
		x[k]->samples -= before;
		x[k]->samples_short -= before;
		x[k]->rounds = before + r->st.rounds;
	}
	free(bx);
	return rc;
}

/* Rounds after N that first narrow the median's interval (its lower rank grows): from 6
 * rounds, 7 and 8 give the whole range again and 9 the first narrower one, so a batch's extra
 * rounds go 6, 9, 12 (two at a time, 8 rounds were launched for nothing). */
static unsigned rounds_to_narrow(unsigned n)
{
	size_t lo, hi, lo2, hi2;
	if (!cb_median_ci_ranks(n, &lo, &hi))
		return 2;
	for (unsigned s = 1; s < 8; s++)
		if (cb_median_ci_ranks(n + s, &lo2, &hi2) && lo2 > lo)
			return s;
	return 2;
}

/* One batch: the chosen tables' chains (probed and verified in the first batch, from the model
 * so far after it: every launch of the rounds is verified anyway), the minimum rounds of them
 * all, then rounds of only those whose interval is not yet within the target, as many at a
 * time as narrow the interval (rounds_to_narrow), up to BATCH_EXTRA_ROUNDS more. *FIRST:
 * the baseline's next round. */
static cb_rc run_batch_of(cb_runner *r, const cb_launcher *l, const cb_protocol_opts *po,
			  const cb_result *res, const size_t *idx, size_t n, unsigned *first,
			  cb_error *err)
{
	double *ratio = cb_xmalloc((n + 1) * sizeof *ratio);
	cb_experiment **x = cb_xmalloc((n ? n : 1) * sizeof *x),
		      *bx = cb_xmalloc((n + 1) * sizeof *bx);
	cb_rc rc = CB_OK;
	for (size_t k = 0; k < n; k++)
		x[k] = &r->ex[idx[k] + 1];
	if (*first && predict_ratios(res, idx, n, ratio)) {
		bx[0] = r->ex[0];
		for (size_t k = 0; k < n; k++)
			bx[k + 1] = *x[k];
		cb_size_chains_predicted(bx, n + 1, ratio, &r->st);
	} else {
		bx[0] = r->ex[0];
		for (size_t k = 0; k < n; k++)
			bx[k + 1] = *x[k];
		rc = cb_calibrate_chains(l, po, bx, n + 1, &r->st, err);
		r->ex[0].steps = bx[0].steps;
		r->ex[0].steps_short = bx[0].steps_short;
	}
	for (size_t k = 0; k < n; k++)
		*x[k] = bx[k + 1];
	free(ratio);
	free(bx);
	cb_protocol_opts o = *po;
	o.settled = NULL;
	o.all_narrow = false;
	o.max_rounds = o.min_rounds;
	unsigned extra = 0;
	while (rc == CB_OK && n && *first + o.max_rounds <= r->base_rounds) {
		rc = rounds_of(r, l, &o, x, n, first, err);
		size_t left = 0;
		unsigned step = n ? rounds_to_narrow(x[0]->rounds) : 2;
		for (size_t k = 0; k < n; k++)
			if (!cb_ratio_converged(x[k], po->ci_target) &&
			    x[k]->rounds + step <= po->max_rounds)
				x[left++] = x[k];
		n = left;
		if ((extra += o.max_rounds) + step > BATCH_EXTRA_ROUNDS + po->min_rounds ||
		    cb_stop_signal)
			break;
		o.min_rounds = o.max_rounds = step;
	}
	free(x);
	return rc;
}

/* The passes of a batch's tables under every model, computed on a thread of their own while
 * the device measures them: the analysis after a batch computed them with the device idle (on
 * an H100, 5 ms after a loads-only run's first batch; 3.6 ms with them prefetched). Only on a
 * GPU and with a second core: a CPU device's kernels need every core, and their times would
 * change. The thread touches only the result's pass memo, which nothing else uses meanwhile. */
typedef struct {
	cb_result *res;
	const size_t *idx;
	size_t n;
	pthread_t thread;
	bool running;
} prefetch;

static void *prefetch_main(void *ctx)
{
	prefetch *p = ctx;
	cb_analyze_prefetch(p->res, p->idx, p->n);
	return NULL;
}

/* Not with the host clock either: a thread that takes the main one's core would be timed. */
static void prefetch_start(prefetch *p, const cb_runner *r, const cb_protocol_opts *po,
			   cb_result *res, const size_t *idx, size_t n)
{
	*p = (prefetch){ .res = res, .idx = idx, .n = n };
	if (po->cpu || r->st.timer == CB_TIMER_HOST || cb_usable_cores() < 2)
		return;
	p->running = cb_thread_start(&p->thread, prefetch_main, p) == 0;
}

static void prefetch_join(prefetch *p)
{
	if (p->running)
		pthread_join(p->thread, NULL);
	p->running = false;
}

/* One progress over the whole run, not one per batch: "42% batch 3 of at most 8, 96 tables,
 * about 2 s left". The share is the batches done (the current one by its time at the pace so
 * far) of those done and the most the design may still take (cb_design_batches_left); it never
 * goes back. The protocol's own notes inside a batch (its chains, its rounds) come here and
 * become this note, so that the front end shows one bar. */
typedef struct {
	const cb_notifier *out;
	double t0, batch_t0, shown;
	size_t done, left, tables;
} run_progress;

static void progress_note(void *ctx, cb_note_kind kind, const char *text)
{
	run_progress *p = ctx;
	if (kind != CB_NOTE_PROGRESS) {
		cb_note(p->out, kind, "%s", text);
		return;
	}
	double now = cb_now(), per = p->done ? (p->batch_t0 - p->t0) / (double)p->done : 0;
	double in = per > 0 ? fmin(0.95, (now - p->batch_t0) / per) : 0;
	double share = p->done + p->left ? (p->done + in) / (double)(p->done + 1 + p->left) : 0;
	if (share > p->shown)
		p->shown = share;
	if (!p->done) {
		if (p->tables)
			cb_note(p->out, CB_NOTE_PROGRESS,
				"%.0f%% adaptive design: batch 1 (the start), %zu tables",
				100 * p->shown, p->tables);
		else
			cb_note(p->out, CB_NOTE_PROGRESS,
				"0%% adaptive design: choosing the launch length");
		return;
	}
	cb_note(p->out, CB_NOTE_PROGRESS,
		"%.0f%% adaptive design: batch %zu of at most %zu, %zu "
		"tables, about %.0f s left at most",
		100 * p->shown, p->done + 1, p->done + 1 + p->left, p->tables,
		fmax(0, per * (double)(1 + p->left) - (now - p->batch_t0)) + 0.5);
}

/* Keeps the measured tables of RES (in their order) and drops the others. */
static void keep_measured(cb_runner *r, cb_result *res)
{
	bool *measured = cb_xcalloc(res->nms ? res->nms : 1, sizeof *measured);
	for (size_t i = 1; i < r->nex; i++)
		measured[r->ex[i].index] = r->ex[i].rounds > 0;
	size_t kept = 0;
	for (size_t i = 0; i < res->nms; i++) {
		if (measured[i])
			res->ms[kept++] = res->ms[i];
		else
			cb_measurement_free(&res->ms[i]);
	}
	res->nms = kept;
	free(measured);
}

cb_rc cb_run_adaptive(cb_runner *r, const cb_launcher *l, const cb_protocol_opts *po,
		      cb_result *res, double seconds[4], cb_error *err)
{
	cb_design d;
	cb_design_init(&d, res);
	run_progress pg = { .out = po->notify, .t0 = cb_now() };
	cb_notifier pn = { progress_note, &pg };
	cb_protocol_opts o = *po;
	o.notify = &pn;
	po = &o;
	/* Each batch's analysis (and the design's) reuses the passes of the tables before it; the
	 * result keeps the memo for the analysis after the run (cb_result_free frees it). */
	cb_pass_memo_free(res->pass_memo);
	res->pass_memo = cb_pass_memo_new();
	size_t *idx = cb_xmalloc((res->nms ? res->nms : 1) * sizeof *idx), n = 0;
	double t = cb_now();
	unsigned total = 0;
	/* The launch length's budget (6 s of rounds) is planned for BUDGET_TABLES experiments:
	 * a design measures about 130 tables, some of them in more than the minimum rounds, and a
	 * CPU's run (whose noise asks for long launches) should take a few seconds. */
	cb_rc rc = cb_calibrate_timing(l, po, &r->ex[0], BUDGET_TABLES, &r->st, err);
	if (rc == CB_OK)
		cb_run_ready(r);
	seconds[1] = cb_now() - t;
	t = cb_now();
	if (rc == CB_OK)
		rc = cb_analyze(res, err);
	pg.t0 = cb_now();
	while (rc == CB_OK && total + po->min_rounds <= r->base_rounds) {
		if ((rc = cb_design_next(&d, res, idx, &n, err)) != CB_OK || n == 0)
			break;
		unsigned from = total;
		pg.batch_t0 = cb_now();
		pg.left = cb_design_batches_left(&d);
		pg.tables += n;
		progress_note(&pg, CB_NOTE_PROGRESS, "");
		prefetch pf;
		prefetch_start(&pf, r, po, res, idx, n);
		rc = run_batch_of(r, l, po, res, idx, n, &total, err);
		prefetch_join(&pf);
		if (rc != CB_OK)
			break;
		if (cb_revisit_length(po, &r->ex[0], from, total, &r->st))
			cb_note(po->notify, CB_NOTE_DETAIL,
				"the rounds' noise (%.2f%%) is above what the "
				"launch length was chosen for; launches of %.3g ms from now on",
				100 * r->st.noise, r->st.launch_ns / 1e6);
		interim(r, res);
		rc = cb_analyze(res, err);
		for (int op = 0; rc == CB_OK && op < CB_NOPS; op++)
			if (d.present[op])
				cb_note(po->notify, CB_NOTE_DETAIL,
					"%s after batch %zu: %s, confidence "
					"%.3f (geometry %.3f x lanes %.3f x fit %.3f x run %.3f)",
					cb_op_name((cb_op)op), d.nlog,
					cb_status_name(res->inference[op].status),
					res->inference[op].confidence,
					res->inference[op].geometry_share,
					res->inference[op].lanes_share,
					res->inference[op].fit_factor,
					res->inference[op].run_factor);
		pg.done++;
	}
	if (rc == CB_ERR_INTERRUPTED && cb_stop_signal) /* say how far it got, as the rounds do */
		cb_error_interrupted(err,
				     " after %zu batches of the adaptive design (%u rounds); no "
				     "results written",
				     d.nlog, total);
	r->st.rounds = total;
	seconds[2] = cb_now() - t;
	if (rc == CB_OK) {
		for (int op = 0; op < CB_NOPS; op++)
			if (d.present[op] && !d.stop[op])
				d.stop[op] = cb_xstrdup("the run's rounds are spent");
		cb_design_record(&d, &res->run);
	}
	cb_design_free(&d);
	free(idx);
	return rc;
}

void cb_adaptive_finish(cb_runner *r, cb_result *res)
{
	keep_measured(r, res);
}
