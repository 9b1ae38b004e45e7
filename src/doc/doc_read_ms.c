/* SPDX-License-Identifier: MIT */
/* The document reader's measurements and baseline: lane tables, samples, timing, statistics,
 * each checked against what the device and the format allow. */
#include "config.h"
#include "doc/doc.h"
#include "doc/doc_reader.h"
#include "doc/doc_tables.h"
#include "doc/fields.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cb_rc read_lanes(cb_doc_reader *rd, json_t *lanes, const char *path, unsigned elem,
			uint32_t **out)
{
	if (!json_is_array(lanes))
		return cb_doc_fail(rd, "%s is missing or not an array", path);
	if (json_array_size(lanes) != rd->subgroup)
		return cb_doc_fail(rd, "%s has %zu offsets; expected %u (device.subgroup_size)",
				   path, json_array_size(lanes), rd->subgroup);
	uint32_t *l = cb_xmalloc(rd->subgroup * sizeof *l);
	for (unsigned i = 0; i < rd->subgroup; i++) {
		json_t *v = json_array_get(lanes, i);
		if (!json_is_integer(v)) {
			free(l);
			return cb_doc_fail(rd, "%s[%u] is %s, expected a byte offset", path, i,
					   cb_json_type_name(v));
		}
		json_int_t off = json_integer_value(v);
		/* Compared without overflow: offsets up to 2^63 - 1 are valid JSON. */
		if (rd->local_limit < (json_int_t)elem) {
			free(l);
			return cb_doc_fail(
				rd,
				"device.local_mem_bytes (%lld) is smaller than one %u-byte "
				"element of %s",
				(long long)rd->local_limit, elem, path);
		}
		if (off < 0 || off > rd->local_limit - (json_int_t)elem) {
			free(l);
			return cb_doc_fail(rd,
					   "%s[%u] = %" JSON_INTEGER_FORMAT
					   " lies outside local memory (0..%lld)",
					   path, i, off, rd->local_limit - (long long)elem);
		}
		if (off % elem != 0) {
			free(l);
			return cb_doc_fail(rd,
					   "%s[%u] = %" JSON_INTEGER_FORMAT
					   " is not a multiple of the element size (%u bytes)",
					   path, i, off, elem);
		}
		l[i] = (uint32_t)off;
	}
	*out = l;
	return CB_OK;
}

static cb_rc read_samples(cb_doc_reader *rd, json_t *a, const char *path, uint64_t **out,
			  unsigned *n)
{
	if (!json_is_array(a) || json_array_size(a) > 1000000)
		return cb_doc_fail(rd, "%s must be an array of at most 1000000 integers", path);
	*n = (unsigned)json_array_size(a);
	*out = cb_xmalloc((*n ? *n : 1) * sizeof **out);
	for (unsigned i = 0; i < *n; i++) {
		json_t *v = json_array_get(a, i);
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return cb_doc_fail(rd, "%s[%u] is not a non-negative integer (nanoseconds)",
					   path, i);
		(*out)[i] = (uint64_t)json_integer_value(v);
	}
	return CB_OK;
}

static cb_rc read_elem(cb_doc_reader *rd, json_t *eb, const char *path, unsigned *elem)
{
	if (!json_is_integer(eb) || json_integer_value(eb) > 16 ||
	    cb_elem_index((unsigned)json_integer_value(eb)) < 0)
		return cb_doc_fail(rd, "%s must be 1, 2, 4, 8 or 16", path);
	*elem = (unsigned)json_integer_value(eb);
	return CB_OK;
}

/* Format 1 knows loads only; format 2 adds stores and atomics. */
static cb_rc read_op(cb_doc_reader *rd, json_t *op, const char *path, cb_op *out)
{
	if (!json_is_string(op))
		return cb_doc_fail(rd, "%s is missing or not a string", path);
	if (!cb_op_parse(json_string_value(op), out))
		return cb_doc_fail(rd,
				   "%s \"%s\" is not supported (\"load\", \"store\" or \"atomic\")",
				   path, json_string_value(op));
	if (*out != CB_OP_LOAD && rd->format_version < 2)
		return cb_doc_fail(rd, "%s \"%s\" needs format_version 2 (format 1 has loads only)",
				   path, json_string_value(op));
	return CB_OK;
}

static cb_rc read_params(cb_doc_reader *rd, json_t *p, size_t i, cb_measurement *m)
{
	if (!json_is_object(p))
		return cb_doc_fail(rd, "measurements[%zu].params is %s, expected an object", i,
				   cb_json_type_name(p));
	m->has_params = true;
	m->params = cb_xcalloc(json_object_size(p), sizeof *m->params);
	json_t *rest = NULL, *v;
	const char *key;
	json_object_foreach(p, key, v)
	{
		if (json_is_integer(v)) {
			m->params[m->nparams].name = cb_xstrdup(key);
			m->params[m->nparams++].value = json_integer_value(v);
		} else {
			if (!rest)
				rest = json_object();
			json_object_set(rest, key, v);
		}
	}
	if (rest) {
		m->params_extra = json_dumps(rest, JSON_COMPACT | JSON_SORT_KEYS |
							   JSON_REAL_PRECISION(17));
		json_decref(rest);
	}
	return CB_OK;
}

static cb_rc read_stats(cb_doc_reader *rd, json_t *s, size_t i, cb_ratio_stats *st)
{
	json_t *rounds = json_object_get(s, "rounds"), *med = json_object_get(s, "ratio_median");
	json_t *ci = json_object_get(s, "ratio_ci95"), *mad = json_object_get(s, "ratio_mad");
	json_t *out = json_object_get(s, "outliers"), *inv = json_object_get(s, "invalid");
	json_t *conv = json_object_get(s, "converged");
	if (!json_is_object(s) || !json_is_integer(rounds) || json_integer_value(rounds) < 0 ||
	    !json_is_number(med) || !json_is_array(ci) || json_array_size(ci) != 2 ||
	    !json_is_number(json_array_get(ci, 0)) || !json_is_number(json_array_get(ci, 1)) ||
	    !json_is_number(mad) || !json_is_integer(out) || !json_is_integer(inv) ||
	    !json_is_boolean(conv))
		return cb_doc_fail(
			rd,
			"measurements[%zu].stats must have rounds, ratio_median, ratio_ci95 "
			"[low, high], ratio_mad, outliers, invalid and converged",
			i);
	/* Ratios to the baseline time: anything near the double range is no measurement. */
	const json_t *ratio[] = { med, json_array_get(ci, 0), json_array_get(ci, 1), mad };
	for (size_t k = 0; k < sizeof ratio / sizeof ratio[0]; k++)
		if (fabs(json_number_value(ratio[k])) > CB_DOC_MAX_RATIO)
			return cb_doc_fail(
				rd, "measurements[%zu].stats holds a ratio of %g (at most %g)", i,
				json_number_value(ratio[k]), CB_DOC_MAX_RATIO);
	st->rounds = (unsigned)json_integer_value(rounds);
	st->median = json_number_value(med);
	st->ci_lo = json_number_value(json_array_get(ci, 0));
	st->ci_hi = json_number_value(json_array_get(ci, 1));
	st->mad = json_number_value(mad);
	st->outliers = json_integer_value(out);
	st->invalid = json_integer_value(inv);
	st->converged = json_is_true(conv);
	return CB_OK;
}

/* The optional members of a measurement: how it was timed. */
static cb_rc read_timing(cb_doc_reader *rd, json_t *jm, size_t i, cb_measurement *m)
{
	char path[64];
	json_t *steps = json_object_get(jm, "steps"), *ver = json_object_get(jm, "verified");
	json_t *samples = json_object_get(jm, "samples_ns"), *stats = json_object_get(jm, "stats");
	json_t *short_steps = json_object_get(jm, "steps_short");
	json_t *short_samples = json_object_get(jm, "samples_short_ns");
	if (steps) {
		if (!json_is_integer(steps) || json_integer_value(steps) < 0)
			return cb_doc_fail(rd,
					   "measurements[%zu].steps must be a non-negative integer",
					   i);
		m->steps = json_integer_value(steps);
	}
	if (short_steps) {
		if (!json_is_integer(short_steps) || json_integer_value(short_steps) < 0)
			return cb_doc_fail(
				rd, "measurements[%zu].steps_short must be a non-negative integer",
				i);
		m->steps_short = json_integer_value(short_steps);
	}
	if (short_samples) {
		snprintf(path, sizeof path, "measurements[%zu].samples_short_ns", i);
		if (read_samples(rd, short_samples, path, &m->samples_short_ns,
				 &m->nsamples_short) != CB_OK)
			return CB_ERR_INPUT;
	}
	if (ver) {
		if (!json_is_boolean(ver))
			return cb_doc_fail(
				rd, "measurements[%zu].verified is %s, expected true or false", i,
				cb_json_type_name(ver));
		m->verified = json_is_true(ver);
	}
	if (samples) {
		snprintf(path, sizeof path, "measurements[%zu].samples_ns", i);
		m->has_samples = true;
		if (read_samples(rd, samples, path, &m->samples_ns, &m->nsamples) != CB_OK)
			return CB_ERR_INPUT;
	}
	if (stats) {
		m->has_stats = true;
		return read_stats(rd, stats, i, &m->stats);
	}
	return CB_OK;
}

/* A measurement without ns_per_access is a plan's, unless it has samples: then it was run
 * and no round gave a valid time (a short chain that outlasted its long one every time, as
 * PoCL's noise can do); it is kept and left out of the fit. */
static cb_rc read_time(cb_doc_reader *rd, json_t *jm, size_t i, cb_measurement *m)
{
	json_t *t = json_object_get(jm, "ns_per_access");
	if (!t) {
		if ((rd->flags & CB_DOC_REQUIRE_TIMES) && !json_object_get(jm, "samples_ns"))
			return cb_doc_fail(
				rd,
				"measurements[%zu] has no ns_per_access (a plan, not a result: run "
				"it with 'clbanks run --plan FILE')",
				i);
		return CB_OK;
	}
	if (!json_is_number(t))
		return cb_doc_fail(rd, "measurements[%zu].ns_per_access is %s, expected a number",
				   i, cb_json_type_name(t));
	double tv = json_number_value(t);
	if (!isfinite(tv) || tv <= 0)
		return cb_doc_fail(rd,
				   "measurements[%zu].ns_per_access = %g is not a positive time", i,
				   tv);
	if (tv < CB_DOC_MIN_NS || tv > CB_DOC_MAX_NS)
		return cb_doc_fail(
			rd,
			"measurements[%zu].ns_per_access = %g ns is outside what a device "
			"measures (%g to %g ns per step)",
			i, tv, CB_DOC_MIN_NS, CB_DOC_MAX_NS);
	m->ns_per_access = tv;
	return CB_OK;
}

static cb_rc read_measurement(cb_doc_reader *rd, json_t *jm, size_t i, cb_measurement *m)
{
	char path[64];
	if (!json_is_object(jm))
		return cb_doc_fail(rd, "measurements[%zu] is %s, expected an object", i,
				   cb_json_type_name(jm));
	snprintf(path, sizeof path, "measurements[%zu].op", i);
	if (read_op(rd, json_object_get(jm, "op"), path, &m->op) != CB_OK)
		return CB_ERR_INPUT;
	snprintf(path, sizeof path, "measurements[%zu].elem_bytes", i);
	if (read_elem(rd, json_object_get(jm, "elem_bytes"), path, &m->elem_bytes) != CB_OK)
		return CB_ERR_INPUT;
	if (!cb_op_has_elem(m->op, m->elem_bytes))
		return cb_doc_fail(rd,
				   "measurements[%zu]: %s of %u-byte elements is not a measurement "
				   "(atomics: 4 or 8 bytes)",
				   i, cb_op_name(m->op), m->elem_bytes);
	snprintf(path, sizeof path, "measurements[%zu].lanes", i);
	if (read_lanes(rd, json_object_get(jm, "lanes"), path, m->elem_bytes, &m->lanes) != CB_OK ||
	    read_time(rd, jm, i, m) != CB_OK)
		return CB_ERR_INPUT;
	json_t *kind = json_object_get(jm, "kind"), *id = json_object_get(jm, "id");
	json_t *params = json_object_get(jm, "params");
	if (kind && !json_is_string(kind))
		return cb_doc_fail(rd, "measurements[%zu].kind is %s, expected a string", i,
				   cb_json_type_name(kind));
	if (id && !json_is_integer(id))
		return cb_doc_fail(rd, "measurements[%zu].id is %s, expected an integer", i,
				   cb_json_type_name(id));
	m->kind = kind ? cb_xstrdup(json_string_value(kind)) : NULL;
	m->id = id ? json_integer_value(id) : CB_UNSET;
	if (params && read_params(rd, params, i, m) != CB_OK)
		return CB_ERR_INPUT;
	if (read_timing(rd, jm, i, m) != CB_OK)
		return CB_ERR_INPUT;
	m->extra = cb_extra_collect(jm, NULL, 0, cb_measurement_keys);
	return CB_OK;
}

cb_rc cb_doc_read_measurements(cb_doc_reader *rd, cb_ms_source *src, cb_result *r)
{
	size_t n = src->streamed ? src->n : json_array_size(src->array);
	if (n == 0)
		return cb_doc_fail(rd, "\"measurements\" is empty");
	if (n > CB_DOC_MAX_MEASUREMENTS)
		return cb_doc_fail(rd, "too many measurements (%zu; at most %d)", n,
				   CB_DOC_MAX_MEASUREMENTS);
	r->ms = cb_xcalloc(n, sizeof *r->ms);
	for (size_t i = 0; i < n; i++) {
		if (i % 64 == 0 && cb_check_interrupt(rd->err) != CB_OK)
			return CB_ERR_INTERRUPTED;
		json_t *jm = src->streamed ? NULL : json_incref(json_array_get(src->array, i));
		if (src->streamed) {
			json_error_t jerr;
			bool stopped = false;
			jm = cb_doc_load_span(src->text + src->spans[i].at, src->spans[i].len,
					      JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr,
					      rd->err, &stopped);
			if (stopped)
				return CB_ERR_INTERRUPTED;
			if (!jm) {
				src->odd = true;
				return CB_ERR_INPUT;
			}
		}
		cb_measurement *m = &r->ms[r->nms++];
		cb_measurement_init(m);
		cb_rc rc = read_measurement(rd, jm, i, m);
		json_decref(jm);
		if (rc != CB_OK)
			return rd->err->rc;
	}
	return CB_OK;
}

cb_rc cb_doc_read_baseline(cb_doc_reader *rd, json_t *b, cb_baseline *m)
{
	if (cb_doc_read_object(rd, b, "baseline", cb_baseline_fields,
			       CB_NFIELDS(cb_baseline_fields), cb_baseline_other, m,
			       &m->extra) != CB_OK ||
	    read_op(rd, json_object_get(b, "op"), "baseline.op", &m->op) != CB_OK ||
	    (m->op != CB_OP_LOAD && cb_doc_fail(rd, "baseline.op must be \"load\"") != CB_OK) ||
	    read_elem(rd, json_object_get(b, "elem_bytes"), "baseline.elem_bytes",
		      &m->elem_bytes) != CB_OK ||
	    read_lanes(rd, json_object_get(b, "lanes"), "baseline.lanes", m->elem_bytes,
		       &m->lanes) != CB_OK)
		return CB_ERR_INPUT;
	m->present = true;
	json_t *s = json_object_get(b, "samples_ns"), *ss = json_object_get(b, "samples_short_ns");
	if (s && read_samples(rd, s, "baseline.samples_ns", &m->samples_ns, &m->nsamples) != CB_OK)
		return CB_ERR_INPUT;
	if (ss && read_samples(rd, ss, "baseline.samples_short_ns", &m->samples_short_ns,
			       &m->nsamples_short) != CB_OK)
		return CB_ERR_INPUT;
	return CB_OK;
}
