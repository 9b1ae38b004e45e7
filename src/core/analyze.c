/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/analyze.h"
#include "core/advice.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Relative half-width of a measurement's 95% CI, when the run recorded one; else 0. */
static double relative_error(const cb_measurement *m)
{
	if (!m->has_stats || !(m->stats.median > 0))
		return 0;
	double r = (m->stats.ci_hi - m->stats.ci_lo) / (2 * m->stats.median);
	return isfinite(r) && r > 0 ? r : 0;
}

void cb_dataset_of(const cb_result *r, cb_op op, cb_dataset *ds)
{
	memset(ds, 0, sizeof *ds);
	ds->subgroup = r->device.subgroup_size;
	ds->obs = cb_xcalloc(r->nms ? r->nms : 1, sizeof *ds->obs);
	if (r->device.max_clock_mhz != CB_UNSET && r->device.max_clock_mhz > 0)
		ds->clock_mhz = (double)r->device.max_clock_mhz;
	if (r->run.subgroups_per_cu > 0)
		ds->subgroups_per_cu = r->run.subgroups_per_cu;
	for (size_t i = 0; i < r->nms; i++) {
		const cb_measurement *m = &r->ms[i];
		if (m->op != op || !isfinite(m->ns_per_access))
			continue;
		cb_obs *o = &ds->obs[ds->n++];
		o->lanes = m->lanes;
		o->elem_bytes = m->elem_bytes;
		o->t = m->ns_per_access;
		o->index = i;
		o->holdout = cb_kind_is(m, "random");
		o->kind = m->kind;
		o->rel_err = relative_error(m);
	}
}

void cb_dataset_free(cb_dataset *ds)
{
	free(ds->obs);
	memset(ds, 0, sizeof *ds);
}

cb_rc cb_analyze(cb_result *r, cb_error *err)
{
	return cb_analyze_cached(r, NULL, err);
}

cb_rc cb_analyze_cached(cb_result *r, const cb_pass_cache *load_cache, cb_error *err)
{
	r->analyzed = false;
	r->npad = 0;
	for (int op = 0; op < CB_NOPS; op++) {
		r->op_present[op] = false;
		for (size_t i = 0; i < r->nms && !r->op_present[op]; i++)
			r->op_present[op] = r->ms[i].op == (cb_op)op;
		/* Loads always get an inference (inconclusive when there is nothing to analyze). */
		if (!r->op_present[op] && op != CB_OP_LOAD)
			continue;
		cb_dataset ds;
		cb_dataset_of(r, (cb_op)op, &ds);
		cb_rc rc = cb_infer_cached(&ds, op == CB_OP_LOAD ? load_cache : NULL, &r->inference[op], err);
		cb_dataset_free(&ds);
		if (rc != CB_OK)
			return rc;
	}
	r->npad = cb_padding_advice(&r->inference[CB_OP_LOAD], r, CB_OP_LOAD, r->pad);
	r->analyzed = true;
	return CB_OK;
}
