/* SPDX-License-Identifier: MIT */
/* The record of a run: each measurement's time and statistics, the baseline, the quality
 * warnings, the device and the run's provenance. */
#include "config.h"
#include "measure/run_internal.h"
#include "measure/protocol_internal.h"
#include "core/stats.h"
#include "core/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* V as the document keeps it (six significant digits), so that the run's analysis is the
 * analysis of its document. */
static double as_written(double v)
{
	char buf[32];
	if (!isfinite(v))
		return v;
	snprintf(buf, sizeof buf, "%.6g", v);
	return strtod(buf, NULL);
}

static uint64_t *copy_samples(const uint64_t *s, unsigned n)
{
	uint64_t *c = cb_xmalloc((n ? n : 1) * sizeof *c);
	memcpy(c, s, n * sizeof *c);
	return c;
}

/* The baseline's statistics (time per step from the differential of each round) and drift
 * (its first third of rounds against its last third). */
static void record_baseline(const cb_runner *r, cb_result *res, cb_summary *bs, double *drift)
{
	const cb_experiment *b = &r->ex[0];
	unsigned rounds = r->st.rounds * CB_BASELINE_REPS, nbt = 0;
	double *bt = cb_xmalloc((rounds ? rounds : 1) * sizeof *bt);
	for (unsigned k = 0; k < rounds; k++) {
		unsigned L = r->base_steps ? r->base_steps[k] : b->steps;
		unsigned S = r->base_steps ? r->base_steps_short[k] : b->steps_short;
		double t = cb_differential(b->samples[k], b->samples_short[k], L, S);
		if (t > 0)
			bt[nbt++] = t;
	}
	cb_summarize(bt, nbt, bs);
	*drift = NAN;
	if (nbt >= 6) {
		unsigned third = nbt / 3;
		double first = cb_median(bt, third), last = cb_median(bt + nbt - third, third);
		*drift = (last - first) / first;
	}
	free(bt);
	cb_baseline *base = &res->baseline;
	base->present = true;
	base->op = CB_OP_LOAD;
	base->elem_bytes = 4;
	base->lanes = cb_xmalloc(r->S * sizeof *base->lanes);
	memcpy(base->lanes, r->baseline_lanes, r->S * sizeof *base->lanes);
	base->steps = b->steps;
	base->steps_short = b->steps_short;
	base->ns_per_access = bs->median;
	base->mad_ns = bs->mad;
	base->samples_ns = copy_samples(b->samples, rounds);
	base->samples_short_ns = copy_samples(b->samples_short, rounds);
	base->nsamples = base->nsamples_short = rounds;
}

/* Each measurement's time (its median ratio times the baseline's median), samples and
 * statistics; counts for the quality record. */
static void record_measurements(const cb_runner *r, cb_result *res, double base_ns,
				size_t *outliers, size_t *nsamples, size_t *not_converged)
{
	*outliers = *nsamples = *not_converged = 0;
	for (size_t i = 1; i < r->nex; i++) {
		const cb_experiment *x = &r->ex[i];
		cb_measurement *m = &res->ms[x->index];
		if (r->adaptive && !x->rounds)
			continue; /* not chosen by the design: dropped from the result */
		cb_summary s;
		cb_summarize(x->ratios, x->n, &s);
		*outliers += s.outliers;
		*nsamples += x->n;
		bool conv = cb_ratio_converged(x, r->o->ci_target);
		*not_converged += !conv;
		m->ns_per_access = as_written(s.median * base_ns);
		m->steps = x->steps;
		m->steps_short = x->steps_short;
		m->verified = 1;
		m->has_samples = true;
		m->samples_ns = copy_samples(x->samples, x->rounds);
		m->samples_short_ns = copy_samples(x->samples_short, x->rounds);
		m->nsamples = m->nsamples_short = x->rounds;
		m->has_stats = true;
		m->stats = (cb_ratio_stats){
			.rounds = x->n,
			.median = as_written(s.median),
			.ci_lo = as_written(isfinite(s.ci_lo) ? s.ci_lo : s.min),
			.ci_hi = as_written(isfinite(s.ci_hi) ? s.ci_hi : s.max),
			.mad = as_written(s.mad),
			.outliers = (long long)s.outliers,
			.invalid = (long long)(x->rounds - x->n),
			.converged = conv
		};
	}
}

static void add_warning(cb_quality *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_warning(cb_quality *q, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	q->warnings = cb_xrealloc(q->warnings, (q->nwarnings + 1) * sizeof *q->warnings);
	q->warnings[q->nwarnings++] = cb_xstrdup(buf);
}

static void timing_warnings(const cb_runner *r, cb_quality *q)
{
	const cb_protocol_state *st = &r->st;
	if (st->timer == CB_TIMER_HOST && cb_ocl_event_timer(r->ocl))
		add_warning(q, "launches were timed with the host clock (%s); expect more noise",
			    st->timer_reason);
	if (st->chain_cap)
		add_warning(
			q,
			"the device gives wrong results for chains of more than %u steps; every "
			"chain stayed within that",
			st->chain_cap);
	if (st->shortened)
		add_warning(q, "%u experiment%s had %s chain halved until it verified",
			    st->shortened, st->shortened == 1 ? "" : "s",
			    st->shortened == 1 ? "its" : "their");
}

static void record_quality(const cb_runner *r, cb_result *res, double drift, size_t outliers,
			   size_t nsamples, size_t not_converged)
{
	cb_quality *q = &res->quality;
	double outlier_share = nsamples ? (double)outliers / (double)nsamples : 0;
	q->present = true;
	size_t measured = 0;
	for (size_t i = 1; i < r->nex; i++)
		measured += r->ex[i].rounds > 0;
	if (r->adaptive && not_converged)
		add_warning(q,
			    "%zu of %zu measurements did not reach a 95%% CI within +/-%.0f%% in "
			    "the rounds of their batch",
			    not_converged, measured, 100 * r->o->ci_target);
	else if (!r->adaptive && !r->st.settled && !r->st.converged)
		add_warning(
			q,
			"the answer did not settle in %u rounds, and %zu of %zu measurements did "
			"not reach a 95%% CI within +/-%.0f%%",
			r->st.rounds, not_converged, r->nex - 1, 100 * r->o->ci_target);
	if (isfinite(drift) && fabs(drift) > 0.05)
		add_warning(
			q,
			"the baseline drifted by %+.1f%% from the first to the last third of the "
			"rounds (clock changes or other load); a quiet system or a longer warm-up "
			"helps",
			100 * drift);
	if (outlier_share > 0.05)
		add_warning(
			q,
			"%.1f%% of the samples are outliers (more than 10 robust deviations off)",
			100 * outlier_share);
	timing_warnings(r, q);
	for (unsigned i = 0; i < r->info->nwarnings; i++) /* driver values out of range */
		add_warning(q, "%s", r->info->warnings[i]);
	q->converged = r->adaptive ? not_converged == 0 : r->st.converged;
	q->has_drift = true;
	q->drift = drift;
	q->outlier_share = outlier_share;
	q->invalid_samples = (long long)r->st.invalid_samples;
	q->samples = (long long)r->st.total_samples;
}

static void record_device(const cb_runner *r, cb_result *res)
{
	cb_device_doc *d = &res->device;
	cb_device_info_to_doc(r->info, d);
	d->subgroup_size = r->S;
	if (!r->probed)
		return;
	d->has_probe = true;
	for (unsigned i = 0; i < r->probe.n; i++) {
		d->probe_lanes[d->probe_n] = r->probe.lanes[i];
		d->probe_ratio[d->probe_n++] = isfinite(r->probe.ratio[i]) ? r->probe.ratio[i]
									   : 0.0;
	}
	d->probe_driver_reported = r->driver_subgroup ? (long long)r->driver_subgroup : CB_UNSET;
}

static void record_timing(const cb_runner *r, cb_run_meta *m)
{
	const cb_protocol_state *st = &r->st;
	char warm[256];
	m->timer = cb_xstrdup(st->timer == CB_TIMER_HOST ? "host" : "event");
	m->timer_reason = cb_xstrdup(st->timer_reason);
	m->timer_granularity_ns = (long long)st->granularity_ns;
	m->timing = cb_xstrdup(
		"differential: every experiment at a long and a quarter-length chain "
		"per round; time per step from the difference");
	m->target_launch_ms = st->launch_ns / 1e6;
	m->launch_noise = isfinite(st->noise) ? st->noise : NAN;
	m->chain_cap = st->chain_cap ? (long long)st->chain_cap : CB_UNSET;
	m->shortened = st->shortened;
	m->lengthened = st->lengthened;
	/* A fixed-plan run also warms up after its chains are verified (cb_calibrate). */
	snprintf(warm, sizeof warm,
		 "the baseline for %.1f ms in %u launches before the launch length was chosen%s",
		 st->warm_ns / 1e6, st->warm_launches,
		 r->adaptive ? "" : ", and for 50 ms after every chain was verified");
	m->warmup = cb_xstrdup(warm);
	m->stop = cb_xstrdup(r->adaptive     ? "design"
			     : st->settled   ? "settled"
			     : st->converged ? "converged"
					     : "max_rounds");
}

static void record_meta(const cb_runner *r, cb_result *res, const double seconds[4])
{
	const cb_run_opts *o = r->o;
	cb_run_meta *m = &res->run;
	m->present = true;
	m->regime = cb_xstrdup(o->latency ? "latency" : "throughput");
	record_timing(r, m);
	m->work_group_size = (long long)r->wg;
	m->global_size = (long long)r->global;
	m->work_groups_per_cu = o->latency ? 1 : (long long)r->per_cu;
	unsigned units = r->info->slm_units ? r->info->slm_units : 1;
	m->subgroups_per_cu = o->latency ? 1.0 : (double)(r->global / r->S) / units;
	m->local_mem_alloc_bytes = (long long)r->local_alloc;
	/* How many work-groups a unit can hold at once, where the driver says how much local
	 * memory a unit has (AMD): fewer than launched means fewer sub-groups keep it busy. */
	if (r->info->local_mem_per_cu && r->local_alloc) {
		unsigned long fit = r->info->local_mem_per_cu / r->local_alloc;
		long long launched = m->work_groups_per_cu;
		m->resident_work_groups_per_cu = (long long)fit < launched ? (long long)fit
									   : launched;
	}
	m->rounds = r->st.rounds;
	m->min_rounds = o->min_rounds;
	m->max_rounds = o->max_rounds;
	m->ci_target = o->ci_target;
	m->seed = (long long)o->seed;
	m->has_build_options = true;
	for (int k = 0; k < CB_NKERNELS; k++)
		if (cb_ocl_built(r->ocl, k))
			m->build_options[k] = cb_xstrdup(cb_ocl_build_options(r->ocl, k));
	m->kernels = cb_xstrdup(o->kernel_dir ? o->kernel_dir : "embedded");
	m->clbanks_version = cb_xstrdup(PACKAGE_VERSION);
	m->command_line = o->command_line ? cb_xstrdup(o->command_line) : NULL;
	m->protocol = cb_xstrdup(r->adaptive ? "adaptive" : o->plan ? "plan" : "full");
	m->launches = r->launches;
	m->device_seconds = as_written(r->device_ns * 1e-9);
	m->has_seconds = true;
	m->seconds_build = seconds[0];
	m->seconds_calibration = seconds[1];
	m->seconds_measurement = seconds[2];
	m->seconds_total = seconds[3];
}

void cb_record_run(const cb_runner *r, cb_result *res, const double seconds[4])
{
	cb_summary bs;
	double drift;
	size_t outliers, nsamples, not_converged;
	record_baseline(r, res, &bs, &drift);
	record_measurements(r, res, bs.median, &outliers, &nsamples, &not_converged);
	record_quality(r, res, drift, outliers, nsamples, not_converged);
	record_device(r, res);
	record_meta(r, res, seconds);
}
