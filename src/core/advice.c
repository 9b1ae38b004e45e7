/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/advice.h"
#include "core/model.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *cb_elem_c_type(unsigned elem_bytes)
{
	switch (elem_bytes) {
	case 1: return "char";
	case 2: return "short";
	case 4: return "float";
	case 8: return "double";
	default: return "float4";
	}
}

json_t *cb_stride_measurement(json_t *doc, unsigned elem_bytes, unsigned stride)
{
	json_t *ms = json_object_get(doc, "measurements"), *m;
	size_t i;
	json_array_foreach(ms, i, m) {
		const char *kind = json_string_value(json_object_get(m, "kind"));
		if (!kind || strcmp(kind, "stride") != 0)
			continue;
		if ((unsigned)json_integer_value(json_object_get(m, "elem_bytes")) != elem_bytes)
			continue;
		json_t *p = json_object_get(m, "params");
		if ((unsigned)json_integer_value(json_object_get(p, "stride")) == stride &&
		    json_is_number(json_object_get(m, "ns_per_access")))
			return m;
	}
	return NULL;
}

double cb_measured_stride_ratio(json_t *doc, unsigned elem_bytes, unsigned stride)
{
	json_t *a = cb_stride_measurement(doc, elem_bytes, stride);
	json_t *b = cb_stride_measurement(doc, elem_bytes, 1);
	if (!a || !b)
		return NAN;
	return json_number_value(json_object_get(a, "ns_per_access")) /
	       json_number_value(json_object_get(b, "ns_per_access"));
}

static unsigned column_walk_passes(const cb_inference *inf, unsigned subgroup, unsigned elem,
				   unsigned pitch)
{
	uint32_t *lanes = cb_xmalloc(subgroup * sizeof *lanes);
	for (unsigned l = 0; l < subgroup; l++)
		lanes[l] = l * pitch * elem;
	int e = cb_elem_index(elem);
	unsigned p = cb_passes(&inf->best.geom, inf->best.lanes_per_pass[e], elem, lanes, subgroup);
	free(lanes);
	return p;
}

unsigned cb_padding_advice(const cb_inference *inf, json_t *doc, unsigned subgroup, cb_pad_advice *out)
{
	static const unsigned elems[] = { 4, 8, 16 }, tiles[] = { 16, 32, 64 };
	unsigned n = 0;
	if (inf->status != CB_BANKED)
		return 0;
	for (size_t ei = 0; ei < 3; ei++) {
		unsigned E = elems[ei];
		int e = cb_elem_index(E);
		if (!inf->elem_present[e] || !inf->best.lanes_per_pass[e])
			continue;
		unsigned ideal = column_walk_passes(inf, subgroup, E, 1);
		unsigned period = inf->best.geom.banks * inf->best.geom.width / E;
		if (period < 1)
			period = 1;
		for (size_t ti = 0; ti < 3; ti++) {
			cb_pad_advice *a = &out[n++];
			memset(a, 0, sizeof *a);
			a->elem_bytes = E;
			a->tile = tiles[ti];
			a->passes_ideal = ideal;
			a->passes_unpadded = column_walk_passes(inf, subgroup, E, tiles[ti]);
			for (unsigned p = 0; p <= period; p++) {
				unsigned ps = column_walk_passes(inf, subgroup, E, tiles[ti] + p);
				if (ps <= ideal) {
					a->found = true;
					a->pad = p;
					a->passes_padded = ps;
					break;
				}
			}
			a->measured_unpadded = cb_measured_stride_ratio(doc, E, tiles[ti]);
			a->measured_padded = a->found ? cb_measured_stride_ratio(doc, E, tiles[ti] + a->pad) : NAN;
		}
	}
	return n;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *cb_padding_advice_json(const cb_pad_advice *a, unsigned n)
{
	json_t *arr = json_array();
	for (unsigned i = 0; i < n; i++) {
		json_t *o = json_pack("{s:I, s:I, s:b, s:I, s:I}",
			"elem_bytes", (json_int_t)a[i].elem_bytes, "tile", (json_int_t)a[i].tile,
			"found", a[i].found, "passes_unpadded", (json_int_t)a[i].passes_unpadded,
			"passes_ideal", (json_int_t)a[i].passes_ideal);
		json_object_set_new(o, "pad", a[i].found ? json_integer(a[i].pad) : json_null());
		json_object_set_new(o, "measured_unpadded", num_or_null(a[i].measured_unpadded));
		json_object_set_new(o, "measured_padded", num_or_null(a[i].measured_padded));
		if (a[i].found)
			json_object_set_new(o, "declaration", json_sprintf("%s tile[%u][%u+%u]",
				cb_elem_c_type(a[i].elem_bytes), a[i].tile, a[i].tile, a[i].pad));
		json_array_append_new(arr, o);
	}
	return arr;
}
