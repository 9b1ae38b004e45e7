/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/protocol.h"
#include "measure/protocol_internal.h"
#include "core/model.h"
#include "core/stats.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cb_experiment_name(const cb_experiment *x, char *buf, size_t n)
{
	if (x->index == CB_BASELINE)
		snprintf(buf, n, "the baseline");
	else if (x->index == CB_PROBE)
		snprintf(buf, n, "the sub-group probe");
	else
		snprintf(buf, n, "measurement %zu (%u-byte %s)", x->index, cb_elems[x->elem].bytes,
			 cb_op_name(x->op));
}

unsigned cb_round_chain(double s, unsigned granule)
{
	if (!(s >= granule))
		return granule;
	if (s > CB_STEPS_MAX)
		return CB_STEPS_MAX;
	return ((unsigned)s + granule - 1) / granule * granule;
}

unsigned cb_round_steps(double s)
{
	return cb_round_chain(s, CB_STEPS_MIN);
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

cb_rc cb_run_items(const cb_launcher *l, cb_timer_mode mode, const cb_launch_item *items, size_t n,
		   double expected_s, uint64_t *ns, long *bad, cb_protocol_state *st, cb_error *err)
{
	size_t per = mode == CB_TIMER_HOST ? 1 : l->max_batch;
	*bad = -1;
	for (size_t i = 0; i < n; i += per) {
		size_t k = n - i < per ? n - i : per;
		double host;
		cb_rc rc = l->run(l->ctx, items + i, k, expected_s * k / n, ns + i, &host, bad,
				  err);
		if (rc != CB_OK) {
			if (*bad >= 0)
				*bad += (long)i;
			return rc;
		}
		if (mode == CB_TIMER_HOST)
			ns[i] = (uint64_t)(host * 1e9);
		if (cb_stop_signal)
			return CB_OK;
	}
	for (size_t i = 0; st && i < n; i++) {
		st->total_samples++;
		st->invalid_samples += ns[i] == 0;
	}
	return CB_OK;
}

/* Time per step from a long and a short chain's times, or 0 when they cannot give one. */
double cb_differential(uint64_t ns_long, uint64_t ns_short, unsigned steps, unsigned steps_short)
{
	if (!ns_long || !ns_short || ns_long <= ns_short || steps <= steps_short)
		return 0;
	return (double)(ns_long - ns_short) / (double)(steps - steps_short);
}

/* The round's reference: the median of the baseline's valid differentials. */
static double round_baseline(const cb_experiment *b, unsigned round)
{
	double t[CB_BASELINE_REPS];
	size_t n = 0;
	for (unsigned k = 0; k < CB_BASELINE_REPS; k++) {
		size_t at = round * CB_BASELINE_REPS + k;
		double d = cb_differential(b->samples[at], b->samples_short[at], b->steps,
					   b->steps_short);
		if (d > 0)
			t[n++] = d;
	}
	return n ? cb_median(t, n) : 0;
}

/* Each experiment's ratio to the baseline of round ROUND; an invalid pair gives none. */
static void round_ratios(cb_experiment *ex, size_t nex, unsigned round)
{
	double base = round_baseline(&ex[0], round);
	for (size_t i = 1; i < nex; i++) {
		cb_experiment *x = &ex[i];
		double t = cb_differential(x->samples[round], x->samples_short[round], x->steps,
					   x->steps_short);
		if (t > 0 && base > 0)
			x->ratios[x->n++] = t / base;
	}
}

/* K rounds from round st->rounds on, as one call (see rounds_per_call): each round in an order
 * of its own (every experiment once, the baseline CB_BASELINE_REPS times, NSLOT entries),
 * each experiment's long and short chain next to each other in a random order of the two.
 * The rounds it completes are stored, their ratios taken and st->rounds advanced. */
static cb_rc some_rounds(const cb_launcher *l, cb_experiment *ex, size_t nex, unsigned k,
			 cb_rng *rng, cb_protocol_state *st, cb_error *err)
{
	size_t nslot = nex + CB_BASELINE_REPS - 1, n = nslot * k;
	uint32_t *order = cb_xmalloc(n * sizeof *order);
	cb_launch_item *items = cb_xmalloc(2 * n * sizeof *items);
	uint64_t *ns = cb_xcalloc(2 * n, sizeof *ns);
	bool *long_first = cb_xmalloc(n * sizeof *long_first);
	for (size_t j = 0; j < n; j++) {
		uint32_t *o = order + j / nslot * nslot;
		if (j % nslot == 0) {
			for (size_t i = 0; i < nslot; i++)
				o[i] = i < nex ? (uint32_t)i : 0;
			cb_shuffle_u32(rng, o, nslot);
		}
		cb_experiment *x = &ex[order[j]];
		long_first[j] = cb_rng_below(rng, 2);
		items[2 * j] = (cb_launch_item){ x, long_first[j] ? x->steps : x->steps_short };
		items[2 * j + 1] = (cb_launch_item){ x, long_first[j] ? x->steps_short : x->steps };
	}
	long bad;
	double expected = 1.25e-9 * st->launch_ns * (double)n;
	cb_rc rc = cb_run_items(l, st->timer, items, 2 * n, expected, ns, &bad, st, err);
	unsigned rep = 0;
	/* A call of several rounds is one batch of the launcher, whole once it returns: a stop
	 * during it keeps its rounds (they count in what the stop says). */
	bool whole = rc == CB_OK && (k > 1 || !cb_stop_signal);
	for (size_t j = 0; whole && j < n; j++) {
		cb_experiment *x = &ex[order[j]];
		unsigned round = st->rounds + (unsigned)(j / nslot);
		if (j % nslot == 0)
			rep = 0;
		size_t at = order[j] == 0 ? round * CB_BASELINE_REPS + rep++ : round;
		x->samples[at] = ns[2 * j + !long_first[j]];
		x->samples_short[at] = ns[2 * j + long_first[j]];
	}
	for (unsigned r = 0; whole && r < k; r++)
		round_ratios(ex, nex, st->rounds++);
	free(order);
	free(items);
	free(ns);
	free(long_first);
	return rc;
}

static bool all_converged(const cb_experiment *ex, size_t nex, double target)
{
	for (size_t i = 1; i < nex; i++)
		if (!cb_ratio_converged(&ex[i], target))
			return false;
	return true;
}

static cb_rc rounds_end(const cb_protocol_opts *o, cb_protocol_state *st, cb_error *err)
{
	if (cb_stop_signal)
		return cb_error_interrupted(err,
					    " after %u of at least %u rounds; no results written",
					    st->rounds, o->min_rounds);
	if (st->invalid_samples * 100 > st->total_samples)
		return cb_error_set(err, CB_ERR_RUNTIME,
				    "%zu of %zu timer samples were invalid (END <= "
				    "START); the device timer cannot be trusted",
				    st->invalid_samples, st->total_samples);
	return CB_OK;
}

/* "round 3 of at least 6 (at most 30), about 4 s left": the estimate counts the rounds still
 * needed before the run may stop, at the pace so far; past that, the run stops once settled. */
static void progress(const cb_protocol_opts *o, unsigned rounds, double elapsed)
{
	double per_round = elapsed / rounds;
	if (rounds < o->min_rounds)
		cb_note(o->notify, CB_NOTE_PROGRESS,
			"round %u of at least %u (at most %u), about %.0f s left", rounds,
			o->min_rounds, o->max_rounds, per_round * (o->min_rounds - rounds) + 0.5);
	else
		cb_note(o->notify, CB_NOTE_PROGRESS,
			"round %u of at most %u, until settled (at most %.0f s more)", rounds,
			o->max_rounds, per_round * (o->max_rounds - rounds) + 0.5);
}

/* Rounds that may go in one call: those the run takes surely (up to o->min_rounds), as many as
 * fit in one batch of the launcher and last GROUP_S together. Between calls the device idles
 * while the host reads the times and checks the results; a call's launches run back to back.
 * A round longer than GROUP_S (a CPU's, whose launches last milliseconds) goes alone, as
 * before, so progress and Ctrl-C come no less often than one round. */
#define GROUP_S 0.02
static unsigned rounds_per_call(const cb_launcher *l, const cb_protocol_opts *o, size_t nslot,
				const cb_protocol_state *st)
{
	double per_round = 1.25e-9 * st->launch_ns * (double)nslot;
	unsigned k = 1;
	/* (the host clock times each launch in a call of its own) */
	while (st->timer != CB_TIMER_HOST && st->rounds + k < o->min_rounds &&
	       st->rounds + k < o->max_rounds && 2 * nslot * (k + 1) <= l->max_batch &&
	       per_round * (k + 1) <= GROUP_S)
		k++;
	return k;
}

cb_rc cb_measure_rounds(const cb_launcher *l, const cb_protocol_opts *o, cb_experiment *ex,
			size_t nex, cb_protocol_state *st, cb_error *err)
{
	cb_rng rng;
	cb_rng_seed(&rng, o->seed ^ 0x5eedULL);
	size_t nslot = nex + CB_BASELINE_REPS - 1;
	cb_rc rc = CB_OK;
	st->rounds = 0;
	st->converged = st->settled = false;
	double t0 = cb_now();
	while (st->rounds < o->max_rounds && !cb_stop_signal) {
		unsigned k = rounds_per_call(l, o, nslot, st);
		if ((rc = some_rounds(l, ex, nex, k, &rng, st, err)) != CB_OK || cb_stop_signal)
			break;
		progress(o, st->rounds, cb_now() - t0);
		if (st->rounds < o->min_rounds)
			continue;
		st->converged = all_converged(ex, nex, o->ci_target);
		if (o->all_narrow ? st->converged
				  : (st->settled = o->settled &&
						   o->settled(o->settled_ctx, ex, nex, st->rounds)))
			break;
	}
	for (size_t i = 0; i < nex; i++)
		ex[i].rounds = st->rounds;
	return rc != CB_OK ? rc : rounds_end(o, st, err);
}

unsigned cb_probe_tables(uint32_t *tables, unsigned long local_bytes, unsigned *ns)
{
	unsigned count = 0;
	memset(tables, 0, 2 * CB_PROBE_MAXN * sizeof *tables);
	for (unsigned n = 1;
	     n <= CB_PROBE_MAXN && (unsigned long)n * CB_PROBE_STRIDE <= local_bytes; n *= 2) {
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

/* The median time per step of REPS launches of X with *STEPS; a chain the device cuts short
 * is halved until it verifies. */
static cb_rc probe_time(const cb_launcher *l, bool host, cb_experiment *x, unsigned *steps,
			double *per_step, cb_error *err)
{
	enum { REPS = 5 };
	double t[REPS];
	for (unsigned k = 0; k < REPS; k++) {
		cb_launch_item it = { x, *steps };
		uint64_t ns;
		long bad;
		cb_rc rc = cb_run_items(l, host ? CB_TIMER_HOST : CB_TIMER_EVENT, &it, 1, 0.01, &ns,
					&bad, NULL, err);
		if (rc != CB_OK && bad >= 0 && *steps > 64) {
			*steps = cb_round_steps(*steps / 2.0);
			k = (unsigned)-1; /* start over with the shorter chain */
			continue;
		}
		if (rc != CB_OK)
			return rc;
		t[k] = (double)ns / *steps;
	}
	*per_step = cb_median(t, REPS);
	return CB_OK;
}

cb_rc cb_probe_subgroup(const cb_launcher *l, bool host, const uint32_t *tables, const unsigned *ns,
			unsigned count, cb_subgroup_probe *probe, cb_error *err)
{
	memset(probe, 0, sizeof *probe);
	cb_experiment x = { .index = CB_PROBE,
			    .elem = 2,
			    .table = 1,
			    .nlanes = 1,
			    .lanes = tables + 1,
			    .fill = 4 };
	unsigned steps = 256;
	double base = 0, t;
	/* Calibrate on the one-address table so that probe launches last about 1 ms. */
	cb_rc rc = probe_time(l, host, &x, &steps, &t, err);
	if (rc != CB_OK)
		return rc;
	if (t > 0)
		steps = cb_round_steps(1e6 / t);
	for (unsigned i = 0; i < count; i++) {
		x.nlanes = ns[i];
		x.lanes = tables + ns[i];
		x.fill = cb_fill_words(x.lanes, ns[i], 4);
		if ((rc = probe_time(l, host, &x, &steps, &t, err)) != CB_OK)
			return rc;
		if (i == 0)
			base = t;
		probe->lanes[probe->n] = ns[i];
		probe->ratio[probe->n++] = base > 0 ? t / base : NAN;
	}
	probe->found = plateau(probe);
	return CB_OK;
}
