/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/protocol.h"
#include "core/model.h"
#include "core/stats.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROBE_STEPS 64u

void cb_experiment_name(const cb_experiment *x, char *buf, size_t n)
{
	if (x->index == CB_BASELINE)
		snprintf(buf, n, "the baseline");
	else if (x->index == CB_PROBE)
		snprintf(buf, n, "the sub-group probe");
	else
		snprintf(buf, n, "measurement %zu (%u-byte)", x->index, cb_elem_sizes[x->elem]);
}

unsigned cb_round_steps(double s)
{
	if (!(s >= CB_STEPS_MIN))
		return CB_STEPS_MIN;
	if (s > CB_STEPS_MAX)
		return CB_STEPS_MAX;
	return ((unsigned)s + 7u) & ~7u;
}

unsigned cb_fill_words(const uint32_t *lanes, unsigned n, unsigned elem)
{
	uint32_t top = 16;
	for (unsigned l = 0; l < n; l++)
		if (lanes[l] + elem > top)
			top = lanes[l] + elem;
	return (top + 15) / 16 * 4;
}

bool cb_ratio_converged(const cb_experiment *x, double target)
{
	cb_summary s;
	if (x->n < 6)
		return false;
	cb_summarize(x->ratios, x->n, &s);
	return isfinite(s.ci_lo) && (s.ci_hi - s.ci_lo) / 2 <= target * s.median;
}

static cb_rc run(const cb_launcher *l, const cb_experiment *x, unsigned steps, bool verify,
		 uint64_t *ns, cb_protocol_state *st, cb_error *err)
{
	cb_rc rc = l->launch(l->ctx, x, steps, verify, ns, err);
	if (rc == CB_OK && st) {
		st->total_samples++;
		st->invalid_samples += *ns == 0;
	}
	return rc;
}

/* The baseline until its time settles at the target length, then 100 ms more of it. */
static cb_rc calibrate_baseline(const cb_launcher *l, const cb_protocol_opts *o, cb_experiment *b,
				double *per_step_out, cb_protocol_state *st, cb_error *err)
{
	uint64_t ns = 0;
	unsigned steps = PROBE_STEPS;
	double per_step = 0;
	cb_rc rc;
	for (int k = 0; k < 4; k++) {
		if ((rc = run(l, b, steps, k == 0, &ns, st, err)) != CB_OK)
			return rc;
		per_step = ns ? (double)ns / steps : per_step;
		if (per_step > 0)
			steps = cb_round_steps(o->target_ns / per_step);
	}
	if (per_step <= 0)
		return cb_error_set(err, CB_ERR_RUNTIME, "the device timer gives no time for the "
				    "baseline (END <= START in every launch); it cannot be trusted");
	b->steps = steps;
	*per_step_out = per_step;
	double warm_until = l->now(l->ctx) + 0.1;
	while (l->now(l->ctx) < warm_until && !cb_stop_signal)
		if ((rc = run(l, b, steps, false, &ns, st, err)) != CB_OK)
			return rc;
	return CB_OK;
}

cb_rc cb_calibrate(const cb_launcher *l, const cb_protocol_opts *o, cb_experiment *ex,
		   size_t nex, cb_protocol_state *st, cb_error *err)
{
	double base_per_step = 0;
	cb_rc rc = calibrate_baseline(l, o, &ex[0], &base_per_step, st, err);
	if (rc != CB_OK)
		return rc;
	for (size_t i = 1; i < nex && !cb_stop_signal; i++) {
		unsigned probe = cb_round_steps(ex[0].steps / 16.0);
		uint64_t ns = 0;
		if ((rc = run(l, &ex[i], probe, true, &ns, st, err)) != CB_OK)
			return rc;
		double ps = ns ? (double)ns / probe : base_per_step;
		ex[i].steps = cb_round_steps(o->target_ns / ps);
		cb_note(o->notify, CB_NOTE_PROGRESS, "calibrating %zu/%zu", i, nex - 1);
	}
	return CB_OK;
}

/* One round in the order ORDER; the samples go to slot ROUND. */
static cb_rc one_round(const cb_launcher *l, cb_experiment *ex, size_t nex, const uint32_t *order,
		       unsigned round, cb_protocol_state *st, cb_error *err)
{
	for (size_t j = 0; j < nex && !cb_stop_signal; j++) {
		cb_experiment *x = &ex[order[j]];
		uint64_t ns = 0;
		cb_rc rc = run(l, x, x->steps, false, &ns, st, err);
		if (rc != CB_OK)
			return rc;
		x->samples[round] = ns;
	}
	if (cb_stop_signal)
		return CB_OK;
	/* An invalid sample (0 ns) gives no ratio for that round; it stays counted. */
	double base = ex[0].samples[round] ? (double)ex[0].samples[round] / ex[0].steps : 0;
	for (size_t i = 0; i < nex; i++) {
		cb_experiment *x = &ex[i];
		double t = x->samples[round] ? (double)x->samples[round] / x->steps : 0;
		if (t > 0 && base > 0)
			x->ratios[x->n++] = t / base;
	}
	return CB_OK;
}

cb_rc cb_measure_rounds(const cb_launcher *l, const cb_protocol_opts *o, cb_experiment *ex,
			size_t nex, cb_protocol_state *st, cb_error *err)
{
	cb_rng rng;
	cb_rng_seed(&rng, o->seed ^ 0x5eedULL);
	uint32_t *order = cb_xmalloc(nex * sizeof *order);
	cb_rc rc = CB_OK;
	st->rounds = 0;
	st->converged = false;
	while (st->rounds < o->max_rounds && !cb_stop_signal) {
		for (size_t i = 0; i < nex; i++)
			order[i] = (uint32_t)i;
		cb_shuffle_u32(&rng, order, nex);
		if ((rc = one_round(l, ex, nex, order, st->rounds, st, err)) != CB_OK || cb_stop_signal)
			break;
		st->rounds++;
		if (st->rounds >= o->min_rounds) {
			st->converged = true;
			for (size_t i = 1; i < nex && st->converged; i++)
				st->converged = cb_ratio_converged(&ex[i], o->ci_target);
			if (st->converged)
				break;
		}
		cb_note(o->notify, CB_NOTE_PROGRESS, "round %u (at least %u, at most %u), %zu experiments",
			st->rounds, o->min_rounds, o->max_rounds, nex - 1);
	}
	free(order);
	if (rc != CB_OK)
		return rc;
	if (cb_stop_signal) {
		cb_error_set(err, CB_ERR_INTERRUPTED, "interrupted by %s after %u of at least %u rounds; "
			     "no results written", cb_signal_name(cb_stop_signal), st->rounds,
			     o->min_rounds);
		err->signal = cb_stop_signal;
		return CB_ERR_INTERRUPTED;
	}
	if (st->invalid_samples * 100 > st->total_samples)
		return cb_error_set(err, CB_ERR_RUNTIME, "%zu of %zu timer samples were invalid (END <= "
				    "START); the device timer cannot be trusted", st->invalid_samples,
				    st->total_samples);
	return CB_OK;
}

unsigned cb_probe_tables(uint32_t *tables, unsigned long local_bytes, unsigned *ns)
{
	unsigned count = 0;
	memset(tables, 0, 2 * CB_PROBE_MAXN * sizeof *tables);
	for (unsigned n = 1; n <= CB_PROBE_MAXN && (unsigned long)n * CB_PROBE_STRIDE <= local_bytes;
	     n *= 2) {
		ns[count++] = n;
		for (unsigned l = 0; l < n; l++)
			tables[n + l] = l * CB_PROBE_STRIDE;
	}
	return count;
}

/* Growth of at least 1.5x per doubling, over at least two doublings in a row, up to the group,
 * then a plateau (less than 1.25x) that the next point, if any, confirms. A slow start is
 * allowed (a latency floor hides the first conflicts); one noisy point, or growth that stalls
 * half-way, is an ambiguity, not a sub-group size. */
static unsigned plateau(const cb_subgroup_probe *p)
{
	unsigned run = 0;
	for (unsigned i = 1; i < p->n; i++) {
		double g = p->ratio[i] / p->ratio[i - 1];
		if (g >= 1.5) {
			run++;
			continue;
		}
		if (run == 0)
			continue;
		bool level = g < 1.25 && p->ratio[i - 1] >= 3 && run >= 2;
		if (level && i + 1 < p->n)
			level = p->ratio[i + 1] / p->ratio[i - 1] < 1.25 * 1.25;
		return level ? p->lanes[i - 1] : 0;
	}
	return 0;
}

cb_rc cb_probe_subgroup(const cb_launcher *l, const uint32_t *tables, const unsigned *ns,
			unsigned count, cb_subgroup_probe *probe, cb_error *err)
{
	enum { REPS = 5 };
	memset(probe, 0, sizeof *probe);
	cb_experiment x = { .index = CB_PROBE, .elem = 2, .table = 1, .nlanes = 1,
			    .lanes = tables + 1, .fill = 4 };
	unsigned steps = 256;
	uint64_t ns_time = 0;
	/* Calibrate on the one-address table so that probe launches last about 1 ms. */
	cb_rc rc = l->launch(l->ctx, &x, steps, true, &ns_time, err);
	if (rc != CB_OK)
		return rc;
	if (ns_time > 0)
		steps = cb_round_steps(1e6 / ((double)ns_time / steps));
	double base = 0;
	for (unsigned i = 0; i < count; i++) {
		x.nlanes = ns[i];
		x.lanes = tables + ns[i];
		x.fill = cb_fill_words(x.lanes, ns[i], 4);
		double t[REPS];
		for (unsigned k = 0; k < REPS; k++) {
			if ((rc = l->launch(l->ctx, &x, steps, k == 0, &ns_time, err)) != CB_OK)
				return rc;
			t[k] = (double)ns_time / steps;
		}
		double med = cb_median(t, REPS);
		if (i == 0)
			base = med;
		probe->lanes[probe->n] = ns[i];
		probe->ratio[probe->n++] = base > 0 ? med / base : NAN;
	}
	probe->found = plateau(probe);
	return CB_OK;
}
