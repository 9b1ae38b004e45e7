/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "doc/doc.h"
#include "doc/doc_reader.h"
#include "doc/doc_scan.h"
#include "doc/doc_tables.h"
#include "doc/fields.h"
#include "core/readfile.h"
#include "core/util.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The sections of the document (header, device, run, quality, inferences, checks) and the
 * parse that feeds them; the measurements and the baseline are doc_read_ms.c's. */
static cb_rc read_header(cb_doc_reader *rd, json_t *doc, cb_result *r)
{
	if (!json_is_object(doc))
		return cb_doc_fail(rd, "the document is %s, expected an object",
				   cb_json_type_name(doc));
	json_t *fmt = json_object_get(doc, "format");
	if (!json_is_string(fmt) || strcmp(json_string_value(fmt), CB_FORMAT_NAME) != 0)
		return cb_doc_fail(rd, "not a clbanks result document (\"format\" must be \"%s\")",
				   CB_FORMAT_NAME);
	json_t *ver = json_object_get(doc, "format_version");
	if (!json_is_integer(ver))
		return cb_doc_fail(rd, "\"format_version\" is missing or not an integer");
	json_int_t v = json_integer_value(ver);
	if (v < CB_FORMAT_VERSION_MIN || v > CB_FORMAT_VERSION)
		return cb_doc_fail(rd,
				   "unsupported format_version %" JSON_INTEGER_FORMAT
				   " (this clbanks reads version%s %d%s%d)",
				   v, CB_FORMAT_VERSION > CB_FORMAT_VERSION_MIN ? "s" : "",
				   CB_FORMAT_VERSION_MIN,
				   CB_FORMAT_VERSION > CB_FORMAT_VERSION_MIN ? " to " : "",
				   CB_FORMAT_VERSION);
	r->format_version = rd->format_version = (int)v;
	json_t *gen = json_object_get(doc, "generator");
	if (gen) {
		json_t *n = json_object_get(gen, "name"), *vv = json_object_get(gen, "version");
		if (!json_is_object(gen) || (n && !json_is_string(n)) ||
		    (vv && !json_is_string(vv)))
			return cb_doc_fail(
				rd, "\"generator\" must be an object with string name and version");
		r->has_generator = true;
		r->generator_name = n ? cb_xstrdup(json_string_value(n)) : NULL;
		r->generator_version = vv ? cb_xstrdup(json_string_value(vv)) : NULL;
	}
	return CB_OK;
}

static cb_rc read_probe(cb_doc_reader *rd, json_t *p, cb_device_doc *d)
{
	json_t *curve = json_object_get(p, "probe"), *drv = json_object_get(p, "driver_reported");
	if (!json_is_object(p) ||
	    (curve && (!json_is_array(curve) || json_array_size(curve) > CB_MAX_PROBE)) ||
	    (drv && !json_is_integer(drv)))
		return cb_doc_fail(
			rd,
			"device.subgroup_probe must be an object with a probe array of at most "
			"%d points",
			CB_MAX_PROBE);
	d->has_probe = true;
	d->probe_driver_reported = drv ? json_integer_value(drv) : CB_UNSET;
	for (size_t i = 0; i < json_array_size(curve); i++) {
		json_t *pt = json_array_get(curve, i), *l = json_object_get(pt, "lanes");
		json_t *ratio = json_object_get(pt, "ratio");
		if (!json_is_integer(l) || json_integer_value(l) < 1 ||
		    json_integer_value(l) > 65536 || !json_is_number(ratio))
			return cb_doc_fail(rd,
					   "device.subgroup_probe.probe[%zu] needs lanes and ratio",
					   i);
		d->probe_lanes[d->probe_n] = (unsigned)json_integer_value(l);
		d->probe_ratio[d->probe_n++] = json_number_value(ratio);
	}
	return CB_OK;
}

static cb_rc read_device(cb_doc_reader *rd, json_t *dev, cb_device_doc *d)
{
	if (cb_doc_read_object(rd, dev, "device", cb_device_fields, CB_NFIELDS(cb_device_fields),
			       cb_device_other, d, &d->extra) != CB_OK)
		return CB_ERR_INPUT;
	json_t *probe = json_object_get(dev, "subgroup_probe"),
	       *rb = json_object_get(dev, "reported_banks");
	json_t *isz = json_object_get(dev, "intel_subgroup_sizes");
	if (probe && read_probe(rd, probe, d) != CB_OK)
		return CB_ERR_INPUT;
	if (rb) {
		json_t *v = json_object_get(rb, "value"), *src = json_object_get(rb, "source");
		if (!json_is_integer(v) || (src && !json_is_string(src)))
			return cb_doc_fail(
				rd,
				"device.reported_banks must be an object with an integer value");
		d->has_reported_banks = true;
		d->reported_banks = json_integer_value(v);
		d->reported_banks_source = src ? cb_xstrdup(json_string_value(src)) : NULL;
	}
	if (isz) {
		if (!json_is_array(isz) || json_array_size(isz) > 8)
			return cb_doc_fail(
				rd,
				"device.intel_subgroup_sizes must be an array of at most 8 sizes");
		for (size_t i = 0; i < json_array_size(isz); i++) {
			json_t *v = json_array_get(isz, i);
			if (!json_is_integer(v) || json_integer_value(v) < 1 ||
			    json_integer_value(v) > 1024)
				return cb_doc_fail(
					rd,
					"device.intel_subgroup_sizes[%zu] is not a sub-group size",
					i);
			d->intel_subgroup_sizes[d->n_intel_subgroup_sizes++] = (unsigned)
				json_integer_value(v);
		}
	}
	return CB_OK;
}

static cb_rc read_design_batch(cb_doc_reader *rd, json_t *e, size_t i, cb_design_batch *b)
{
	json_t *op = json_object_get(e, "op"), *why = json_object_get(e, "why");
	json_t *ids = json_object_get(e, "ids");
	if (!json_is_object(e) || !json_is_string(op) ||
	    !cb_op_parse(json_string_value(op), &b->op) || (why && !json_is_string(why)) ||
	    !json_is_array(ids))
		return cb_doc_fail(rd, "run.design.batches[%zu] needs an op, a why and ids", i);
	b->why = why ? cb_xstrdup(json_string_value(why)) : NULL;
	b->nids = json_array_size(ids);
	b->ids = cb_xmalloc((b->nids ? b->nids : 1) * sizeof *b->ids);
	for (size_t k = 0; k < b->nids; k++) {
		json_t *v = json_array_get(ids, k);
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return cb_doc_fail(
				rd, "run.design.batches[%zu].ids[%zu] is not a measurement id", i,
				k);
		b->ids[k] = json_integer_value(v);
	}
	return CB_OK;
}

/* run.design (written by the adaptive protocol since 0.3.0). */
static cb_rc read_design(cb_doc_reader *rd, json_t *d, cb_run_meta *m)
{
	json_t *batches = json_object_get(d, "batches"), *stop = json_object_get(d, "stop");
	if (!json_is_object(d) || (batches && !json_is_array(batches)) ||
	    (stop && !json_is_object(stop)))
		return cb_doc_fail(
			rd, "run.design must be an object with a batches array and a stop object");
	size_t n = batches ? json_array_size(batches) : 0;
	m->design = cb_xcalloc(n ? n : 1, sizeof *m->design);
	for (size_t i = 0; i < n; i++) {
		m->ndesign++;
		if (read_design_batch(rd, json_array_get(batches, i), i, &m->design[i]) != CB_OK)
			return CB_ERR_INPUT;
	}
	for (int op = 0; stop && op < CB_NOPS; op++) {
		json_t *v = json_object_get(stop, cb_op_name((cb_op)op));
		if (v && !json_is_string(v))
			return cb_doc_fail(rd, "run.design.stop.%s is not a string",
					   cb_op_name((cb_op)op));
		m->design_stop[op] = v ? cb_xstrdup(json_string_value(v)) : NULL;
	}
	return CB_OK;
}

static cb_rc read_run(cb_doc_reader *rd, json_t *run, cb_run_meta *m)
{
	if (cb_doc_read_object(rd, run, "run", cb_run_fields, CB_NFIELDS(cb_run_fields),
			       cb_run_other, m, &m->extra) != CB_OK)
		return CB_ERR_INPUT;
	m->present = true;
	json_t *bo = json_object_get(run, "build_options"), *sec = json_object_get(run, "seconds");
	json_t *design = json_object_get(run, "design");
	if (design && read_design(rd, design, m) != CB_OK)
		return CB_ERR_INPUT;
	if (bo) {
		if (!json_is_object(bo))
			return cb_doc_fail(rd, "run.build_options is %s, expected an object",
					   cb_json_type_name(bo));
		m->has_build_options = true;
		for (int k = 0; k < CB_NKERNELS; k++) {
			char key[24];
			cb_build_options_key(k, key, sizeof key);
			json_t *v = json_object_get(bo, key);
			if (v && !json_is_string(v))
				return cb_doc_fail(rd,
						   "run.build_options.%s is %s, expected a string",
						   key, cb_json_type_name(v));
			m->build_options[k] = v ? cb_xstrdup(json_string_value(v)) : NULL;
		}
	}
	if (sec) {
		if (!json_is_object(sec))
			return cb_doc_fail(rd, "run.seconds is %s, expected an object",
					   cb_json_type_name(sec));
		m->has_seconds = true;
		if (cb_fields_read(sec, "run.seconds", cb_seconds_fields,
				   CB_NFIELDS(cb_seconds_fields), m, rd->err) != CB_OK)
			return CB_ERR_INPUT;
	}
	return CB_OK;
}

static cb_rc read_quality(cb_doc_reader *rd, json_t *q, cb_quality *m)
{
	if (cb_doc_read_object(rd, q, "quality", cb_quality_fields, CB_NFIELDS(cb_quality_fields),
			       cb_quality_other, m, &m->extra) != CB_OK)
		return CB_ERR_INPUT;
	m->present = true;
	json_t *w = json_object_get(q, "warnings");
	if (!w)
		return CB_OK;
	if (!json_is_array(w))
		return cb_doc_fail(rd, "quality.warnings is %s, expected an array of strings",
				   cb_json_type_name(w));
	m->warnings = cb_xcalloc(json_array_size(w) + 1, sizeof *m->warnings);
	for (size_t i = 0; i < json_array_size(w); i++) {
		json_t *v = json_array_get(w, i);
		if (!json_is_string(v))
			return cb_doc_fail(rd, "quality.warnings[%zu] is %s, expected a string", i,
					   cb_json_type_name(v));
		m->warnings[m->nwarnings++] = cb_xstrdup(json_string_value(v));
	}
	return CB_OK;
}

/* LG[KEY] (lane_groups of a documented model): groups of LANES lanes that together hold each
 * of the SUBGROUP lanes once, into M's order for size E; false when malformed. */
static bool read_lane_groups(json_t *lg, const char *key, unsigned lanes, unsigned subgroup,
			     cb_recorded_model *m, int e)
{
	json_t *groups = json_object_get(lg, key);
	if (!groups)
		return true;
	size_t n = 0;
	if (!json_is_array(groups) || subgroup > CB_MAX_ORDER || lanes == 0)
		return false;
	for (size_t g = 0; g < json_array_size(groups); g++) {
		json_t *grp = json_array_get(groups, g);
		if (!json_is_array(grp) || json_array_size(grp) != lanes)
			return false;
		for (size_t k = 0; k < lanes; k++) {
			json_t *v = json_array_get(grp, k);
			if (!json_is_integer(v) || json_integer_value(v) < 0 ||
			    json_integer_value(v) >= (json_int_t)subgroup || n >= CB_MAX_ORDER)
				return false;
			m->order[e][n++] = (uint8_t)json_integer_value(v);
		}
	}
	if (n != subgroup || !cb_lane_order_valid(m->order[e], (unsigned)n, lanes))
		return false;
	m->norder[e] = (unsigned)n;
	return true;
}

/* The members of a recorded inference whose type or range a reader would otherwise guess at:
 * a "broadcast" of 0 or "no" read as true, a confidence of "0.01" or 2 as sure. */
static cb_rc check_recorded(cb_doc_reader *rd, const char *path, json_t *inf)
{
	static const char *const flags[] = { "broadcast", "pair_packing" };
	json_t *v = json_object_get(inf, "status");
	if (v && !json_is_string(v))
		return cb_doc_fail(rd, "%s.status is %s, expected a string", path,
				   cb_json_type_name(v));
	v = json_object_get(inf, "confidence");
	if (v && !json_is_null(v) && !json_is_number(v))
		return cb_doc_fail(rd, "%s.confidence is %s, expected a number from 0 to 1", path,
				   cb_json_type_name(v));
	if (json_is_number(v) && !(json_number_value(v) >= 0 && json_number_value(v) <= 1))
		return cb_doc_fail(rd, "%s.confidence = %g is outside 0 to 1", path,
				   json_number_value(v));
	for (size_t i = 0; i < sizeof flags / sizeof *flags; i++) {
		v = json_object_get(inf, flags[i]);
		if (v && !json_is_boolean(v) && !json_is_null(v))
			return cb_doc_fail(rd, "%s.%s is %s, expected true, false or null", path,
					   flags[i], cb_json_type_name(v));
	}
	v = json_object_get(inf, "subgroup_size");
	if (v && !json_is_null(v) &&
	    (!json_is_integer(v) || json_integer_value(v) != (json_int_t)rd->subgroup))
		return cb_doc_fail(rd, "%s.subgroup_size is not device.subgroup_size (%u)", path,
				   rd->subgroup);
	return CB_OK;
}

/* The bank model of a recorded inference, for predict. A malformed model is not an error of
 * the document (analysis recomputes it); predict reports the problem. SUBGROUP: the device's
 * (lane_groups cover it). */
static void read_recorded(json_t *inf, unsigned subgroup, cb_recorded_model *m)
{
	const char *status = json_string_value(json_object_get(inf, "status"));
	json_t *conf = json_object_get(inf, "confidence");
	m->status = cb_xstrdup(status ? status : "missing");
	m->confidence = json_is_number(conf) ? json_number_value(conf) : NAN;
	if (!status || strcmp(status, "banked") != 0)
		return;
	json_t *b = json_object_get(inf, "banks"), *w = json_object_get(inf, "bank_width_bytes");
	json_t *lp = json_object_get(inf, "lanes_per_pass"),
	       *bc = json_object_get(inf, "broadcast");
	if (!json_is_integer(b) || json_integer_value(b) < 1 ||
	    json_integer_value(b) > CB_MAX_BANKS || !json_is_integer(w) ||
	    json_integer_value(w) < 1 || json_integer_value(w) > 4096 || !json_is_object(lp)) {
		snprintf(m->problem, sizeof m->problem,
			 "inference: banks, bank_width_bytes or lanes_per_pass missing or invalid");
		return;
	}
	m->geom.banks = (unsigned)json_integer_value(b);
	m->geom.width = (unsigned)json_integer_value(w);
	m->geom.broadcast = !json_is_false(bc); /* unknown broadcast: assume the common case */
	m->broadcast_known = json_is_boolean(bc);
	m->geom.pair_packing = json_is_true(json_object_get(inf, "pair_packing"));
	for (int e = 0; e < CB_NELEM; e++) {
		char key[8];
		snprintf(key, sizeof key, "%u", cb_elems[e].bytes);
		json_t *v = json_object_get(lp, key);
		if (v && (!json_is_integer(v) || json_integer_value(v) < 1 ||
			  json_integer_value(v) > CB_MAX_LANES)) {
			snprintf(m->problem, sizeof m->problem,
				 "inference: lanes_per_pass[\"%s\"] is not a lane count", key);
			return;
		}
		m->lanes_per_pass[e] = v ? (unsigned)json_integer_value(v) : 0;
		if (!read_lane_groups(json_object_get(inf, "lane_groups"), key,
				      m->lanes_per_pass[e], subgroup, m, e)) {
			snprintf(m->problem, sizeof m->problem,
				 "inference: lane_groups[\"%s\"] is not "
				 "a grouping of the %u lanes in groups of lanes_per_pass",
				 key, subgroup);
			return;
		}
		json_t *pe = json_object_get(json_object_get(inf, "per_elem"), key);
		/* Format 3's names, else those of formats 1 and 2 (the same per-step quantities). */
		json_t *t0 = json_object_get(pe, "t0_ns_per_access");
		json_t *c = json_object_get(pe, "pass_ns_per_access");
		if (!t0 && !c) {
			t0 = json_object_get(pe, "t0_ns");
			c = json_object_get(pe, "cost_per_pass_ns");
		}
		if (json_is_number(t0) && json_is_number(c) && json_number_value(t0) >= 0 &&
		    json_number_value(c) > 0 && isfinite(json_number_value(t0)) &&
		    isfinite(json_number_value(c))) {
			m->has_time[e] = true;
			m->t0_ns[e] = json_number_value(t0);
			m->cost_ns[e] = json_number_value(c);
		}
	}
	m->banked = true;
}

/* KEY.by_elem_bytes: a recorded inference per element size ("4": {...}), where no one model
 * described the sizes together. */
static cb_rc read_recorded_sizes(cb_doc_reader *rd, const char *key, json_t *by, cb_result *r,
				 cb_op op)
{
	if (!by)
		return CB_OK;
	if (!json_is_object(by))
		return cb_doc_fail(rd, "%s.by_elem_bytes is %s, expected an object", key,
				   cb_json_type_name(by));
	const char *size;
	json_t *inf;
	json_object_foreach(by, size, inf)
	{
		int e = -1;
		for (int k = 0; k < CB_NELEM; k++) {
			char name[8];
			snprintf(name, sizeof name, "%u", cb_elems[k].bytes);
			if (strcmp(name, size) == 0)
				e = k;
		}
		if (e < 0 || !json_is_object(inf))
			return cb_doc_fail(
				rd,
				"%s.by_elem_bytes[\"%.16s\"] is not an element size's inference",
				key, size);
		char path[96];
		snprintf(path, sizeof path, "%s.by_elem_bytes[\"%s\"]", key, size);
		if (check_recorded(rd, path, inf) != CB_OK)
			return CB_ERR_INPUT;
		r->has_recorded_size[op][e] = true;
		read_recorded(inf, rd->subgroup, &r->recorded_size[op][e]);
	}
	return CB_OK;
}

static cb_rc read_check(cb_doc_reader *rd, json_t *j, size_t i, cb_kernel_check *k)
{
	char path[48];
	snprintf(path, sizeof path, "kernel_checks[%zu]", i);
	if (cb_doc_read_object(rd, j, path, cb_check_fields, CB_NFIELDS(cb_check_fields),
			       cb_check_other, k, &k->extra) != CB_OK)
		return CB_ERR_INPUT;
	if (!k->kernel || !k->variant)
		return cb_doc_fail(rd, "%s needs \"kernel\" and \"variant\"", path);
	if (k->elem_bytes != CB_UNSET && k->elem_bytes != 4 && k->elem_bytes != 8 &&
	    k->elem_bytes != 16)
		return cb_doc_fail(rd,
				   "%s.elem_bytes = %lld is not an element size of the check "
				   "(4, 8 or 16)",
				   path, k->elem_bytes);
	if (k->bits == 0)
		return cb_doc_fail(rd, "%s.bits = 0: a swizzle of 0 bits changes nothing", path);
	json_t *ci = json_object_get(j, "ci95"), *s = json_object_get(j, "samples_ns");
	if (ci &&
	    (!json_is_array(ci) || json_array_size(ci) != 2 ||
	     !json_is_number(json_array_get(ci, 0)) || !json_is_number(json_array_get(ci, 1))))
		return cb_doc_fail(rd, "%s.ci95 must be an array of two numbers", path);
	if (ci) {
		k->ci_lo = json_number_value(json_array_get(ci, 0));
		k->ci_hi = json_number_value(json_array_get(ci, 1));
	}
	if (s && (!json_is_array(s) || json_array_size(s) > 100000))
		return cb_doc_fail(rd, "%s.samples_ns must be an array of at most 100000 times",
				   path);
	k->samples_ns = cb_xcalloc(json_array_size(s) + 1, sizeof *k->samples_ns);
	for (size_t n = 0; n < json_array_size(s); n++) {
		json_t *v = json_array_get(s, n);
		if (!json_is_number(v) || !(json_number_value(v) >= 0))
			return cb_doc_fail(rd, "%s.samples_ns[%zu] is not a time", path, n);
		k->samples_ns[k->nsamples++] = json_number_value(v);
	}
	return CB_OK;
}

static cb_rc read_checks(cb_doc_reader *rd, json_t *a, cb_result *r)
{
	if (!json_is_array(a))
		return cb_doc_fail(rd, "\"kernel_checks\" is %s, expected an array",
				   cb_json_type_name(a));
	for (size_t i = 0; i < json_array_size(a); i++)
		if (read_check(rd, json_array_get(a, i), i, cb_result_add_check(r)) != CB_OK)
			return CB_ERR_INPUT;
	return CB_OK;
}

static const char *const fact_bases[] = { "stated", "inferred", "disputed", "not documented",
					  NULL };

static char *opt_string(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? cb_xstrdup(json_string_value(v)) : NULL;
}

static cb_rc read_fact(cb_doc_reader *rd, json_t *f, size_t i, cb_doc_fact *d)
{
	static const char *const keys[] = { "fact", "basis", "source", "note" };
	for (size_t k = 0; k < 4; k++) {
		json_t *v = json_object_get(f, keys[k]);
		if ((v || k < 3) && !json_is_string(v))
			return cb_doc_fail(rd,
					   "documentation.facts[%zu].%s is %s, expected a string",
					   i, keys[k], v ? cb_json_type_name(v) : "missing");
	}
	d->fact = opt_string(f, "fact");
	d->basis = opt_string(f, "basis");
	d->source = opt_string(f, "source");
	d->note = opt_string(f, "note");
	size_t b = 0;
	while (fact_bases[b] && strcmp(fact_bases[b], d->basis) != 0)
		b++;
	if (!fact_bases[b])
		return cb_doc_fail(rd,
				   "documentation.facts[%zu].basis \"%.40s\" is not stated, "
				   "inferred, disputed or not documented",
				   i, d->basis);
	return CB_OK;
}

/* "provenance" and, for a documented model, its "documentation": a title, a summary and the
 * facts with their sources. Both stay in the document's extra members (written back as they
 * came). */
static cb_rc read_provenance(cb_doc_reader *rd, json_t *doc, cb_result *r)
{
	json_t *p = json_object_get(doc, "provenance"), *d = json_object_get(doc, "documentation");
	if (p && !json_is_string(p))
		return cb_doc_fail(rd, "\"provenance\" is %s, expected a string",
				   cb_json_type_name(p));
	r->provenance = p ? cb_xstrdup(json_string_value(p)) : NULL;
	r->documented = p && strcmp(json_string_value(p), "documented") == 0;
	if (!r->documented)
		return CB_OK;
	json_t *facts = json_object_get(d, "facts");
	if (!json_is_object(d) || !json_is_string(json_object_get(d, "title")) ||
	    !json_is_array(facts) || json_array_size(facts) > 4096)
		return cb_doc_fail(rd,
				   "a documented model needs \"documentation\": an object with a "
				   "title and an array of facts, each with its source");
	r->doc.title = opt_string(d, "title");
	r->doc.summary = opt_string(d, "summary");
	r->doc.facts = cb_xcalloc(json_array_size(facts) + 1, sizeof *r->doc.facts);
	for (size_t i = 0; i < json_array_size(facts); i++) {
		json_t *f = json_array_get(facts, i);
		if (!json_is_object(f))
			return cb_doc_fail(rd, "documentation.facts[%zu] is %s, expected an object",
					   i, cb_json_type_name(f));
		r->doc.nfacts++;
		if (read_fact(rd, f, i, &r->doc.facts[i]) != CB_OK)
			return CB_ERR_INPUT;
	}
	if (!json_is_object(json_object_get(doc, cb_inference_key(CB_OP_LOAD))))
		return cb_doc_fail(rd, "a documented model needs its loads' model (\"%s\")",
				   cb_inference_key(CB_OP_LOAD));
	return CB_OK;
}

static cb_rc read_meta(cb_doc_reader *rd, json_t *doc, cb_result *r)
{
	json_t *v;
	if ((v = json_object_get(doc, "plan")) &&
	    cb_doc_read_object(rd, v, "plan", cb_plan_fields, CB_NFIELDS(cb_plan_fields), NULL,
			       &r->plan, &r->plan.extra) != CB_OK)
		return CB_ERR_INPUT;
	r->plan.present = v != NULL;
	if (read_device(rd, json_object_get(doc, "device"), &r->device) != CB_OK ||
	    ((v = json_object_get(doc, "run")) && read_run(rd, v, &r->run) != CB_OK) ||
	    ((v = json_object_get(doc, "quality")) && read_quality(rd, v, &r->quality) != CB_OK) ||
	    ((v = json_object_get(doc, "baseline")) &&
	     cb_doc_read_baseline(rd, v, &r->baseline) != CB_OK))
		return CB_ERR_INPUT;
	if ((v = json_object_get(doc, "kernel_checks")) && read_checks(rd, v, r) != CB_OK)
		return CB_ERR_INPUT;
	for (int op = 0; op < CB_NOPS; op++) {
		const char *key = cb_inference_key((cb_op)op);
		json_t *inf = json_object_get(doc, key);
		if (inf && !json_is_object(inf) && !json_is_null(inf))
			return cb_doc_fail(rd, "\"%s\" is %s, expected an object", key,
					   cb_json_type_name(inf));
		if (json_is_object(inf) && check_recorded(rd, key, inf) != CB_OK)
			return CB_ERR_INPUT;
		if (json_is_object(inf)) {
			r->has_recorded[op] = true;
			read_recorded(inf, rd->subgroup, &r->recorded[op]);
			if (read_recorded_sizes(rd, key, json_object_get(inf, "by_elem_bytes"), r,
						(cb_op)op) != CB_OK)
				return CB_ERR_INPUT;
		}
	}
	const char *known[CB_NFIELDS(cb_top_keys) + CB_NOPS];
	size_t k = 0;
	for (; cb_top_keys[k]; k++)
		known[k] = cb_top_keys[k];
	for (int op = 0; op < CB_NOPS; op++)
		known[k++] = cb_inference_key((cb_op)op);
	known[k] = NULL;
	r->extra = cb_extra_collect(doc, NULL, 0, known);
	return CB_OK;
}

/* The body of cb_doc_parse after JSON parsing: DOC holds every member but, when SRC is
 * streamed, the measurements. */
static cb_rc convert(cb_doc_reader *rd, json_t *doc, cb_ms_source *src, cb_result *r)
{
	if (read_header(rd, doc, r) != CB_OK)
		return CB_ERR_INPUT;
	json_t *dev = json_object_get(doc, "device");
	if (!json_is_object(dev))
		return cb_doc_fail(rd, "\"device\" is missing or not an object");
	json_t *sg = json_object_get(dev, "subgroup_size");
	if (!json_is_integer(sg) || json_integer_value(sg) < 1 ||
	    json_integer_value(sg) > CB_MAX_LANES)
		return cb_doc_fail(rd, "device.subgroup_size must be an integer from 1 to %d",
				   CB_MAX_LANES);
	rd->subgroup = r->device.subgroup_size = (unsigned)json_integer_value(sg);
	json_t *lm = json_object_get(dev, "local_mem_bytes");
	rd->local_limit = 1LL << 30;
	if (lm) {
		if (!json_is_integer(lm) || json_integer_value(lm) < 1)
			return cb_doc_fail(rd, "device.local_mem_bytes must be a positive integer");
		if (json_integer_value(lm) < rd->local_limit)
			rd->local_limit = json_integer_value(lm);
	}
	if (read_provenance(rd, doc, r) != CB_OK)
		return CB_ERR_INPUT;
	if (!src->streamed) {
		src->array = json_object_get(doc, "measurements");
		if (r->documented && !src->array)
			return read_meta(rd, doc, r);
		if (!json_is_array(src->array))
			return cb_doc_fail(rd, "\"measurements\" is missing or not an array");
	}
	/* A documented model is the vendor's word, never a measurement: it has none. */
	if (r->documented && (src->streamed ? src->n : json_array_size(src->array)) > 0)
		return cb_doc_fail(rd, "a documented model (provenance \"documented\") has no "
				       "measurements");
	if (!r->documented && cb_doc_read_measurements(rd, src, r) != CB_OK)
		return rd->err->rc;
	return read_meta(rd, doc, r);
}

/* jansson's allocations, so that running out of memory is told apart from bad JSON. */
/* jansson's messages in the user's words: its flags (JSON_ALLOW_NUL) are not options of
 * clbanks. */
static void user_words(char *text, size_t size)
{
	static const char *const from = " without JSON_ALLOW_NUL", *const to = " in a string";
	char *p = strstr(text, from);
	if (!p)
		return;
	size_t fl = strlen(from), tl = strlen(to), rest = strlen(p + fl);
	if ((size_t)(p - text) + tl + rest + 1 > size)
		return;
	memmove(p + tl, p + fl, rest + 1);
	memcpy(p, to, tl);
}

static bool json_oom;

static void *json_alloc(size_t n)
{
	void *p = malloc(n);
	if (!p)
		json_oom = true;
	return p;
}

/* Adds the member K: V of the top-level object to DOC, or, for an array of measurements, its
 * elements' spans to SRC. *ODD when a piece is not JSON or a key repeats. */
static cb_rc add_member(cb_doc_reader *rd, json_t *doc, const char *text, cb_span k, cb_span v,
			cb_ms_source *src, bool *odd)
{
	json_error_t jerr;
	bool stopped = false;
	json_t *key = cb_doc_load_span(text + k.at, k.len, JSON_DECODE_ANY, &jerr, rd->err,
				       &stopped);
	if (stopped)
		return CB_ERR_INTERRUPTED;
	const char *name = json_string_value(key);
	bool is_ms = name && strcmp(name, "measurements") == 0;
	cb_rc rc = CB_ERR_INPUT;
	if (!name || json_object_get(doc, name) || (is_ms && src->streamed)) {
		*odd = true; /* jansson names the duplicate key */
	} else if (is_ms && text[v.at] == '[') {
		cb_scan_rc sc = cb_scan_array(text, v, &src->spans, &src->n, rd->err);
		src->streamed = sc == CB_SCAN_OK;
		*odd = sc == CB_SCAN_ODD;
		rc = sc == CB_SCAN_OK    ? CB_OK
		     : sc == CB_SCAN_ODD ? CB_ERR_INPUT
					 : CB_ERR_INTERRUPTED;
	} else {
		json_t *val = cb_doc_load_span(text + v.at, v.len,
					       JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr,
					       rd->err, &stopped);
		*odd = !val && !stopped;
		rc = stopped ? CB_ERR_INTERRUPTED : val ? CB_OK : CB_ERR_INPUT;
		if (val)
			json_object_set_new_nocheck(doc, name, val);
	}
	json_decref(key);
	return rc;
}

/* A document whose top level is an object, parsed a member at a time and its measurements
 * one at a time, so that the whole tree never exists and a stop signal is seen within a
 * piece. *ODD when the text is not such an object or a piece is not JSON: then the caller
 * parses the whole text, and jansson says what is wrong where. */
static cb_rc parse_pieces(cb_doc_reader *rd, const char *text, size_t len, cb_result *r, bool *odd)
{
	cb_span *keys, *vals;
	size_t n;
	cb_scan_rc sc = cb_scan_object(text, len, JSON_PARSER_MAX_DEPTH, &keys, &vals, &n, rd->err);
	if (sc != CB_SCAN_OK) {
		*odd = sc == CB_SCAN_ODD;
		return sc == CB_SCAN_ODD ? CB_ERR_INPUT : CB_ERR_INTERRUPTED;
	}
	json_t *doc = json_object();
	cb_ms_source src = { .text = text };
	cb_rc rc = CB_OK;
	for (size_t i = 0; i < n && rc == CB_OK; i++)
		rc = add_member(rd, doc, text, keys[i], vals[i], &src, odd);
	if (rc == CB_OK) {
		rc = convert(rd, doc, &src, r);
		*odd = src.odd;
	}
	json_decref(doc);
	free(keys);
	free(vals);
	free(src.spans);
	return rc;
}

/* The whole text parsed at once, as jansson reads it (its messages for what is not JSON). */
static cb_rc parse_whole(cb_doc_reader *rd, const char *text, size_t len, cb_result *r)
{
	json_error_t jerr;
	bool stopped = false;
	json_t *doc = cb_doc_load_span(text, len, JSON_REJECT_DUPLICATES, &jerr, rd->err, &stopped);
	if (stopped)
		return CB_ERR_INTERRUPTED;
	if (!doc) {
		if (json_oom)
			return cb_error_set(rd->err, CB_ERR_NOMEM,
					    "out of memory while parsing the document");
		user_words(jerr.text, sizeof jerr.text);
		if (jerr.line > 0)
			return cb_error_set(rd->err, CB_ERR_INPUT, "%d:%d: invalid JSON: %s",
					    jerr.line, jerr.column, jerr.text);
		return cb_error_set(rd->err, CB_ERR_INPUT, "invalid JSON: %s", jerr.text);
	}
	cb_ms_source src = { .array = NULL };
	cb_rc rc = convert(rd, doc, &src, r);
	json_decref(doc);
	return rc;
}

cb_rc cb_doc_parse(const char *text, size_t len, unsigned flags, cb_result *r, cb_error *err)
{
	cb_result_init(r);
	cb_doc_reader rd = { .flags = flags, .err = err };
	cb_error local;
	if (!err)
		rd.err = &local;
	/* A UTF-8 byte order mark, which some editors write, is no part of the JSON text
	 * (RFC 8259, 8.1, lets a parser ignore it). */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3;
		len -= 3;
	}
	json_oom = false;
	json_set_alloc_funcs(json_alloc, free);
	bool odd = flags & CB_DOC_WHOLE;
	cb_rc rc = odd ? CB_ERR_INPUT : parse_pieces(&rd, text, len, r, &odd);
	if (odd) {
		cb_result_free(r);
		cb_result_init(r);
		rc = json_oom ? cb_error_set(rd.err, CB_ERR_NOMEM,
					     "out of memory while parsing the document")
			      : parse_whole(&rd, text, len, r);
	}
	if (rc != CB_OK)
		cb_result_free(r);
	return rc;
}

cb_rc cb_doc_read(const char *path, unsigned flags, cb_result *r, cb_error *err)
{
	char *text;
	size_t len;
	cb_result_init(r);
	cb_rc rc = cb_read_file(path, CB_DOC_MAX_BYTES, CB_READ_TEXT, &text, &len, err);
	if (rc != CB_OK)
		return rc;
	rc = cb_doc_parse(text, len, flags, r, err);
	free(text);
	if (rc == CB_ERR_INPUT && err) {
		/* "FILE: what", or "FILE:LINE:COL: invalid JSON: ..." */
		char prefix[4096];
		snprintf(prefix, sizeof prefix, "%.4000s%s",
			 strcmp(path, "-") == 0 ? "standard input" : path,
			 isdigit((unsigned char)err->text[0]) ? ":" : ": ");
		cb_error_prefix(err, prefix);
	}
	return rc;
}
