/* SPDX-License-Identifier: MIT */
/* Preparing a lint: the model to price with, from an analyzed result, for any front end. */
#include "config.h"
#include "lint/lint_model.h"
#include "core/select.h"

#include <string.h>

/* Element size E's fitted time from SRC into DST (what --measure's prediction uses). */
static void copy_time(cb_lint_op_model *dst, const cb_recorded_model *src, int e)
{
	dst->has_time[e] = src->has_time[e];
	dst->t0[e] = src->t0_ns[e];
	dst->cost[e] = src->cost_ns[e];
}

/* Stores and atomics get their own model, size by size by the core rule (core/select.h),
 * when the sizes that have one share one geometry; a size without one cannot be priced.
 * An op the document never measured is priced with the loads' model (the text and JSON say
 * so). */
static void add_op_models(const cb_result *r, cb_lint_model *m)
{
	for (int op = CB_OP_STORE; op < CB_NOPS; op++) {
		cb_geometry g = { 0 };
		unsigned lanes[CB_NELEM] = { 0 }, norder[CB_NELEM] = { 0 };
		uint8_t order[CB_NELEM][CB_MAX_ORDER];
		int from[CB_NELEM];
		bool any = false, by_size = false;
		for (int e = 0; e < CB_NELEM; e++) {
			cb_model_choice c;
			cb_select_model(r, (cb_op)op, cb_elems[e].bytes, &c);
			if (c.source != CB_CHOICE_JOINT && c.source != CB_CHOICE_BY_SIZE)
				continue;
			if (any && !cb_geometry_equal(&g, &c.geom))
				continue; /* sizes that disagree: only the first geometry prices */
			g = c.geom;
			lanes[e] = c.lanes_per_pass;
			norder[e] = c.norder;
			memcpy(order[e], c.order, sizeof order[e]);
			from[e] = c.source == CB_CHOICE_BY_SIZE ? 1 : 0;
			by_size |= c.source == CB_CHOICE_BY_SIZE;
			any = true;
		}
		if (any) {
			cb_lint_model_set_op(m, (cb_op)op, &g, lanes);
			m->ops[op].by_size = by_size;
			for (int e = 0; e < CB_NELEM; e++)
				if (lanes[e])
					copy_time(&m->ops[op],
						  from[e] ? &r->recorded_size[op][e]
							  : &r->recorded[op],
						  e);
			for (int e = 0; e < CB_NELEM; e++)
				if (lanes[e] && norder[e])
					cb_lint_model_set_order(m, (cb_op)op, e, order[e],
								norder[e]);
		}
	}
}

cb_rc cb_lint_model_from_result(const cb_result *r, const char *path, unsigned subgroup,
				const cb_notifier *n, cb_lint_model *m, cb_error *err)
{
	cb_rc rc = CB_OK;
	cb_model_choice c;
	cb_select_model(r, CB_OP_LOAD, 0, &c);
	cb_warn_unsure_model(n, path, CB_OP_LOAD, &c);
	if (c.source == CB_CHOICE_NONE)
		rc = cb_error_set(err, CB_ERR_USAGE, "%s: %s", path, c.problem);
	if (rc == CB_OK && c.source == CB_CHOICE_FLAT) {
		cb_lint_pricer_flat(m, r->device.subgroup_size);
	}
	if (rc == CB_OK && subgroup && subgroup != r->device.subgroup_size)
		rc = cb_error_set(
			err, CB_ERR_USAGE,
			"%s is the model of sub-groups of %u lanes; the "
			"tables to measure are of %u (the device's): lint with a model of "
			"this device",
			path, r->device.subgroup_size, subgroup);
	if (rc == CB_OK && c.source != CB_CHOICE_FLAT) {
		const cb_recorded_model *rec = &r->recorded[CB_OP_LOAD];
		/* Lanes in groups that are not contiguous (a documented model's lane_groups, AMD
		 * CDNA's ds_read_b128) are priced in those groups, as predict prices them. */
		cb_lint_pricer_from_model(m, &rec->geom, rec->lanes_per_pass,
					  r->device.subgroup_size);
		for (int e = 0; e < CB_NELEM; e++) {
			copy_time(&m->ops[CB_OP_LOAD], rec, e);
			if (rec->lanes_per_pass[e] && rec->norder[e])
				cb_lint_model_set_order(m, CB_OP_LOAD, e, rec->order[e],
							rec->norder[e]);
		}
		add_op_models(r, m);
	}
	if (rc == CB_OK && r->device.local_mem_bytes > 0)
		m->local_mem_bytes = (uint64_t)r->device.local_mem_bytes;
	if (rc == CB_OK)
		m->documented = r->documented;
	return rc;
}
