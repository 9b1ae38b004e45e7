/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "doc/fields.h"
#include "core/result.h"
#include "core/util.h"

#include <math.h>
#include <string.h>

const char *cb_json_type_name(json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a real number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	default:
		return "null";
	}
}

static cb_rc read_one(json_t *v, const char *path, const cb_field *f, char *base, cb_error *err)
{
	switch (f->type) {
	case CB_F_STR:
		if (!json_is_string(v))
			return cb_error_set(err, CB_ERR_INPUT, "%s.%s is %s, expected a string",
					    path, f->key, cb_json_type_name(v));
		*(char **)(base + f->offset) = cb_xstrdup(json_string_value(v));
		return CB_OK;
	case CB_F_INT:
		if (!json_is_integer(v) || (double)json_integer_value(v) < f->min ||
		    (double)json_integer_value(v) > f->max)
			return cb_error_set(err, CB_ERR_INPUT,
					    "%s.%s must be an integer from %.0f to %.0f", path,
					    f->key, f->min, f->max);
		*(long long *)(base + f->offset) = json_integer_value(v);
		return CB_OK;
	case CB_F_REAL_NULL:
		*(bool *)(base + f->present) = true;
		if (json_is_null(v))
			return CB_OK;
		/* fall through */
	case CB_F_REAL:
		if (!json_is_number(v) || !(json_number_value(v) >= f->min) ||
		    !(json_number_value(v) <= f->max))
			return cb_error_set(err, CB_ERR_INPUT,
					    "%s.%s must be a number from %g to %g", path, f->key,
					    f->min, f->max);
		*(double *)(base + f->offset) = json_number_value(v);
		return CB_OK;
	case CB_F_BOOL:
		if (!json_is_boolean(v))
			return cb_error_set(err, CB_ERR_INPUT,
					    "%s.%s is %s, expected true or false", path, f->key,
					    cb_json_type_name(v));
		*(int *)(base + f->offset) = json_is_true(v);
		return CB_OK;
	}
	return CB_OK;
}

cb_rc cb_fields_read(json_t *obj, const char *path, const cb_field *f, size_t n, void *base,
		     cb_error *err)
{
	for (size_t i = 0; i < n; i++) {
		json_t *v = json_object_get(obj, f[i].key);
		if (v && read_one(v, path, &f[i], base, err) != CB_OK)
			return err->rc;
	}
	return CB_OK;
}

void cb_fields_write(json_t *obj, const cb_field *f, size_t n, const void *base)
{
	const char *b = base;
	for (size_t i = 0; i < n; i++) {
		json_t *v = NULL;
		switch (f[i].type) {
		case CB_F_STR: {
			const char *s = *(char *const *)(b + f[i].offset);
			v = s ? json_string(s) : NULL;
			break;
		}
		case CB_F_INT: {
			long long x = *(const long long *)(b + f[i].offset);
			v = x != CB_UNSET ? json_integer(x) : NULL;
			break;
		}
		case CB_F_REAL: {
			double x = *(const double *)(b + f[i].offset);
			v = isfinite(x) ? json_real(x) : NULL;
			break;
		}
		case CB_F_REAL_NULL: {
			double x = *(const double *)(b + f[i].offset);
			if (*(const bool *)(b + f[i].present))
				v = isfinite(x) ? json_real(x) : json_null();
			break;
		}
		case CB_F_BOOL: {
			int x = *(const int *)(b + f[i].offset);
			v = x >= 0 ? json_boolean(x) : NULL;
			break;
		}
		}
		if (v)
			json_object_set_new(obj, f[i].key, v);
	}
}

static bool known(const char *key, const cb_field *f, size_t n, const char *const *other)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(key, f[i].key) == 0)
			return true;
	for (size_t i = 0; other && other[i]; i++)
		if (strcmp(key, other[i]) == 0)
			return true;
	return false;
}

char *cb_extra_collect(json_t *obj, const cb_field *f, size_t n, const char *const *other)
{
	json_t *extra = NULL, *v;
	const char *key;
	json_object_foreach(obj, key, v)
	{
		if (known(key, f, n, other))
			continue;
		if (!extra)
			extra = json_object();
		json_object_set(extra, key, v);
	}
	if (!extra)
		return NULL;
	/* Full precision: the value is written back exactly as it was read. */
	char *text = json_dumps(extra, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	json_decref(extra);
	return text;
}

void cb_extra_merge(json_t *obj, const char *extra)
{
	if (!extra)
		return;
	json_t *x = json_loads(extra, 0, NULL);
	const char *key;
	json_t *v;
	json_object_foreach(x, key, v) if (!json_object_get(obj, key)) json_object_set(obj, key, v);
	json_decref(x);
}
