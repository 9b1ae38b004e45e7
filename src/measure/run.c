/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "measure/run.h"
#include "measure/ocl.h"
#include "measure/protocol.h"
#include "core/plan.h"
#include "core/stats.h"
#include "core/util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Throughput regime: work-groups of 256 work-items, 64 per compute unit. Many waves keep the
 * ragged last wave small: with 8 per compute unit an H200 held 7 at once and times were
 * bimodal; large work-groups of 1024 left too few warps in flight to saturate the banks. */
#define WG_TARGET 256u
#define WG_PER_CU 64u

typedef struct {
	const cb_device_ref *ref;
	cb_device_info *info;
	const cb_run_opts *o;
	cb_ocl *ocl;
	cb_kernel_limits lim;       /* of the 4-byte kernel */
	unsigned long local_avail;  /* local memory a work-group may have */
	unsigned long local_alloc;  /* what every launch allocates */
	unsigned long per_cu;       /* work-groups per compute unit (throughput) */
	size_t wg, global;
	unsigned S;
	double target_ns;           /* calibrated length of one launch */
	bool probed;
	cb_subgroup_probe probe;
	unsigned driver_subgroup;
	cb_experiment *ex;          /* ex[0]: the baseline */
	size_t nex;
	uint32_t *baseline_lanes;
	cb_protocol_state st;
} runner;

static cb_rc launch_adapter(void *ctx, const cb_experiment *x, unsigned steps, bool verify,
			    uint64_t *ns, cb_error *err)
{
	runner *r = ctx;
	char what[96];
	cb_experiment_name(x, what, sizeof what);
	cb_launch_req req = { .elem = x->elem, .table = x->table, .nlanes = x->nlanes,
			      .steps = steps, .fill_words = x->fill, .lanes = x->lanes,
			      .verify = verify, .what = what };
	return cb_ocl_launch(r->ocl, &req, ns, err);
}

static double host_clock(void *ctx)
{
	(void)ctx;
	return cb_now();
}

static uint64_t *copy_samples(const uint64_t *s, unsigned n)
{
	uint64_t *c = cb_xmalloc((n ? n : 1) * sizeof *c);
	memcpy(c, s, n * sizeof *c);
	return c;
}

/* Context, queue, the 4-byte kernel and its limits, the local allocation. */
static cb_rc setup(runner *r, cb_error *err)
{
	const cb_run_opts *o = r->o;
	cb_ocl_opts oo = { o->kernel_dir, o->build_options, o->notify };
	cb_rc rc = cb_ocl_open(r->ref, r->info, &oo, &r->ocl, err);
	if (rc == CB_OK)
		rc = cb_ocl_build(r->ocl, CB_ELEM_INDEX_4B, err);
	if (rc == CB_OK)
		rc = cb_ocl_kernel_limits(r->ocl, CB_ELEM_INDEX_4B, &r->lim, err);
	if (rc != CB_OK)
		return rc;
	cb_ocl_set_timeout(r->ocl, o->timeout_s);
	if (r->lim.work_group_size == 0)
		r->lim.work_group_size = r->info->max_work_group_size;
	unsigned long long kstatic = r->lim.local_mem_static;
	r->local_avail = r->info->local_mem_size > kstatic ?
		(unsigned long)(r->info->local_mem_size - kstatic) : 0;
	/* Every launch allocates the same amount, so occupancy does not change between
	 * experiments. */
	r->local_alloc = o->local_mem ? o->local_mem :
		(r->local_avail < CB_DEFAULT_LOCAL_BYTES ? r->local_avail : CB_DEFAULT_LOCAL_BYTES);
	r->local_alloc &= ~15UL;
	if (r->local_alloc > r->local_avail)
		return cb_error_set(err, CB_ERR_USAGE, "--local-mem %lu B exceeds the local memory this "
				    "device offers a work-group (%lu B)", o->local_mem, r->local_avail);
	if (r->local_alloc < 4096)
		return cb_error_set(err, CB_ERR_USAGE, "%s offers %lu B of local memory to a work-group; "
				    "clbanks needs at least 4096 B", r->info->name, r->local_avail);
	r->per_cu = o->groups_per_cu ? o->groups_per_cu : WG_PER_CU;
	return CB_OK;
}

/* Work sizes for lanes in units of UNIT: work-groups of up to 256, PER_CU per compute unit. */
static cb_rc size_work(runner *r, unsigned unit, cb_error *err)
{
	size_t kwg = r->lim.work_group_size;
	size_t cap = kwg < WG_TARGET ? kwg : WG_TARGET;
	if (cap < unit)
		return cb_error_set(err, CB_ERR_USAGE, "the kernel allows work-groups of %zu work-items "
				    "(CL_KERNEL_WORK_GROUP_SIZE), fewer than one sub-group of %u", kwg, unit);
	r->wg = cap / unit * unit;
	r->global = r->wg * (r->info->compute_units ? r->info->compute_units : 1) * r->per_cu;
	return CB_OK;
}

static cb_rc run_probe(runner *r, unsigned pref_multiple, cb_error *err)
{
	cb_rc rc = size_work(r, pref_multiple ? pref_multiple : 1, err);
	uint32_t tables[2 * CB_PROBE_MAXN];
	unsigned ns[CB_PROBE_MAX];
	unsigned count = cb_probe_tables(tables, r->local_alloc, ns);
	if (rc == CB_OK)
		rc = cb_ocl_set_tables(r->ocl, tables, 2 * CB_PROBE_MAXN, 1, err);
	if (rc == CB_OK)
		rc = cb_ocl_set_work(r->ocl, r->global, r->wg, r->local_alloc, err);
	cb_launcher l = { launch_adapter, host_clock, r };
	if (rc == CB_OK)
		rc = cb_probe_subgroup(&l, tables, ns, count, &r->probe, err);
	r->probed = true;
	return rc;
}

/* The sub-group size: --subgroup, the driver, the kernel query, a measurement, or a fallback
 * that the report names. Sets r->S and the work sizes. */
static cb_rc choose_subgroup(runner *r, cb_error *err)
{
	const cb_run_opts *o = r->o;
	cb_device_info *info = r->info;
	unsigned pref = r->lim.preferred_multiple >= 1 && r->lim.preferred_multiple <= CB_MAX_LANES ?
		(unsigned)r->lim.preferred_multiple : 0;
	r->driver_subgroup = info->subgroup_size;
	if (o->measure_subgroup) {
		info->subgroup_size = 0;
	} else if (o->subgroup_override) {
		info->subgroup_size = o->subgroup_override;
		info->subgroup_source = "--subgroup";
	} else if (!info->subgroup_size) {
		unsigned k = cb_ocl_kernel_subgroup(r->ocl, CB_ELEM_INDEX_4B, r->wg ? r->wg : WG_TARGET);
		if (k) {
			info->subgroup_size = k;
			info->subgroup_source = "CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE";
		}
	}
	if (!info->subgroup_size) {
		cb_rc rc = run_probe(r, pref, err);
		if (rc != CB_OK)
			return rc;
		if (r->probe.found) {
			info->subgroup_size = r->probe.found;
			info->subgroup_source = "measured (lanes served together for 4-byte loads)";
		} else {
			info->subgroup_size = pref >= 4 ? pref : 32;
			info->subgroup_source = pref >= 4 ?
				"not measurable; CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE" :
				"not measurable; assumed 32";
			cb_note(o->notify, CB_NOTE_WARNING, "the sub-group size could not be queried or "
				"measured; using %u (%s)", info->subgroup_size, info->subgroup_source);
		}
	}
	if (info->subgroup_size < 4 || info->subgroup_size > CB_MAX_LANES)
		return cb_error_set(err, CB_ERR_USAGE, "sub-group size %u (%s) is outside 4..%d",
				    info->subgroup_size, info->subgroup_source, CB_MAX_LANES);
	r->S = info->subgroup_size;
	cb_rc rc = size_work(r, r->S, err);
	if (rc == CB_OK && o->latency) {
		r->wg = r->S;
		r->global = r->S;
	}
	return rc;
}

/* The measurements to run, in R: the given plan's or the default one. */
static cb_rc load_plan(runner *r, cb_result *res, cb_error *err)
{
	const cb_run_opts *o = r->o;
	if (!o->plan) {
		cb_plan_opts po = { .subgroup = r->S, .seed = o->seed, .local_mem_budget = r->local_alloc,
				    .quick = o->quick };
		return cb_plan_make(&po, res, err);
	}
	if (o->plan->device.subgroup_size != r->S)
		return cb_error_set(err, CB_ERR_USAGE, "the plan is for sub-groups of %u lanes, but %s "
				    "has %u (%s); make one with 'clbanks plan --subgroup %u'",
				    o->plan->device.subgroup_size, r->info->name, r->S,
				    r->info->subgroup_source, r->S);
	cb_result_init(res);
	const cb_result *plan = o->plan;
	res->has_generator = plan->has_generator;
	res->generator_name = plan->generator_name ? cb_xstrdup(plan->generator_name) : NULL;
	res->generator_version = plan->generator_version ? cb_xstrdup(plan->generator_version) : NULL;
	res->plan = plan->plan;
	res->plan.extra = plan->plan.extra ? cb_xstrdup(plan->plan.extra) : NULL;
	res->ms = cb_xcalloc(o->plan->nms ? o->plan->nms : 1, sizeof *res->ms);
	for (size_t i = 0; i < o->plan->nms; i++) {
		cb_measurement *m = &res->ms[res->nms++];
		cb_measurement_copy(m, &o->plan->ms[i], r->S);
		/* Times, if the plan had any, are measured anew. */
		m->ns_per_access = NAN;
		m->steps = CB_UNSET;
		m->verified = -1;
		free(m->samples_ns);
		m->samples_ns = NULL;
		m->nsamples = 0;
		m->has_samples = m->has_stats = false;
	}
	return CB_OK;
}

/* Experiments: the baseline (4-byte elements at stride 1), then every measurement. Checks that
 * every table fits the allocation. */
static cb_rc make_experiments(runner *r, const cb_result *res, cb_error *err)
{
	const unsigned max_rounds = r->o->max_rounds;
	r->nex = res->nms + 1;
	r->ex = cb_xcalloc(r->nex, sizeof *r->ex);
	r->baseline_lanes = cb_xmalloc(r->S * sizeof(uint32_t));
	cb_stride_lanes(r->baseline_lanes, r->S, 4, 1);
	for (size_t i = 0; i < r->nex; i++) {
		cb_experiment *x = &r->ex[i];
		const cb_measurement *m = i ? &res->ms[i - 1] : NULL;
		x->index = i ? i - 1 : CB_BASELINE;
		x->elem = m ? cb_elem_index(m->elem_bytes) : CB_ELEM_INDEX_4B;
		x->table = (unsigned)i;
		x->nlanes = r->S;
		x->lanes = m ? m->lanes : r->baseline_lanes;
		x->ratios = cb_xcalloc(max_rounds, sizeof(double));
		x->samples = cb_xcalloc(max_rounds, sizeof(uint64_t));
		unsigned E = cb_elem_sizes[x->elem];
		x->fill = cb_fill_words(x->lanes, r->S, E);
		for (unsigned l = 0; m && l < r->S; l++)
			if ((unsigned long)x->lanes[l] + E > r->local_alloc)
				return cb_error_set(err, CB_ERR_USAGE, "measurement %zu needs %lu B of local "
						    "memory; this run allocates %lu B (device offers %lu B; "
						    "see --local-mem)", i - 1,
						    (unsigned long)x->lanes[l] + E, r->local_alloc,
						    r->local_avail);
	}
	return CB_OK;
}

/* The other kernels and their work-group limits, the tables on the device, the result
 * buffer, and the launch length. */
static cb_rc prepare_launches(runner *r, cb_error *err)
{
	cb_rc rc;
	for (size_t i = 0; i < r->nex; i++) {
		int e = r->ex[i].elem;
		if (cb_ocl_built(r->ocl, e))
			continue;
		cb_note(r->o->notify, CB_NOTE_PROGRESS, "building the %u-byte kernel", cb_elem_sizes[e]);
		cb_kernel_limits lim;
		if ((rc = cb_ocl_build(r->ocl, e, err)) != CB_OK ||
		    (rc = cb_ocl_kernel_limits(r->ocl, e, &lim, err)) != CB_OK)
			return rc;
		if (lim.work_group_size && lim.work_group_size < r->wg)
			return cb_error_set(err, CB_ERR_USAGE, "the %u-byte kernel allows work-groups of at "
					    "most %zu work-items (CL_KERNEL_WORK_GROUP_SIZE); this run "
					    "needs %zu", cb_elem_sizes[e], lim.work_group_size, r->wg);
	}
	uint32_t *all = cb_xmalloc(r->nex * r->S * sizeof(uint32_t));
	for (size_t i = 0; i < r->nex; i++)
		memcpy(all + i * r->S, r->ex[i].lanes, r->S * sizeof(uint32_t));
	rc = cb_ocl_set_tables(r->ocl, all, r->nex, r->S, err);
	free(all);
	if (rc == CB_OK)
		rc = cb_ocl_set_work(r->ocl, r->global, r->wg, r->local_alloc, err);
	if (rc != CB_OK)
		return rc;
	/* Launch length: at least 1 ms and 2000 timer ticks (--quick: 0.5 ms and 500), at most
	 * --max-kernel-ms. */
	const cb_run_opts *o = r->o;
	double ticks = o->quick ? 500.0 : 2000.0;
	r->target_ns = fmax(o->quick ? 0.5e6 : 1e6, ticks * (double)r->info->timer_resolution_ns);
	if (r->target_ns > o->max_kernel_ms * 1e6) {
		cb_note(o->notify, CB_NOTE_WARNING, "the timer resolution (%zu ns) asks for %.1f ms "
			"launches; capped at --max-kernel-ms %.1f", r->info->timer_resolution_ns,
			r->target_ns / 1e6, o->max_kernel_ms);
		r->target_ns = o->max_kernel_ms * 1e6;
	}
	return CB_OK;
}

/* The baseline's statistics and drift (its first third of rounds against its last third). */
static void record_baseline(const runner *r, cb_result *res, cb_summary *bs, double *drift)
{
	const cb_experiment *b = &r->ex[0];
	unsigned rounds = r->st.rounds, nbt = 0;
	double *bt = cb_xmalloc((rounds ? rounds : 1) * sizeof *bt);
	for (unsigned k = 0; k < rounds; k++)
		if (b->samples[k])
			bt[nbt++] = (double)b->samples[k] / b->steps;
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
	base->ns_per_access = bs->median;
	base->mad_ns = bs->mad;
	base->samples_ns = copy_samples(b->samples, rounds);
	base->nsamples = rounds;
}

/* Each measurement's time (its median ratio times the baseline's median), samples and
 * statistics; counts for the quality record. */
static void record_measurements(const runner *r, cb_result *res, double base_ns, size_t *outliers,
				size_t *nsamples, size_t *not_converged)
{
	*outliers = *nsamples = *not_converged = 0;
	for (size_t i = 1; i < r->nex; i++) {
		const cb_experiment *x = &r->ex[i];
		cb_measurement *m = &res->ms[x->index];
		cb_summary s;
		cb_summarize(x->ratios, x->n, &s);
		*outliers += s.outliers;
		*nsamples += x->n;
		bool conv = cb_ratio_converged(x, r->o->ci_target);
		*not_converged += !conv;
		long long invalid = 0;
		for (unsigned k = 0; k < r->st.rounds; k++)
			invalid += x->samples[k] == 0;
		m->ns_per_access = s.median * base_ns;
		m->steps = x->steps;
		m->verified = 1;
		m->has_samples = true;
		m->samples_ns = copy_samples(x->samples, r->st.rounds);
		m->nsamples = r->st.rounds;
		m->has_stats = true;
		m->stats = (cb_ratio_stats){ .rounds = x->n, .median = s.median,
			.ci_lo = isfinite(s.ci_lo) ? s.ci_lo : s.min, .ci_hi = isfinite(s.ci_hi) ? s.ci_hi : s.max,
			.mad = s.mad, .outliers = (long long)s.outliers, .invalid = invalid,
			.converged = conv };
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

static void record_quality(const runner *r, cb_result *res, double drift, size_t outliers,
			   size_t nsamples, size_t not_converged)
{
	cb_quality *q = &res->quality;
	double outlier_share = nsamples ? (double)outliers / (double)nsamples : 0;
	q->present = true;
	if (!r->st.converged)
		add_warning(q, "%zu of %zu measurements did not reach a 95%% CI within +/-%.0f%% in %u "
			    "rounds", not_converged, r->nex - 1, 100 * r->o->ci_target, r->st.rounds);
	if (isfinite(drift) && fabs(drift) > 0.05)
		add_warning(q, "the baseline drifted by %+.1f%% from the first to the last third of the "
			    "rounds (clock changes or other load); a quiet system or a longer warm-up "
			    "helps", 100 * drift);
	if (outlier_share > 0.05)
		add_warning(q, "%.1f%% of the samples are outliers (more than 10 robust deviations off)",
			    100 * outlier_share);
	q->converged = r->st.converged;
	q->has_drift = true;
	q->drift = drift;
	q->outlier_share = outlier_share;
	q->invalid_samples = (long long)r->st.invalid_samples;
	q->samples = (long long)r->st.total_samples;
}

static void record_device(const runner *r, cb_result *res)
{
	cb_device_doc *d = &res->device;
	cb_device_info_to_doc(r->info, d);
	d->subgroup_size = r->S;
	if (!r->probed)
		return;
	d->has_probe = true;
	for (unsigned i = 0; i < r->probe.n; i++) {
		d->probe_lanes[d->probe_n] = r->probe.lanes[i];
		d->probe_ratio[d->probe_n++] = isfinite(r->probe.ratio[i]) ? r->probe.ratio[i] : 0.0;
	}
	d->probe_driver_reported = r->driver_subgroup ? (long long)r->driver_subgroup : CB_UNSET;
}

static void record_meta(const runner *r, cb_result *res, const double seconds[4])
{
	const cb_run_opts *o = r->o;
	cb_run_meta *m = &res->run;
	m->present = true;
	m->regime = cb_xstrdup(o->latency ? "latency" : "throughput");
	m->timer = cb_xstrdup(cb_ocl_event_timer(r->ocl) ? "event" : "host");
	m->work_group_size = (long long)r->wg;
	m->global_size = (long long)r->global;
	m->subgroups_per_cu = o->latency ? 1.0 : (double)(r->global / r->S) /
			      (r->info->compute_units ? r->info->compute_units : 1);
	m->local_mem_alloc_bytes = (long long)r->local_alloc;
	m->rounds = r->st.rounds;
	m->min_rounds = o->min_rounds;
	m->max_rounds = o->max_rounds;
	m->ci_target = o->ci_target;
	m->target_launch_ms = r->target_ns / 1e6;
	m->seed = (long long)o->seed;
	m->has_build_options = true;
	for (int e = 0; e < CB_NELEM; e++)
		if (cb_ocl_built(r->ocl, e))
			m->build_options[e] = cb_xstrdup(cb_ocl_build_options(r->ocl, e));
	m->kernels = cb_xstrdup(o->kernel_dir ? o->kernel_dir : "embedded");
	m->clbanks_version = cb_xstrdup(PACKAGE_VERSION);
	m->command_line = o->command_line ? cb_xstrdup(o->command_line) : NULL;
	m->warmup = cb_xstrdup("baseline for 100 ms, then one verified launch per experiment");
	m->has_seconds = true;
	m->seconds_build = seconds[0];
	m->seconds_calibration = seconds[1];
	m->seconds_measurement = seconds[2];
	m->seconds_total = seconds[3];
}

static void record_run(const runner *r, cb_result *res, const double seconds[4])
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

static void release(runner *r)
{
	for (size_t i = 0; r->ex && i < r->nex; i++) {
		free(r->ex[i].ratios);
		free(r->ex[i].samples);
	}
	free(r->ex);
	free(r->baseline_lanes);
	cb_ocl_close(r->ocl);
}

cb_rc cb_measure(const cb_device_ref *ref, cb_device_info *info, const cb_run_opts *o,
		 cb_result *res, cb_error *err)
{
	runner rr = { .ref = ref, .info = info, .o = o }, *r = &rr;
	double t_start = cb_now(), seconds[4] = { 0 }, t;
	cb_result_init(res);
	if (!cb_device_supports_12(info))
		return cb_error_set(err, CB_ERR_RUNTIME, "%s is an OpenCL %u.%u device (platform %u.%u); "
				    "clbanks needs OpenCL 1.2", info->name, info->device_major,
				    info->device_minor, info->platform_major, info->platform_minor);
	if (info->local_mem_type == CL_GLOBAL)
		cb_note(o->notify, CB_NOTE_WARNING, "%s has no dedicated local memory "
			"(CL_DEVICE_LOCAL_MEM_TYPE = CL_GLOBAL): expect 'not banked' or 'inconclusive'",
			info->name);
	cb_rc rc;
	cb_launcher l = { launch_adapter, host_clock, r };
	cb_protocol_opts po = { o->min_rounds, o->max_rounds, o->ci_target, 0, o->seed, o->notify };
	if ((rc = setup(r, err)) != CB_OK || (rc = choose_subgroup(r, err)) != CB_OK ||
	    (rc = load_plan(r, res, err)) != CB_OK || (rc = make_experiments(r, res, err)) != CB_OK ||
	    (rc = prepare_launches(r, err)) != CB_OK)
		goto out;
	po.target_ns = r->target_ns;
	seconds[0] = cb_now() - t_start;
	t = cb_now();
	if ((rc = cb_calibrate(&l, &po, r->ex, r->nex, &r->st, err)) != CB_OK)
		goto out;
	seconds[1] = cb_now() - t;
	t = cb_now();
	if ((rc = cb_measure_rounds(&l, &po, r->ex, r->nex, &r->st, err)) != CB_OK)
		goto out;
	seconds[2] = cb_now() - t;
	seconds[3] = cb_now() - t_start;
	record_run(r, res, seconds);
out:
	release(r);
	if (rc != CB_OK)
		cb_result_free(res);
	return rc;
}
