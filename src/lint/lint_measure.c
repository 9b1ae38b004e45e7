/* SPDX-License-Identifier: MIT */
/* Measured lint: lane tables into a plan, a run's document into measured slowdowns
 * (lint_measure.h says how). */
#include "config.h"
#include "lint/lint_measure.h"
#include "core/plan.h"
#include "core/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	cb_result *plan;
	unsigned S;
	unsigned long local;
	uint32_t *lanes; /* scratch: one table */
	uint32_t *seq;
} builder;

static cb_measurement *add(builder *b, const char *kind, cb_op op, unsigned E,
			   const char *const *names, const long long *values, unsigned np)
{
	cb_measurement *m = cb_result_add(b->plan);
	m->id = (long long)b->plan->nms - 1;
	m->kind = cb_xstrdup(kind);
	m->op = op;
	m->elem_bytes = E;
	m->has_params = true;
	m->params = cb_xcalloc(np, sizeof *m->params);
	for (m->nparams = 0; m->nparams < np; m->nparams++) {
		m->params[m->nparams].name = cb_xstrdup(names[m->nparams]);
		m->params[m->nparams].value = values[m->nparams];
	}
	m->lanes = cb_xmalloc(b->S * sizeof *m->lanes);
	memcpy(m->lanes, b->lanes, b->S * sizeof *m->lanes);
	return m;
}

/* The conflict-free reference of OP, E and the active lanes of T: the active lanes read
 * consecutive elements in place, the others the first active one's. Its id, found or added
 * (b->lanes, T's table, is left as it is). */
static long long reference(builder *b, cb_op op, unsigned E, const cb_lint_table *t, unsigned first)
{
	for (unsigned l = 0; l < b->S; l++)
		b->seq[l] = (t->active[l] ? l : first) * E;
	for (size_t i = 0; i < b->plan->nms; i++) {
		const cb_measurement *m = &b->plan->ms[i];
		if (cb_kind_is(m, "lint_reference") && m->op == op && m->elem_bytes == E &&
		    memcmp(m->lanes, b->seq, b->S * sizeof *b->seq) == 0)
			return m->id;
	}
	uint32_t *keep = b->lanes;
	b->lanes = b->seq;
	long long count = 0;
	for (size_t i = 0; i < b->plan->nms; i++)
		count += cb_kind_is(&b->plan->ms[i], "lint_reference");
	static const char *const names[] = { "reference" };
	long long id = add(b, "lint_reference", op, E, names, &count, 1)->id;
	b->lanes = keep;
	return id;
}

/* Offsets past the allocation, modulo the largest power of two within it, when no two lanes'
 * 4-byte words merge; false (and why in NOTE) when they would. */
static bool fold(builder *b, unsigned E, char *note, size_t nn)
{
	uint32_t top = 0;
	for (unsigned l = 0; l < b->S; l++)
		top = b->lanes[l] > top ? b->lanes[l] : top;
	if ((unsigned long)top + E <= b->local)
		return true;
	unsigned long P = 1;
	while (P * 2 <= b->local)
		P *= 2;
	for (unsigned i = 0; i < b->S; i++)
		for (unsigned j = i + 1; j < b->S; j++)
			if (b->lanes[i] / 4 != b->lanes[j] / 4 &&
			    (b->lanes[i] % P) / 4 == (b->lanes[j] % P) / 4) {
				snprintf(
					note, nn,
					"not measured: its offsets reach %lu B, past the %lu B "
					"the run allocates, and taken modulo %lu B two lanes' words "
					"would merge",
					(unsigned long)top + E, b->local, P);
				return false;
			}
	for (unsigned l = 0; l < b->S; l++)
		b->lanes[l] = (uint32_t)(b->lanes[l] % P);
	snprintf(note, nn, "offsets taken modulo %lu B (the run allocates %lu B)", P, b->local);
	return true;
}

/* T as a table the lane-table kernels run, into b->lanes; false (and why in NOTE) when it
 * cannot be one. FIRST: the first active lane. */
static bool table_lanes(builder *b, const cb_lint_table *t, cb_op op, unsigned E, unsigned *first,
			bool merges, char *note, size_t nn)
{
	unsigned f = b->S, inactive = 0;
	for (unsigned l = 0; l < b->S; l++) {
		if (t->active[l] && f == b->S)
			f = l;
		inactive += !t->active[l];
	}
	if (f == b->S)
		return false;
	if (inactive && op != CB_OP_LOAD && !merges) {
		snprintf(note, nn,
			 "not measured: %u of %u lanes are inactive; the lane-table kernels "
			 "run every lane, and a repeated %s would change the cost%s",
			 inactive, b->S, cb_op_name(op),
			 op == CB_OP_STORE ? " (unless the model says same-word stores merge)"
					   : "");
		return false;
	}
	for (unsigned l = 0; l < b->S; l++)
		b->lanes[l] = t->offsets[t->active[l] ? l : f];
	*first = f;
	return fold(b, E, note, nn);
}

/* Do lanes of OP on one word take one pass on R's model (the op's own measured one)? Then an
 * inactive lane may repeat an active one's word. Loads always may: the reference repeats it
 * too. */
static bool merges(const cb_lint_result *r, cb_op op)
{
	return op == CB_OP_LOAD || (r->has_model && !r->flat && op == CB_OP_STORE &&
				    r->ops[op].measured && r->ops[op].geom.broadcast);
}

static void plan_tables(builder *b, const cb_lint_result *r, size_t k, size_t ai,
			const cb_lint_access *a, int fixed, cb_lint_measured *m)
{
	const cb_lint_tables *ts = fixed ? &a->fixed_tables : &a->tables;
	static const char *const names[] = { "kernel", "access", "table", "fixed", "reference_id" };
	for (size_t t = 0; t < ts->n && t < CB_LINT_MEASURE_TABLES; t++) {
		unsigned first = 0;
		if (!table_lanes(b, &ts->v[t], a->op, a->elem_bytes, &first, merges(r, a->op),
				 m->note, sizeof m->note))
			continue;
		long long ref = reference(b, a->op, a->elem_bytes, &ts->v[t], first);
		long long v[] = { (long long)k, (long long)ai, (long long)t, fixed, ref };
		add(b, "lint", a->op, a->elem_bytes, names, v, 5);
	}
}

cb_rc cb_lint_plan(cb_lint_result *res, size_t n, unsigned subgroup, unsigned long local_bytes,
		   cb_result *plan, cb_error *err)
{
	cb_result_init(plan);
	for (size_t k = 0; k < n; k++)
		if (res[k].subgroup != subgroup)
			return cb_error_set(err, CB_ERR_USAGE,
					    "kernel %s was linted for sub-groups of %u "
					    "lanes, the device runs %u",
					    res[k].kernel, res[k].subgroup, subgroup);
	builder b = { plan, subgroup, local_bytes, cb_xcalloc(subgroup, sizeof(uint32_t)),
		      cb_xcalloc(subgroup, sizeof(uint32_t)) };
	unsigned ops = 0;
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < res[k].naccesses; i++) {
			cb_lint_access *a = &res[k].accesses[i];
			memset(&a->measured, 0, sizeof a->measured);
			memset(&a->fixed_measured, 0, sizeof a->fixed_measured);
			if (a->status == CB_LINT_UNKNOWN)
				snprintf(a->measured.note, sizeof a->measured.note,
					 "not measured: its offsets are not known");
			if (!a->priced || a->op == CB_LINT_CALL)
				continue;
			ops |= CB_OP_BIT(a->op);
			plan_tables(&b, &res[k], k, i, a, 0, &a->measured);
			plan_tables(&b, &res[k], k, i, a, 1, &a->fixed_measured);
		}
	free(b.lanes);
	free(b.seq);
	char names[64];
	cb_ops_format(ops ? ops : CB_OP_BIT(CB_OP_LOAD), names, sizeof names);
	plan->has_generator = true;
	plan->generator_name = cb_xstrdup(PACKAGE_NAME);
	plan->generator_version = cb_xstrdup(PACKAGE_VERSION);
	plan->plan.present = true;
	plan->plan.seed = 1;
	plan->plan.subgroup_size = subgroup;
	plan->plan.local_mem_budget = (long long)local_bytes;
	plan->plan.quick = false;
	plan->plan.ops = cb_xstrdup(names);
	plan->device.subgroup_size = subgroup;
	return CB_OK;
}

/* One access's sums over its measured tables. */
typedef struct {
	double w, slow, half, pred, ns, base_ns, ratio, ref_ratio;
	unsigned tables;
} sums;

static double half_width(const cb_measurement *m)
{
	return (m->stats.ci_hi - m->stats.ci_lo) / 2 / m->stats.median;
}

static bool timed(const cb_measurement *m)
{
	return m && m->has_stats && isfinite(m->stats.median) && m->stats.median > 0 &&
	       isfinite(m->stats.ci_lo) && isfinite(m->stats.ci_hi);
}

/* The model's slowdown of T against its minimum: its fitted time where the document has one
 * (the op's own, else the loads'), else passes over minimum. */
static double predicted(const cb_lint_result *r, cb_op op, unsigned E, const cb_lint_table *t)
{
	int e = cb_elem_index(E);
	unsigned m = t->min_passes ? t->min_passes : 1;
	const cb_lint_op_model *own = &r->ops[op], *load = &r->ops[CB_OP_LOAD];
	const cb_lint_op_model *tm = e >= 0 && own->measured && own->has_time[e]     ? own
				     : e >= 0 && !own->measured && load->has_time[e] ? load
										     : NULL;
	if (!tm)
		return (double)t->passes / m;
	return (tm->t0[e] + tm->cost[e] * t->passes) / (tm->t0[e] + tm->cost[e] * m);
}

/* Plan measurement I (kind lint) and its reference, as timed in the document, into S. */
static void add_table(const cb_lint_result *r, const cb_lint_access *a, const cb_lint_table *t,
		      const cb_measurement *x, const cb_measurement *ref, sums *s)
{
	double w = (double)t->count;
	double st = x->stats.median / ref->stats.median;
	double h = sqrt(half_width(x) * half_width(x) + half_width(ref) * half_width(ref));
	s->w += w;
	s->slow += w * st;
	s->half += w * st * h;
	s->pred += w * predicted(r, a->op, a->elem_bytes, t);
	s->ns += w * x->ns_per_access;
	s->base_ns += w * ref->ns_per_access;
	s->ratio += w * x->stats.median;
	s->ref_ratio += w * ref->stats.median;
	s->tables++;
}

static void finish(const cb_lint_result *r, const cb_lint_tables *ts, const sums *s,
		   cb_lint_measured *m)
{
	if (!s->tables) {
		if (!m->note[0] && ts->n)
			snprintf(m->note, sizeof m->note,
				 "not measured: the run timed none of its tables");
		return;
	}
	m->done = true;
	m->tables = s->tables;
	m->slowdown = s->slow / s->w;
	double h = s->half / s->w;
	m->ci_lo = m->slowdown - h;
	m->ci_hi = m->slowdown + h;
	m->coverage = ts->total ? s->w / (double)ts->total : 1;
	m->ns = s->ns / s->w;
	m->baseline_ns = s->base_ns / s->w;
	m->predicted = r->has_model ? s->pred / s->w : NAN;
	m->disagrees = r->has_model && fabs(m->slowdown - m->predicted) >
					       h + CB_LINT_MEASURE_TOLERANCE * m->predicted;
}

/* A measurement lint may rest on: verified, its interval in order, and its time the baseline's
 * times its ratio (analyze reads the times, lint the ratios: a document where the two disagree
 * would give two answers). */
static cb_rc trusted(const cb_result *doc, const cb_measurement *m, size_t i, cb_error *err)
{
	const double base = doc->baseline.present ? doc->baseline.ns_per_access : NAN;
	if (m->verified == 0)
		return cb_error_set(err, CB_ERR_INPUT,
				    "the measured document's measurements[%zu] is "
				    "not verified (its kernel gave a wrong result); measure again",
				    i);
	if (!timed(m))
		return CB_OK;
	if (m->stats.ci_lo > m->stats.ci_hi)
		return cb_error_set(err, CB_ERR_INPUT,
				    "the measured document's measurements[%zu]"
				    ".stats.ratio_ci95 is inverted (%g > %g)",
				    i, m->stats.ci_lo, m->stats.ci_hi);
	double implied = m->ns_per_access / base;
	if (base > 0 && isfinite(implied) &&
	    (implied < m->stats.ci_lo * (1 - 1e-3) || implied > m->stats.ci_hi * (1 + 1e-3)))
		return cb_error_set(err, CB_ERR_INPUT,
				    "the measured document contradicts itself: "
				    "measurements[%zu].ns_per_access = %g is %.4g times the "
				    "baseline's, outside its stats.ratio_ci95 (%g to %g); analyze "
				    "reads the times, lint the ratios",
				    i, m->ns_per_access, implied, m->stats.ci_lo, m->stats.ci_hi);
	return CB_OK;
}

/* The document's measurement of each plan measurement (by id; NULL: not timed), checked to
 * be the same table. */
static cb_rc match(const cb_result *plan, const cb_result *doc, const cb_measurement **by,
		   cb_error *err)
{
	for (size_t i = 0; i < doc->nms; i++) {
		const cb_measurement *m = &doc->ms[i];
		long long id = m->id;
		const cb_measurement *p = id >= 0 && (size_t)id < plan->nms ? &plan->ms[id] : NULL;
		if (!p || !m->kind || strcmp(m->kind, p->kind) != 0 || m->op != p->op ||
		    m->elem_bytes != p->elem_bytes ||
		    memcmp(m->lanes, p->lanes, plan->device.subgroup_size * sizeof *m->lanes) != 0)
			return cb_error_set(
				err, CB_ERR_INPUT,
				"the measured document's measurement %zu "
				"(id %lld) is not this kernel's lane table: it was measured "
				"for another kernel, options or model; measure again",
				i, id);
		cb_rc rc = trusted(doc, m, i, err);
		if (rc != CB_OK)
			return rc;
		by[id] = timed(m) ? m : NULL;
	}
	return CB_OK;
}

static void kernel_totals(cb_lint_result *r, const sums *acc)
{
	double num = 0, den = 0, half = 0, pred = 0;
	r->measured_accesses = 0;
	for (size_t i = 0; i < r->naccesses; i++) {
		const cb_lint_access *a = &r->accesses[i];
		const sums *s = &acc[i];
		if (!s->tables)
			continue;
		double n = (double)a->tables.total / s->w;
		num += n * s->ratio;
		den += n * s->ref_ratio;
		half += n * s->half / s->slow * s->ratio;
		pred += n * s->pred / s->w * s->ref_ratio;
		r->measured_accesses++;
	}
	r->measured_total = den > 0 ? num / den : NAN;
	r->measured_total_ci = den > 0 ? half / den : NAN;
	r->predicted_total = r->has_model && den > 0 ? pred / den : NAN;
}

/* Each array's measured slowdown without and with its fix. */
static void array_totals(cb_lint_result *r)
{
	for (size_t j = 0; j < r->nobjects; j++) {
		cb_lint_fix *f = &r->objects[j].fix;
		double before = 0, after = 0, n = 0;
		for (size_t i = 0; i < r->naccesses; i++) {
			const cb_lint_access *a = &r->accesses[i];
			if (a->object != (int)j || !a->fixed || !a->measured.done ||
			    !a->fixed_measured.done)
				continue;
			double w = (double)a->tables.total;
			before += w * a->measured.slowdown;
			after += w * a->fixed_measured.slowdown;
			n += w;
		}
		f->measured = f->found && n > 0;
		f->measured_before = f->measured ? before / n : NAN;
		f->measured_after = f->measured ? after / n : NAN;
	}
}

static void apply_one(cb_lint_result *r, size_t k, const cb_result *plan,
		      const cb_measurement *const *by)
{
	sums *acc = cb_xcalloc(r->naccesses + 1, sizeof *acc),
	     *fixed = cb_xcalloc(r->naccesses + 1, sizeof *fixed);
	for (size_t i = 0; i < plan->nms; i++) {
		const cb_measurement *p = &plan->ms[i];
		long long kk, ai, t, f, ref;
		if (!cb_kind_is(p, "lint") || !cb_param_get(p, "kernel", &kk) || (size_t)kk != k ||
		    !cb_param_get(p, "access", &ai) || !cb_param_get(p, "table", &t) ||
		    !cb_param_get(p, "fixed", &f) || !cb_param_get(p, "reference_id", &ref) ||
		    !by[i] || !by[ref])
			continue;
		const cb_lint_access *a = &r->accesses[ai];
		const cb_lint_tables *ts = f ? &a->fixed_tables : &a->tables;
		add_table(r, a, &ts->v[t], by[i], by[ref], f ? &fixed[ai] : &acc[ai]);
	}
	for (size_t i = 0; i < r->naccesses; i++) {
		cb_lint_access *a = &r->accesses[i];
		finish(r, &a->tables, &acc[i], &a->measured);
		finish(r, &a->fixed_tables, &fixed[i], &a->fixed_measured);
	}
	kernel_totals(r, acc);
	array_totals(r);
	free(acc);
	free(fixed);
}

cb_rc cb_lint_apply_measured(cb_lint_result *res, size_t n, const cb_result *doc, cb_error *err)
{
	if (!doc->plan.present || doc->plan.local_mem_budget == CB_UNSET ||
	    !doc->device.subgroup_size)
		return cb_error_set(err, CB_ERR_INPUT,
				    "the measured document has no plan: it is not "
				    "the run of a lint plan");
	cb_result plan;
	cb_rc rc = cb_lint_plan(res, n, doc->device.subgroup_size,
				(unsigned long)doc->plan.local_mem_budget, &plan, err);
	const cb_measurement **by = cb_xcalloc(plan.nms + 1, sizeof *by);
	if (rc == CB_OK)
		rc = match(&plan, doc, by, err);
	for (size_t k = 0; rc == CB_OK && k < n; k++) {
		apply_one(&res[k], k, &plan, by);
		res[k].measured = true;
		free(res[k].measured_device);
		res[k].measured_device = cb_xstrdup(doc->device.name ? doc->device.name
								     : "the device");
	}
	free(by);
	cb_result_free(&plan);
	return rc;
}

bool cb_lint_measured_conflict(const cb_lint_measured *m)
{
	return m->done && m->ci_lo > CB_LINT_MEASURE_CONFLICT;
}

bool cb_lint_measured_warns(const cb_lint_measured *m)
{
	return cb_lint_measured_conflict(m) || (m->done && m->disagrees);
}
