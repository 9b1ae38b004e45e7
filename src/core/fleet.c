/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "core/fleet.h"
#include "core/infer_quality.h"
#include "core/stats.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double cb_memory_units(const cb_result *r)
{
	long long u = r->device.slm_units != CB_UNSET && r->device.slm_units > 0
			      ? r->device.slm_units
			      : r->device.compute_units;
	return u != CB_UNSET && u > 0 ? (double)u : NAN;
}

/* Stride 1 of OP's ELEM_INDEX-size accesses as measured, else the model's time of one pass (ns
 * per access step); with the sub-groups per unit it needs: NAN outside the throughput regime. */
static double one_pass_step_ns(const cb_result *r, cb_op op, int e)
{
	const cb_inference *inf = &r->inference[op];
	double spc = r->run.subgroups_per_cu;
	if (e < 0 || e >= CB_NELEM || !isfinite(spc) || !(spc > 0) || !r->run.regime ||
	    strcmp(r->run.regime, "throughput") != 0)
		return NAN;
	const cb_measurement *m = cb_find_stride(r, op, cb_elems[e].bytes, 1);
	double t = m ? m->ns_per_access : NAN;
	if (!isfinite(t) || t <= 0)
		t = inf->best.t0[e] + inf->best.c[e];
	return isfinite(t) && t > 0 ? t : NAN;
}

/* A step moves sub-groups per unit x units x sub-group x element size bytes. */
double cb_conflict_free_gbs(const cb_result *r, cb_op op, int e)
{
	double t = one_pass_step_ns(r, op, e), units = cb_memory_units(r);
	if (!isfinite(t) || !isfinite(units))
		return NAN;
	return r->run.subgroups_per_cu * units * r->device.subgroup_size * cb_elems[e].bytes / t;
}

double cb_bandwidth_limit_gbs(const cb_result *r, const cb_inference *inf)
{
	double units = cb_memory_units(r);
	long long clk = r->device.max_clock_mhz;
	if (!inf || inf->status != CB_BANKED || clk == CB_UNSET || clk <= 0 || !isfinite(units))
		return NAN;
	return (double)inf->best.geom.banks * inf->best.geom.width * (double)clk * 1e-3 * units;
}

double cb_fleet_figure(const cb_result *r, int figure)
{
	const cb_inference *inf = &r->inference[CB_OP_LOAD];
	if (figure == CB_FLEET_COST)
		return inf->status == CB_BANKED ? inf->pass_ns_per_subgroup : NAN;
	int e = cb_elem_index(4);
	return inf->elem_present[e] ? cb_conflict_free_gbs(r, CB_OP_LOAD, e) : NAN;
}

static bool same_string(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The same verdict and, when banked, the same model (geometry and lanes per pass). */
static bool same_model(const cb_inference *a, const cb_inference *b)
{
	if (a->status != b->status)
		return false;
	if (a->status != CB_BANKED)
		return true;
	if (!cb_geometry_equal(&a->best.geom, &b->best.geom) ||
	    a->broadcast_known != b->broadcast_known)
		return false;
	for (int e = 0; e < CB_NELEM; e++)
		if (a->elem_present[e] != b->elem_present[e] ||
		    (a->elem_present[e] && a->best.lanes_per_pass[e] != b->best.lanes_per_pass[e]))
			return false;
	return true;
}

bool cb_fleet_identical(const cb_result *a, const cb_result *b)
{
	if (!same_string(a->device.name, b->device.name) ||
	    !same_string(a->device.driver_version, b->device.driver_version) ||
	    !same_string(a->run.regime, b->run.regime) ||
	    a->device.subgroup_size != b->device.subgroup_size)
		return false;
	for (int op = 0; op < CB_NOPS; op++)
		if (a->op_present[op] != b->op_present[op] ||
		    ((a->op_present[op] || op == CB_OP_LOAD) &&
		     !same_model(&a->inference[op], &b->inference[op])))
			return false;
	return true;
}

/* The median and robust relative spread of figure K over the group (NAN: none has it). */
static void group_stats(const cb_result *const *rs, cb_fleet_group *g, int k, double *buf)
{
	size_t n = 0;
	for (size_t i = 0; i < g->n; i++) {
		double v = cb_fleet_figure(rs[g->members[i]], k);
		if (isfinite(v))
			buf[n++] = v;
	}
	g->median[k] = g->spread[k] = NAN;
	if (!n)
		return;
	double med = cb_median(buf, n);
	for (size_t i = 0; i < n; i++)
		buf[i] = fabs(buf[i] - med);
	g->median[k] = med;
	g->spread[k] = med > 0 && n > 1 ? 1.4826 * cb_median(buf, n) / med : NAN;
}

/* The outliers of group GI (at least 3 members). */
static void find_outliers(const cb_result *const *rs, cb_fleet *f, size_t gi)
{
	cb_fleet_group *g = &f->groups[gi];
	if (g->n < 3)
		return;
	for (size_t i = 0; i < g->n; i++) {
		const cb_result *r = rs[g->members[i]];
		const cb_fit_quality *q = &r->inference[CB_OP_LOAD].quality;
		double noise = q->noise_known && isfinite(q->noise) ? q->noise : 0;
		bool named = false;
		for (int k = 0; k < CB_FLEET_NMETRICS; k++) {
			double v = cb_fleet_figure(r, k), med = g->median[k];
			if (!isfinite(v) || !isfinite(med) || !(med > 0))
				continue;
			double allowed = fmax(fmax(4 * g->spread[k], 3 * noise),
					      CB_MODEL_ALLOWANCE);
			double dev = v / med - 1;
			if (fabs(dev) <= allowed)
				continue;
			f->outliers = cb_xrealloc(f->outliers,
						  (f->noutliers + 1) * sizeof *f->outliers);
			f->outliers[f->noutliers++] = (cb_fleet_outlier){
				g->members[i], gi, k, v, med, dev, allowed
			};
			named = true;
		}
		g->noutliers += named;
	}
}

void cb_fleet_build(const cb_result *const *rs, size_t n, cb_fleet *f)
{
	memset(f, 0, sizeof *f);
	f->groups = cb_xcalloc(n + 1, sizeof *f->groups);
	for (size_t i = 0; i < n; i++) {
		size_t g = 0;
		while (g < f->ngroups && !cb_fleet_identical(rs[f->groups[g].members[0]], rs[i]))
			g++;
		cb_fleet_group *grp = &f->groups[g];
		f->ngroups += g == f->ngroups;
		/* Capacity doubles at every power of two. */
		if ((grp->n & (grp->n - 1)) == 0)
			grp->members = cb_xrealloc(grp->members, (grp->n ? 2 * grp->n : 1) *
									 sizeof *grp->members);
		grp->members[grp->n++] = i;
	}
	double *buf = cb_xcalloc(n + 1, sizeof *buf);
	for (size_t g = 0; g < f->ngroups; g++) {
		for (int k = 0; k < CB_FLEET_NMETRICS; k++)
			group_stats(rs, &f->groups[g], k, buf);
		find_outliers(rs, f, g);
	}
	free(buf);
}

void cb_fleet_free(cb_fleet *f)
{
	for (size_t g = 0; g < f->ngroups; g++)
		free(f->groups[g].members);
	free(f->groups);
	free(f->outliers);
	memset(f, 0, sizeof *f);
}

/* ---- compare --baseline ------------------------------------------------------------------ */

static cb_baseline_diff *diff_add(cb_baseline_diff *d, size_t *n, const char *op, const char *what)
{
	if (*n >= CB_MAX_BASELINE_DIFFS)
		return NULL;
	cb_baseline_diff *x = &d[(*n)++];
	memset(x, 0, sizeof *x);
	snprintf(x->what, sizeof x->what, "%s: %s", op, what);
	return x;
}

static void diff_uint(cb_baseline_diff *d, size_t *n, const char *op, const char *what,
		      bool has_old, unsigned a, bool has_new, unsigned b)
{
	cb_baseline_diff *x = diff_add(d, n, op, what);
	if (!x)
		return;
	snprintf(x->old_text, sizeof x->old_text, has_old ? "%u" : "-", a);
	snprintf(x->new_text, sizeof x->new_text, has_new ? "%u" : "-", b);
	x->changed = strcmp(x->old_text, x->new_text) != 0;
}

static double run_noise(const cb_inference *inf)
{
	return inf->quality.noise_known && isfinite(inf->quality.noise) ? inf->quality.noise : 0;
}

static void diff_cost(cb_baseline_diff *d, size_t *n, const char *op, const cb_inference *a,
		      const cb_inference *b)
{
	double va = a ? a->pass_ns_per_subgroup : NAN, vb = b ? b->pass_ns_per_subgroup : NAN;
	cb_baseline_diff *x = diff_add(d, n, op, "ns per pass per sub-group");
	if (!x)
		return;
	snprintf(x->old_text, sizeof x->old_text, isfinite(va) ? "%.4g" : "-", va);
	snprintf(x->new_text, sizeof x->new_text, isfinite(vb) ? "%.4g" : "-", vb);
	if (!isfinite(va) || !isfinite(vb)) {
		x->changed = isfinite(va) != isfinite(vb);
		return;
	}
	double allowed = fmax(3 * fmax(run_noise(a), run_noise(b)), CB_MODEL_ALLOWANCE);
	double dev = vb / va - 1;
	x->changed = fabs(dev) > allowed;
	snprintf(x->note, sizeof x->note, "%+.1f%%, allowed +-%.1f%%", 100 * dev, 100 * allowed);
}

static void diff_op(const cb_result *ra, const cb_result *rb, cb_op op, cb_baseline_diff *d,
		    size_t *n)
{
	const cb_inference *a = &ra->inference[op], *b = &rb->inference[op];
	const char *name = cb_op_desc_of(op)->plural;
	cb_baseline_diff *x = diff_add(d, n, name, "verdict");
	if (!x)
		return;
	bool pa = op == CB_OP_LOAD || ra->op_present[op],
	     pb = op == CB_OP_LOAD || rb->op_present[op];
	snprintf(x->old_text, sizeof x->old_text, "%s",
		 pa ? cb_status_name(a->status) : "not measured");
	snprintf(x->new_text, sizeof x->new_text, "%s",
		 pb ? cb_status_name(b->status) : "not measured");
	x->changed = strcmp(x->old_text, x->new_text) != 0;
	bool ba = pa && a->status == CB_BANKED, bb = pb && b->status == CB_BANKED;
	diff_uint(d, n, name, "banks", ba, a->best.geom.banks, bb, b->best.geom.banks);
	diff_uint(d, n, name, "bank width (bytes)", ba, a->best.geom.width, bb, b->best.geom.width);
	for (int e = 0; e < CB_NELEM; e++) {
		if (!a->elem_present[e] && !b->elem_present[e])
			continue;
		char what[32];
		snprintf(what, sizeof what, "lanes per pass, %u B", cb_elems[e].bytes);
		diff_uint(d, n, name, what, ba && a->elem_present[e], a->best.lanes_per_pass[e],
			  bb && b->elem_present[e], b->best.lanes_per_pass[e]);
	}
	diff_uint(d, n, name, "broadcast (1 yes, 0 no)", ba && a->broadcast_known,
		  a->best.geom.broadcast, bb && b->broadcast_known, b->best.geom.broadcast);
	diff_cost(d, n, name, ba ? a : NULL, bb ? b : NULL);
}

size_t cb_baseline_compare(const cb_result *old, const cb_result *new, cb_baseline_diff *d,
			   size_t *n)
{
	*n = 0;
	for (int op = 0; op < CB_NOPS; op++)
		if (op == CB_OP_LOAD || old->op_present[op] || new->op_present[op])
			diff_op(old, new, (cb_op)op, d, n);
	size_t changed = 0;
	for (size_t i = 0; i < *n; i++)
		changed += d[i].changed;
	return changed;
}
