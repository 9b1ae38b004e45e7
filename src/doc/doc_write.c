/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "doc/doc.h"
#include "doc/doc_json.h"
#include "doc/doc_tables.h"
#include "doc/fields.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *lanes_json(const uint32_t *lanes, unsigned n)
{
	json_t *a = json_array();
	for (unsigned l = 0; l < n; l++)
		json_array_append_new(a, json_integer(lanes[l]));
	return a;
}

static json_t *samples_json(const uint64_t *s, unsigned n)
{
	json_t *a = json_array();
	for (unsigned i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)s[i]));
	return a;
}

static json_t *stats_json(const cb_ratio_stats *s)
{
	return json_pack("{s:I, s:f, s:[f, f], s:f, s:I, s:I, s:b}", "rounds",
			 (json_int_t)s->rounds, "ratio_median", s->median, "ratio_ci95", s->ci_lo,
			 s->ci_hi, "ratio_mad", s->mad, "outliers", (json_int_t)s->outliers,
			 "invalid", (json_int_t)s->invalid, "converged", s->converged);
}

static json_t *params_json(const cb_measurement *m)
{
	json_t *p = json_object();
	for (unsigned i = 0; i < m->nparams; i++)
		json_object_set_new(p, m->params[i].name, json_integer(m->params[i].value));
	cb_extra_merge(p, m->params_extra);
	return p;
}

static json_t *measurement_json(const cb_measurement *m, unsigned subgroup)
{
	json_t *o = json_object();
	if (m->id != CB_UNSET)
		json_object_set_new(o, "id", json_integer(m->id));
	if (m->kind)
		json_object_set_new(o, "kind", json_string(m->kind));
	json_object_set_new(o, "op", json_string(cb_op_name(m->op)));
	json_object_set_new(o, "elem_bytes", json_integer(m->elem_bytes));
	if (m->has_params)
		json_object_set_new(o, "params", params_json(m));
	json_object_set_new(o, "lanes", lanes_json(m->lanes, subgroup));
	if (isfinite(m->ns_per_access))
		json_object_set_new(o, "ns_per_access", json_real(m->ns_per_access));
	if (m->steps != CB_UNSET)
		json_object_set_new(o, "steps", json_integer(m->steps));
	if (m->steps_short != CB_UNSET)
		json_object_set_new(o, "steps_short", json_integer(m->steps_short));
	if (m->samples_short_ns)
		json_object_set_new(o, "samples_short_ns",
				    samples_json(m->samples_short_ns, m->nsamples_short));
	if (m->verified >= 0)
		json_object_set_new(o, "verified", json_boolean(m->verified));
	if (m->has_samples)
		json_object_set_new(o, "samples_ns", samples_json(m->samples_ns, m->nsamples));
	if (m->has_stats)
		json_object_set_new(o, "stats", stats_json(&m->stats));
	cb_extra_merge(o, m->extra);
	return o;
}

static json_t *device_json(const cb_device_doc *d)
{
	json_t *o = json_object();
	cb_fields_write(o, cb_device_fields, CB_NFIELDS(cb_device_fields), d);
	json_object_set_new(o, "subgroup_size", json_integer(d->subgroup_size));
	if (d->has_probe) {
		json_t *p = json_object(), *curve = json_array();
		for (unsigned i = 0; i < d->probe_n; i++)
			json_array_append_new(curve, json_pack("{s:I, s:f}", "lanes",
							       (json_int_t)d->probe_lanes[i],
							       "ratio", d->probe_ratio[i]));
		json_object_set_new(p, "probe", curve);
		if (d->probe_driver_reported != CB_UNSET)
			json_object_set_new(p, "driver_reported",
					    json_integer(d->probe_driver_reported));
		json_object_set_new(o, "subgroup_probe", p);
	}
	if (d->has_reported_banks) {
		json_t *rb = json_pack("{s:I}", "value", (json_int_t)d->reported_banks);
		if (d->reported_banks_source)
			json_object_set_new(rb, "source", json_string(d->reported_banks_source));
		json_object_set_new(o, "reported_banks", rb);
	}
	if (d->n_intel_subgroup_sizes) {
		json_t *a = json_array();
		for (unsigned i = 0; i < d->n_intel_subgroup_sizes; i++)
			json_array_append_new(a, json_integer(d->intel_subgroup_sizes[i]));
		json_object_set_new(o, "intel_subgroup_sizes", a);
	}
	cb_extra_merge(o, d->extra);
	return o;
}

/* run.design: the adaptive design's batches in order, and why it stopped for each op. */
static json_t *design_json(const cb_run_meta *m)
{
	json_t *o = json_object(), *batches = json_array(), *stop = json_object();
	for (size_t i = 0; i < m->ndesign; i++) {
		const cb_design_batch *b = &m->design[i];
		json_t *e = json_object(), *ids = json_array();
		json_object_set_new(e, "op", json_string(cb_op_name(b->op)));
		json_object_set_new(e, "why", json_string(b->why ? b->why : ""));
		for (size_t k = 0; k < b->nids; k++)
			json_array_append_new(ids, json_integer(b->ids[k]));
		json_object_set_new(e, "ids", ids);
		json_array_append_new(batches, e);
	}
	for (int op = 0; op < CB_NOPS; op++)
		if (m->design_stop[op])
			json_object_set_new(stop, cb_op_name((cb_op)op),
					    json_string(m->design_stop[op]));
	json_object_set_new(o, "batches", batches);
	json_object_set_new(o, "stop", stop);
	return o;
}

static json_t *run_json(const cb_run_meta *m)
{
	json_t *o = json_object();
	cb_fields_write(o, cb_run_fields, CB_NFIELDS(cb_run_fields), m);
	if (m->has_build_options) {
		json_t *bo = json_object();
		for (int k = 0; k < CB_NKERNELS; k++)
			if (m->build_options[k]) {
				char key[24];
				cb_build_options_key(k, key, sizeof key);
				json_object_set_new(bo, key, json_string(m->build_options[k]));
			}
		json_object_set_new(o, "build_options", bo);
	}
	if (m->has_seconds) {
		json_t *s = json_object();
		cb_fields_write(s, cb_seconds_fields, CB_NFIELDS(cb_seconds_fields), m);
		json_object_set_new(o, "seconds", s);
	}
	if (m->ndesign)
		json_object_set_new(o, "design", design_json(m));
	cb_extra_merge(o, m->extra);
	return o;
}

static json_t *quality_json(const cb_quality *q)
{
	json_t *o = json_object(), *w = json_array();
	cb_fields_write(o, cb_quality_fields, CB_NFIELDS(cb_quality_fields), q);
	for (unsigned i = 0; i < q->nwarnings; i++)
		json_array_append_new(w, json_string(q->warnings[i]));
	json_object_set_new(o, "warnings", w);
	cb_extra_merge(o, q->extra);
	return o;
}

static json_t *baseline_json(const cb_baseline *b, unsigned subgroup)
{
	json_t *o = json_object();
	json_object_set_new(o, "op", json_string(cb_op_name(b->op)));
	json_object_set_new(o, "elem_bytes", json_integer(b->elem_bytes));
	json_object_set_new(o, "lanes", lanes_json(b->lanes, subgroup));
	cb_fields_write(o, cb_baseline_fields, CB_NFIELDS(cb_baseline_fields), b);
	if (b->samples_ns)
		json_object_set_new(o, "samples_ns", samples_json(b->samples_ns, b->nsamples));
	if (b->samples_short_ns)
		json_object_set_new(o, "samples_short_ns",
				    samples_json(b->samples_short_ns, b->nsamples_short));
	cb_extra_merge(o, b->extra);
	return o;
}

static void add_meta(json_t *doc, const cb_result *r)
{
	if (r->has_generator) {
		json_t *g = json_object();
		if (r->generator_name)
			json_object_set_new(g, "name", json_string(r->generator_name));
		if (r->generator_version)
			json_object_set_new(g, "version", json_string(r->generator_version));
		json_object_set_new(doc, "generator", g);
	}
	if (r->plan.present) {
		json_t *p = json_object();
		cb_fields_write(p, cb_plan_fields, CB_NFIELDS(cb_plan_fields), &r->plan);
		cb_extra_merge(p, r->plan.extra);
		json_object_set_new(doc, "plan", p);
	}
	json_object_set_new(doc, "device", device_json(&r->device));
	if (r->run.present)
		json_object_set_new(doc, "run", run_json(&r->run));
	if (r->quality.present)
		json_object_set_new(doc, "quality", quality_json(&r->quality));
	if (r->baseline.present)
		json_object_set_new(doc, "baseline",
				    baseline_json(&r->baseline, r->device.subgroup_size));
}

static json_t *check_json(const cb_kernel_check *k)
{
	json_t *o = json_object();
	cb_fields_write(o, cb_check_fields, CB_NFIELDS(cb_check_fields), k);
	if (isfinite(k->ci_lo) && isfinite(k->ci_hi))
		json_object_set_new(o, "ci95", json_pack("[ff]", k->ci_lo, k->ci_hi));
	json_t *s = json_array();
	for (unsigned i = 0; i < k->nsamples; i++)
		json_array_append_new(s, json_real(k->samples_ns[i]));
	json_object_set_new(o, "samples_ns", s);
	cb_extra_merge(o, k->extra);
	return o;
}

static json_t *advice_json(const cb_result *r)
{
	json_t *a = json_object();
	if (r->npad)
		json_object_set_new(a, "padding", cb_padding_json(r->pad, r->npad));
	if (r->nswizzle)
		json_object_set_new(a, "swizzle", cb_swizzle_json(r->swizzle, r->nswizzle));
	cb_set_nonempty(a, "transpose", cb_transpose_json(r));
	return a;
}

/* The documented models the measurement agrees with on every fact compared, best first, and
 * how many were looked at: {"checked": 9, "agree": [{"model", "title", "facts",
 * "names_device"}]}. */
static json_t *documented_json(const cb_result *r)
{
	json_t *v = json_array();
	for (size_t i = 0; i < r->match.n; i++)
		json_array_append_new(v, json_pack("{s:s, s:s, s:I, s:b}", "model",
						   r->match.v[i].name, "title", r->match.v[i].title,
						   "facts", (json_int_t)r->match.v[i].agree,
						   "names_device", r->match.v[i].names_device));
	return json_pack("{s:I, s:o}", "checked", (json_int_t)r->match.models, "agree", v);
}

char *cb_doc_write(const cb_result *r)
{
	json_t *doc = json_pack("{s:s, s:i}", "format", CB_FORMAT_NAME, "format_version",
				CB_FORMAT_VERSION);
	add_meta(doc, r);
	json_t *ms = json_array();
	for (size_t i = 0; i < r->nms; i++)
		json_array_append_new(ms, measurement_json(&r->ms[i], r->device.subgroup_size));
	json_object_set_new(doc, "measurements", ms);
	if (r->analyzed) {
		cb_add_op_inferences(doc, r);
		cb_set_nonempty(doc, "advice", advice_json(r));
		if (r->match.checked)
			json_object_set_new(doc, "documented_models", documented_json(r));
	}
	if (r->nchecks) {
		json_t *ks = json_array();
		for (size_t i = 0; i < r->nchecks; i++)
			json_array_append_new(ks, check_json(&r->checks[i]));
		json_object_set_new(doc, "kernel_checks", ks);
	}
	cb_extra_merge(doc, r->extra);
	return cb_json_text(doc, 1);
}
