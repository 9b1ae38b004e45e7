/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/export.h"

#include <math.h>
#include <string.h>

static void build_op(const cb_result *r, cb_op op, cb_export_op *x)
{
	const cb_inference *inf = &r->inference[op];
	memset(x, 0, sizeof *x);
	x->present = r->has_recorded[op];
	x->pass_ns_per_subgroup = x->pass_cycles = NAN;
	x->confidence = NAN;
	if (!x->present)
		return;
	x->status = r->recorded[op].status ? r->recorded[op].status : "absent";
	x->confidence = r->recorded[op].confidence;
	x->broadcast_known = r->recorded[op].broadcast_known;
	if (r->analyzed && r->op_present[op] && inf->status == CB_BANKED) {
		x->pass_ns_per_subgroup = inf->pass_ns_per_subgroup;
		x->pass_cycles = inf->pass_cycles;
	}
	bool first = true;
	for (int e = 0; e < CB_NELEM; e++) {
		cb_export_size *s = &x->size[e];
		/* The sizes the analysis saw measured; before analysis, those the model records. */
		s->measured = cb_op_has_elem(op, cb_elems[e].bytes) &&
			      (r->analyzed ? r->op_present[op] && inf->elem_present[e]
					   : r->recorded[op].lanes_per_pass[e] != 0 ||
						     r->has_recorded_size[op][e]);
		if (!s->measured)
			continue;
		cb_select_model(r, op, cb_elems[e].bytes, &s->choice);
		bool banked = s->choice.source == CB_CHOICE_JOINT ||
			      s->choice.source == CB_CHOICE_BY_SIZE;
		if (banked && s->choice.lanes_per_pass)
			s->phases = (r->device.subgroup_size + s->choice.lanes_per_pass - 1) /
				    s->choice.lanes_per_pass;
		if (banked && first) {
			x->geom = s->choice.geom;
			first = false;
		}
		x->joint |= s->choice.source == CB_CHOICE_JOINT;
	}
}

void cb_export_build(const cb_result *r, cb_export_model *m)
{
	memset(m, 0, sizeof *m);
	m->device = r->device.name;
	m->vendor = r->device.vendor;
	m->driver_version = r->device.driver_version;
	m->subgroup = r->device.subgroup_size;
	if (r->documented)
		cb_model_label(r, m->documented, sizeof m->documented);
	for (int op = 0; op < CB_NOPS; op++)
		build_op(r, (cb_op)op, &m->ops[op]);
}
