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

unsigned cb_column_walk_passes(const cb_inference *inf, unsigned subgroup, unsigned elem_bytes,
			       unsigned pitch)
{
	uint32_t *lanes = cb_xmalloc(subgroup * sizeof *lanes);
	cb_stride_lanes(lanes, subgroup, elem_bytes, pitch);
	int e = cb_elem_index(elem_bytes);
	unsigned p = cb_passes(&inf->best.geom, inf->best.lanes_per_pass[e], elem_bytes, lanes,
			       subgroup);
	free(lanes);
	return p;
}

unsigned cb_padding_advice(const cb_inference *inf, const cb_result *r, cb_op op,
			   cb_pad_advice *out)
{
	static const unsigned elems[] = { 4, 8, 16 }, tiles[] = { 16, 32, 64 };
	const unsigned S = r->device.subgroup_size;
	unsigned n = 0;
	if (inf->status != CB_BANKED)
		return 0;
	for (size_t ei = 0; ei < 3; ei++) {
		unsigned E = elems[ei];
		int e = cb_elem_index(E);
		if (!inf->elem_present[e] || !inf->best.lanes_per_pass[e])
			continue;
		unsigned ideal = cb_column_walk_passes(inf, S, E, 1);
		unsigned period = inf->best.geom.banks * inf->best.geom.width / E;
		if (period < 1)
			period = 1;
		for (size_t ti = 0; ti < 3; ti++) {
			cb_pad_advice *a = &out[n++];
			memset(a, 0, sizeof *a);
			a->elem_bytes = E;
			a->tile = tiles[ti];
			a->passes_ideal = ideal;
			a->passes_unpadded = cb_column_walk_passes(inf, S, E, tiles[ti]);
			for (unsigned p = 0; p <= period; p++) {
				unsigned ps = cb_column_walk_passes(inf, S, E, tiles[ti] + p);
				if (ps <= ideal) {
					a->found = true;
					a->pad = p;
					a->passes_padded = ps;
					break;
				}
			}
			a->measured_unpadded = cb_stride_ratio(r, op, E, tiles[ti]);
			a->measured_padded = a->found ? cb_stride_ratio(r, op, E, tiles[ti] + a->pad) : NAN;
		}
	}
	return n;
}
