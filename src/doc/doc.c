/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "doc/doc.h"
#include "core/model.h"
#include "core/util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return false;
}

static const char *type_name(json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a real number";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

bool cb_doc_validate(json_t *doc, bool require_times, char *err, size_t errlen)
{
	if (!json_is_object(doc))
		return fail(err, errlen, "the document is %s, expected an object", type_name(doc));
	json_t *fmt = json_object_get(doc, "format");
	if (!json_is_string(fmt) || strcmp(json_string_value(fmt), CB_FORMAT_NAME) != 0)
		return fail(err, errlen, "not a clbanks result document (\"format\" must be \"%s\")",
			    CB_FORMAT_NAME);
	json_t *ver = json_object_get(doc, "format_version");
	if (!json_is_integer(ver))
		return fail(err, errlen, "\"format_version\" is missing or not an integer");
	if (json_integer_value(ver) != CB_FORMAT_VERSION)
		return fail(err, errlen, "unsupported format_version %" JSON_INTEGER_FORMAT
			    " (this clbanks reads version %d)", json_integer_value(ver),
			    CB_FORMAT_VERSION);
	json_t *dev = json_object_get(doc, "device");
	if (!json_is_object(dev))
		return fail(err, errlen, "\"device\" is missing or not an object");
	json_t *sg = json_object_get(dev, "subgroup_size");
	if (!json_is_integer(sg) || json_integer_value(sg) < 1 ||
	    json_integer_value(sg) > CB_MAX_LANES)
		return fail(err, errlen, "device.subgroup_size must be an integer from 1 to %d",
			    CB_MAX_LANES);
	json_int_t S = json_integer_value(sg);
	json_int_t local_limit = (json_int_t)1 << 30;
	json_t *lm = json_object_get(dev, "local_mem_bytes");
	if (lm) {
		if (!json_is_integer(lm) || json_integer_value(lm) < 1)
			return fail(err, errlen, "device.local_mem_bytes must be a positive integer");
		if (json_integer_value(lm) < local_limit)
			local_limit = json_integer_value(lm);
	}
	json_t *ms = json_object_get(doc, "measurements");
	if (!json_is_array(ms))
		return fail(err, errlen, "\"measurements\" is missing or not an array");
	if (json_array_size(ms) == 0)
		return fail(err, errlen, "\"measurements\" is empty");
	if (json_array_size(ms) > CB_DOC_MAX_MEASUREMENTS)
		return fail(err, errlen, "too many measurements (%zu; at most %d)",
			    json_array_size(ms), CB_DOC_MAX_MEASUREMENTS);
	size_t i;
	json_t *m;
	json_array_foreach(ms, i, m) {
		if (!json_is_object(m))
			return fail(err, errlen, "measurements[%zu] is %s, expected an object", i,
				    type_name(m));
		json_t *op = json_object_get(m, "op");
		if (!json_is_string(op))
			return fail(err, errlen, "measurements[%zu].op is missing or not a string", i);
		if (strcmp(json_string_value(op), "load") != 0)
			return fail(err, errlen, "measurements[%zu].op \"%s\" is not supported (only \"load\")",
				    i, json_string_value(op));
		json_t *eb = json_object_get(m, "elem_bytes");
		if (!json_is_integer(eb) || cb_elem_index((unsigned)json_integer_value(eb)) < 0 ||
		    json_integer_value(eb) > 16)
			return fail(err, errlen, "measurements[%zu].elem_bytes must be 1, 2, 4, 8 or 16", i);
		json_int_t E = json_integer_value(eb);
		json_t *lanes = json_object_get(m, "lanes");
		if (!json_is_array(lanes))
			return fail(err, errlen, "measurements[%zu].lanes is missing or not an array", i);
		if ((json_int_t)json_array_size(lanes) != S)
			return fail(err, errlen, "measurements[%zu].lanes has %zu offsets; expected %"
				    JSON_INTEGER_FORMAT " (device.subgroup_size)", i,
				    json_array_size(lanes), S);
		size_t l;
		json_t *v;
		json_array_foreach(lanes, l, v) {
			if (!json_is_integer(v))
				return fail(err, errlen, "measurements[%zu].lanes[%zu] is %s, expected a "
					    "byte offset", i, l, type_name(v));
			json_int_t off = json_integer_value(v);
			if (off < 0 || off + E > local_limit)
				return fail(err, errlen, "measurements[%zu].lanes[%zu] = %" JSON_INTEGER_FORMAT
					    " lies outside local memory (0..%" JSON_INTEGER_FORMAT ")",
					    i, l, off, local_limit - E);
		}
		json_t *t = json_object_get(m, "ns_per_access");
		if (!t) {
			if (require_times)
				return fail(err, errlen, "measurements[%zu] has no ns_per_access (a plan, "
					    "not a result: run it with 'clbanks run --plan FILE')", i);
			continue;
		}
		if (!json_is_number(t))
			return fail(err, errlen, "measurements[%zu].ns_per_access is %s, expected a number",
				    i, type_name(t));
		double tv = json_number_value(t);
		if (!isfinite(tv) || tv <= 0)
			return fail(err, errlen, "measurements[%zu].ns_per_access = %g is not a positive "
				    "time", i, tv);
		json_t *kind = json_object_get(m, "kind");
		if (kind && !json_is_string(kind))
			return fail(err, errlen, "measurements[%zu].kind is %s, expected a string", i,
				    type_name(kind));
	}
	json_t *inf = json_object_get(doc, "inference");
	if (inf && !json_is_object(inf) && !json_is_null(inf))
		return fail(err, errlen, "\"inference\" is %s, expected an object", type_name(inf));
	return true;
}

json_t *cb_doc_load(const char *path, bool require_times)
{
	json_error_t jerr;
	json_t *doc;
	char err[512];

	if (strcmp(path, "-") == 0) {
		doc = json_loadf(stdin, JSON_REJECT_DUPLICATES, &jerr);
	} else {
		struct stat st;
		if (stat(path, &st) != 0) {
			cb_err("%s: %s", path, strerror(errno));
			return NULL;
		}
		if (S_ISDIR(st.st_mode)) {
			cb_err("%s: is a directory, expected a result document", path);
			return NULL;
		}
		if (st.st_size > CB_DOC_MAX_BYTES) {
			cb_err("%s: too large (%lld bytes; at most %ld)", path, (long long)st.st_size,
			       CB_DOC_MAX_BYTES);
			return NULL;
		}
		doc = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	}
	if (!doc) {
		if (jerr.line > 0)
			cb_err("%s:%d:%d: invalid JSON: %s", path, jerr.line, jerr.column, jerr.text);
		else
			cb_err("%s: invalid JSON: %s", path, jerr.text);
		return NULL;
	}
	if (!cb_doc_validate(doc, require_times, err, sizeof err)) {
		cb_err("%s: %s", path, err);
		json_decref(doc);
		return NULL;
	}
	return doc;
}

void cb_doc_dataset(json_t *doc, cb_dataset *ds)
{
	json_t *dev = json_object_get(doc, "device");
	json_t *ms = json_object_get(doc, "measurements");
	unsigned S = (unsigned)json_integer_value(json_object_get(dev, "subgroup_size"));
	size_t n = json_array_size(ms);

	memset(ds, 0, sizeof *ds);
	ds->subgroup = S;
	ds->obs = cb_xcalloc(n ? n : 1, sizeof *ds->obs);
	json_t *clk = json_object_get(dev, "max_clock_mhz");
	if (json_is_number(clk) && json_number_value(clk) > 0)
		ds->clock_mhz = json_number_value(clk);
	json_t *run = json_object_get(doc, "run");
	json_t *spc = run ? json_object_get(run, "subgroups_per_cu") : NULL;
	if (json_is_number(spc) && json_number_value(spc) > 0)
		ds->subgroups_per_cu = json_number_value(spc);

	size_t i;
	json_t *m;
	json_array_foreach(ms, i, m) {
		json_t *t = json_object_get(m, "ns_per_access");
		if (!t)
			continue;
		cb_obs *o = &ds->obs[ds->n++];
		uint32_t *lanes = cb_xmalloc(S * sizeof *lanes);
		json_t *la = json_object_get(m, "lanes");
		for (unsigned l = 0; l < S; l++)
			lanes[l] = (uint32_t)json_integer_value(json_array_get(la, l));
		o->lanes = lanes;
		o->elem_bytes = (unsigned)json_integer_value(json_object_get(m, "elem_bytes"));
		o->t = json_number_value(t);
		o->index = i;
		const char *kind = json_string_value(json_object_get(m, "kind"));
		o->holdout = kind && strcmp(kind, "random") == 0;
		/* Relative half-width of the 95% CI, when the run recorded one. */
		json_t *st = json_object_get(m, "stats");
		json_t *ci = st ? json_object_get(st, "ratio_ci95") : NULL;
		json_t *med = st ? json_object_get(st, "ratio_median") : NULL;
		if (json_is_array(ci) && json_array_size(ci) == 2 && json_is_number(med) &&
		    json_number_value(med) > 0) {
			double lo = json_number_value(json_array_get(ci, 0));
			double hi = json_number_value(json_array_get(ci, 1));
			double r = (hi - lo) / (2 * json_number_value(med));
			if (isfinite(r) && r > 0)
				o->rel_err = r;
		}
	}
}

void cb_dataset_free(cb_dataset *ds)
{
	for (size_t i = 0; i < ds->n; i++)
		free((void *)ds->obs[i].lanes);
	free(ds->obs);
	memset(ds, 0, sizeof *ds);
}

char *cb_doc_dumps(json_t *doc)
{
	return json_dumps(doc, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_REAL_PRECISION(6));
}
