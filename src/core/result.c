/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/result.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cb_measurement_init(cb_measurement *m)
{
	memset(m, 0, sizeof *m);
	m->id = CB_UNSET;
	m->steps = m->steps_short = CB_UNSET;
	m->verified = -1;
	m->ns_per_access = NAN;
}

void cb_measurement_free(cb_measurement *m)
{
	free(m->kind);
	for (unsigned i = 0; i < m->nparams; i++)
		free(m->params[i].name);
	free(m->params);
	free(m->params_extra);
	free(m->lanes);
	free(m->samples_ns);
	free(m->samples_short_ns);
	free(m->extra);
	cb_measurement_init(m);
}

static char *dup_or_null(const char *s)
{
	return s ? cb_xstrdup(s) : NULL;
}

static void *dup_mem(const void *p, size_t n)
{
	if (!p)
		return NULL;
	void *q = cb_xmalloc(n ? n : 1);
	memcpy(q, p, n);
	return q;
}

void cb_measurement_copy(cb_measurement *dst, const cb_measurement *src, unsigned subgroup)
{
	*dst = *src;
	dst->kind = dup_or_null(src->kind);
	dst->params = dup_mem(src->params, src->nparams * sizeof *src->params);
	for (unsigned i = 0; i < src->nparams; i++)
		dst->params[i].name = cb_xstrdup(src->params[i].name);
	dst->params_extra = dup_or_null(src->params_extra);
	dst->lanes = dup_mem(src->lanes, subgroup * sizeof *src->lanes);
	dst->samples_ns = dup_mem(src->samples_ns, src->nsamples * sizeof *src->samples_ns);
	dst->samples_short_ns = dup_mem(src->samples_short_ns,
					src->nsamples_short * sizeof *src->samples_short_ns);
	dst->extra = dup_or_null(src->extra);
}

static void device_init(cb_device_doc *d)
{
	memset(d, 0, sizeof *d);
	d->compute_units = d->max_clock_mhz = d->local_mem_bytes = CB_UNSET;
	d->timer_resolution_ns = d->max_work_group_size = CB_UNSET;
	d->probe_driver_reported = d->reported_banks = CB_UNSET;
	d->slm_units = CB_UNSET;
	d->local_mem_per_cu_bytes = CB_UNSET;
}

static void device_free(cb_device_doc *d)
{
	char **strings[] = { &d->platform,
			     &d->platform_vendor,
			     &d->platform_version,
			     &d->name,
			     &d->vendor,
			     &d->driver_version,
			     &d->device_version,
			     &d->opencl_c_version,
			     &d->type,
			     &d->local_mem_type,
			     &d->subgroup_source,
			     &d->reported_banks_source,
			     &d->compute_capability,
			     &d->gfxip,
			     &d->slm_unit,
			     &d->extra };
	for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
		free(*strings[i]);
	device_init(d);
}

static void run_init(cb_run_meta *r)
{
	memset(r, 0, sizeof *r);
	r->work_group_size = r->global_size = r->local_mem_alloc_bytes = CB_UNSET;
	r->rounds = r->min_rounds = r->max_rounds = r->seed = CB_UNSET;
	r->subgroups_per_cu = r->ci_target = r->target_launch_ms = NAN;
	r->seconds_build = r->seconds_calibration = r->seconds_measurement = NAN;
	r->seconds_total = r->seconds_analysis = r->seconds_check = NAN;
	r->timer_granularity_ns = r->chain_cap = r->shortened = r->work_groups_per_cu = CB_UNSET;
	r->resident_work_groups_per_cu = CB_UNSET;
	r->launch_noise = NAN;
	r->launches = r->lengthened = CB_UNSET;
	r->device_seconds = NAN;
}

void cb_design_log_free(cb_design_batch *log, size_t n, char *stop[CB_NOPS])
{
	for (size_t i = 0; i < n; i++) {
		free(log[i].why);
		free(log[i].ids);
	}
	free(log);
	for (int op = 0; op < CB_NOPS; op++)
		free(stop[op]);
}

static void run_free(cb_run_meta *r)
{
	char **strings[] = { &r->host_id,      &r->host_name,    &r->regime,
			     &r->timer,        &r->kernels,      &r->clbanks_version,
			     &r->command_line, &r->warmup,       &r->timer_reason,
			     &r->stop,         &r->timing,       &r->extra,
			     &r->protocol,     &r->check_skipped };
	for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
		free(*strings[i]);
	for (int k = 0; k < CB_NKERNELS; k++)
		free(r->build_options[k]);
	cb_design_log_free(r->design, r->ndesign, r->design_stop);
	run_init(r);
}

static void quality_init(cb_quality *q)
{
	memset(q, 0, sizeof *q);
	q->converged = -1;
	q->drift = q->outlier_share = NAN;
	q->invalid_samples = q->samples = CB_UNSET;
}

static void quality_free(cb_quality *q)
{
	for (unsigned i = 0; i < q->nwarnings; i++)
		free(q->warnings[i]);
	free(q->warnings);
	free(q->extra);
	quality_init(q);
}

static void baseline_init(cb_baseline *b)
{
	memset(b, 0, sizeof *b);
	b->steps = b->steps_short = CB_UNSET;
	b->ns_per_access = b->mad_ns = NAN;
}

static void baseline_free(cb_baseline *b)
{
	free(b->lanes);
	free(b->samples_ns);
	free(b->samples_short_ns);
	free(b->extra);
	baseline_init(b);
}

void cb_result_init(cb_result *r)
{
	memset(r, 0, sizeof *r);
	r->format_version = 1;
	r->plan.seed = r->plan.subgroup_size = r->plan.local_mem_budget = CB_UNSET;
	r->plan.quick = -1;
	device_init(&r->device);
	run_init(&r->run);
	quality_init(&r->quality);
	baseline_init(&r->baseline);
}

void cb_result_free(cb_result *r)
{
	free(r->generator_name);
	free(r->generator_version);
	free(r->plan.extra);
	free(r->plan.ops);
	device_free(&r->device);
	run_free(&r->run);
	quality_free(&r->quality);
	baseline_free(&r->baseline);
	for (size_t i = 0; i < r->nms; i++)
		cb_measurement_free(&r->ms[i]);
	free(r->ms);
	for (int op = 0; op < CB_NOPS; op++) {
		free(r->recorded[op].status);
		for (int e = 0; e < CB_NELEM; e++)
			free(r->recorded_size[op][e].status);
	}
	for (size_t i = 0; i < r->nchecks; i++)
		cb_kernel_check_free(&r->checks[i]);
	free(r->checks);
	free(r->extra);
	free(r->provenance);
	free(r->doc.title);
	free(r->doc.summary);
	for (size_t i = 0; i < r->doc.nfacts; i++) {
		free(r->doc.facts[i].fact);
		free(r->doc.facts[i].basis);
		free(r->doc.facts[i].source);
		free(r->doc.facts[i].note);
	}
	free(r->doc.facts);
	for (size_t i = 0; i < r->match.n; i++) {
		free(r->match.v[i].name);
		free(r->match.v[i].title);
	}
	cb_pass_memo_free(r->pass_memo);
	cb_result_init(r);
}

void cb_kernel_check_init(cb_kernel_check *k)
{
	memset(k, 0, sizeof *k);
	k->elem_bytes = k->tile = k->rows = k->pad = k->bits = k->shift = CB_UNSET;
	k->matrix = k->launches = CB_UNSET;
	k->ns_per_launch = k->ci_lo = k->ci_hi = NAN;
	k->verified = -1;
}

cb_kernel_check *cb_result_add_check(cb_result *r)
{
	r->checks = cb_xrealloc(r->checks, (r->nchecks + 1) * sizeof *r->checks);
	cb_kernel_check *k = &r->checks[r->nchecks++];
	cb_kernel_check_init(k);
	return k;
}

void cb_kernel_check_free(cb_kernel_check *k)
{
	free(k->kernel);
	free(k->variant);
	free(k->samples_ns);
	free(k->extra);
	memset(k, 0, sizeof *k);
}

cb_measurement *cb_result_add(cb_result *r)
{
	/* Grow by doubling; the capacity is the next power of two of nms. */
	size_t n = r->nms;
	if ((n & (n - 1)) == 0)
		r->ms = cb_xrealloc(r->ms, (n ? 2 * n : 1) * sizeof *r->ms);
	cb_measurement *m = &r->ms[r->nms++];
	cb_measurement_init(m);
	return m;
}

bool cb_param_get(const cb_measurement *m, const char *name, long long *value)
{
	for (unsigned i = 0; i < m->nparams; i++)
		if (strcmp(m->params[i].name, name) == 0) {
			*value = m->params[i].value;
			return true;
		}
	return false;
}

bool cb_kind_is(const cb_measurement *m, const char *kind)
{
	return m->kind && strcmp(m->kind, kind) == 0;
}

const cb_measurement *cb_find_stride(const cb_result *r, cb_op op, unsigned elem_bytes,
				     unsigned stride)
{
	for (size_t i = 0; i < r->nms; i++) {
		const cb_measurement *m = &r->ms[i];
		long long s;
		if (m->op == op && m->elem_bytes == elem_bytes && cb_kind_is(m, "stride") &&
		    cb_param_get(m, "stride", &s) && s == (long long)stride &&
		    isfinite(m->ns_per_access))
			return m;
	}
	return NULL;
}

double cb_stride_ratio(const cb_result *r, cb_op op, unsigned elem_bytes, unsigned stride)
{
	const cb_measurement *a = cb_find_stride(r, op, elem_bytes, stride);
	const cb_measurement *b = cb_find_stride(r, op, elem_bytes, 1);
	if (!a || !b)
		return NAN;
	return a->ns_per_access / b->ns_per_access;
}

double cb_table_ratio(const cb_result *r, cb_op op, unsigned elem_bytes, const uint32_t *lanes)
{
	const cb_measurement *b = cb_find_stride(r, op, elem_bytes, 1);
	if (!b)
		return NAN;
	for (size_t i = 0; i < r->nms; i++) {
		const cb_measurement *m = &r->ms[i];
		if (m->op == op && m->elem_bytes == elem_bytes && isfinite(m->ns_per_access) &&
		    memcmp(m->lanes, lanes, r->device.subgroup_size * sizeof *lanes) == 0)
			return m->ns_per_access / b->ns_per_access;
	}
	return NAN;
}

void cb_stride_lanes(uint32_t *lanes, unsigned n, unsigned elem_bytes, unsigned stride)
{
	for (unsigned l = 0; l < n; l++)
		lanes[l] = l * stride * elem_bytes;
}

const cb_doc_fact *cb_doc_fact_find(const cb_result *r, const char *fact)
{
	for (size_t i = 0; i < r->doc.nfacts; i++)
		if (r->doc.facts[i].fact && strcmp(r->doc.facts[i].fact, fact) == 0)
			return &r->doc.facts[i];
	return NULL;
}

const char *cb_doc_fact_note(const cb_result *r, cb_op op, unsigned elem_bytes)
{
	char key[64];
	if (elem_bytes)
		snprintf(key, sizeof key, "%s.lanes_per_pass.%u", cb_op_name(op), elem_bytes);
	else
		snprintf(key, sizeof key, "%s", cb_op_name(op));
	const cb_doc_fact *f = cb_doc_fact_find(r, key);
	return f ? f->note : NULL;
}

const char *cb_model_label(const cb_result *r, char *buf, size_t size)
{
	const char *name = r->documented && r->doc.title ? r->doc.title
			   : r->device.name              ? r->device.name
							 : "-";
	snprintf(buf, size, "%s%s", name, r->documented ? " (documented, not measured)" : "");
	return buf;
}
