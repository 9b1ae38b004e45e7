/* SPDX-License-Identifier: MIT */
/* Measured lint's pure half (src/lint/lint_tables.c, lint_measure.c), on results and documents
 * made by hand: tables counted and ranked, the plan (references, inactive lanes, folding past
 * the allocation), and a measured document turned into slowdowns, intervals and disagreement. */
#include "config.h"
#include "lint/lint_measure.h"
#include "core/util.h"
#include "tap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define S 8

static void table(cb_lint_tables *t, unsigned stride, unsigned active, unsigned passes,
		  unsigned times)
{
	uint32_t off[S];
	bool act[S];
	for (unsigned l = 0; l < S; l++) {
		off[l] = l * stride * 4;
		act[l] = l < active;
	}
	for (unsigned i = 0; i < times; i++)
		cb_lint_tables_add(t, off, act, S, passes, 1);
}

/* One kernel with one access of OP: a column walk (stride 8, 3 times) and a row (once). */
static void one_access(cb_lint_result *r, cb_op op, unsigned active)
{
	memset(r, 0, sizeof *r);
	r->kernel = cb_xstrdup("k");
	r->subgroup = S;
	r->naccesses = 1;
	r->accesses = cb_xcalloc(1, sizeof *r->accesses);
	cb_lint_access *a = &r->accesses[0];
	a->file = cb_xstrdup("k.cl");
	a->elem_type = cb_xstrdup("float");
	a->op = op;
	a->elem_bytes = 4;
	a->priced = true;
	a->status = CB_LINT_PREDICTED;
	table(&a->tables, 1, active, 1, 1);
	table(&a->tables, 8, active, 8, 3);
	cb_lint_tables_sort(&a->tables);
}

static void test_tables(void)
{
	cb_lint_tables t = { 0 };
	table(&t, 1, S, 1, 2);
	table(&t, 2, S, 2, 5);
	table(&t, 1, S - 1, 1, 1); /* the same offsets with a lane inactive: another table */
	cb_lint_tables_sort(&t);
	tap_ok(t.n == 3 && t.total == 8 && t.v[0].count == 5 && t.v[0].offsets[1] == 8 &&
		       t.v[1].count == 2 && t.v[2].count == 1 && !t.v[2].active[S - 1],
	       "tables: distinct ones counted, most frequent first, inactive lanes tell them apart");
	for (unsigned i = 0; i < CB_LINT_TABLES_KEPT + 5; i++)
		table(&t, 3 + i, S, 1, 1);
	tap_ok(t.n == CB_LINT_TABLES_KEPT && t.dropped == 8 &&
		       t.total == 8 + CB_LINT_TABLES_KEPT + 5,
	       "tables: past %d distinct ones, the rest is counted as dropped",
	       CB_LINT_TABLES_KEPT);
	cb_lint_tables_free(&t);
}

static void test_plan(void)
{
	cb_error err;
	cb_result plan;
	cb_lint_result r;
	one_access(&r, CB_OP_LOAD, S);
	tap_ok(cb_lint_plan(&r, 1, S, 32768, &plan, &err) == CB_OK && plan.nms == 3 &&
		       cb_kind_is(&plan.ms[0], "lint_reference") &&
		       cb_kind_is(&plan.ms[1], "lint") && plan.ms[1].lanes[1] == 32 &&
		       plan.ms[2].lanes[1] == 4 && plan.ms[0].lanes[7] == 28 &&
		       plan.device.subgroup_size == S && plan.plan.local_mem_budget == 32768,
	       "plan: a reference and the access's two tables, most frequent first");
	cb_result_free(&plan);
	tap_ok(cb_lint_plan(&r, 1, 2 * S, 32768, &plan, &err) == CB_ERR_USAGE,
	       "plan: another sub-group size is refused");
	cb_result_free(&plan);
	cb_lint_result_free(&r);
	one_access(&r, CB_OP_LOAD, 5);
	cb_lint_plan(&r, 1, S, 32768, &plan, &err);
	tap_ok(plan.nms == 3 && plan.ms[1].lanes[6] == 0 && plan.ms[0].lanes[6] == 0 &&
		       plan.ms[0].lanes[4] == 16,
	       "plan: a load's inactive lanes read the first active word");
	cb_result_free(&plan);
	cb_lint_result_free(&r);
	one_access(&r, CB_OP_ATOMIC, 5);
	cb_lint_plan(&r, 1, S, 32768, &plan, &err);
	tap_ok(plan.nms == 0 && strstr(r.accesses[0].measured.note, "3 of 8 lanes are inactive"),
	       "plan: an atomic with inactive lanes is not measured, and says why");
	cb_result_free(&plan);
	cb_lint_result_free(&r);
	one_access(&r, CB_OP_LOAD, S);
	r.accesses[0].tables.v[0].offsets[3] += 65536; /* past 32 KiB; folds without merging */
	cb_lint_plan(&r, 1, S, 32768, &plan, &err);
	tap_ok(plan.nms == 3 && plan.ms[1].lanes[3] == 96 &&
		       strstr(r.accesses[0].measured.note, "modulo 32768"),
	       "plan: offsets past the allocation are folded modulo a power of two");
	cb_result_free(&plan);
	r.accesses[0].tables.v[0].offsets[3] = 32768; /* folds onto lane 0's word: refused */
	cb_lint_plan(&r, 1, S, 32768, &plan, &err);
	tap_ok(plan.nms == 2 && strstr(r.accesses[0].measured.note, "would merge"),
	       "plan: a fold that merges two lanes' words is not measured");
	cb_result_free(&plan);
	cb_lint_result_free(&r);
}

/* The plan timed by hand: ratio MEDIAN with a 2% interval (the reference 1.0). */
static void time_plan(cb_result *plan, double column, double row)
{
	for (size_t i = 0; i < plan->nms; i++) {
		cb_measurement *m = &plan->ms[i];
		long long t = -1;
		cb_param_get(m, "table", &t);
		double med = cb_kind_is(m, "lint_reference") ? 1.0 : t == 0 ? column : row;
		m->has_stats = true;
		m->stats = (cb_ratio_stats){ 8, med, med * 0.98, med * 1.02, 0, 0, 0, true };
		m->ns_per_access = 100 * med;
	}
	plan->device.name = cb_xstrdup("hand-timed GPU");
}

static void test_apply(void)
{
	cb_error err;
	cb_result plan;
	cb_lint_result r;
	one_access(&r, CB_OP_LOAD, S);
	cb_lint_plan(&r, 1, S, 32768, &plan, &err);
	time_plan(&plan, 8.0, 1.0);
	const cb_lint_measured *m = &r.accesses[0].measured;
	tap_ok(cb_lint_apply_measured(&r, 1, &plan, &err) == CB_OK && m->done && m->tables == 2 &&
		       fabs(m->slowdown - (3 * 8.0 + 1) / 4) < 1e-9 && m->ci_lo < m->slowdown &&
		       m->ci_hi > m->slowdown && fabs(m->coverage - 1) < 1e-9 &&
		       isnan(m->predicted) && !m->disagrees && r.measured &&
		       strcmp(r.measured_device, "hand-timed GPU") == 0,
	       "apply: the tables' slowdowns weighted by count, an interval, no model no prediction");
	tap_ok(fabs(r.measured_total - 6.25) < 1e-9 && r.measured_accesses == 1,
	       "apply: the kernel's measured total");
	r.has_model = true; /* passes over minimum: 8 and 1, weighted 6.25 */
	cb_lint_apply_measured(&r, 1, &plan, &err);
	tap_ok(fabs(m->predicted - 6.25) < 1e-9 && !m->disagrees, "apply: a model that agrees");
	cb_result_free(&plan);
	cb_lint_plan(&r, 1, S, 32768, &plan, &err);
	time_plan(&plan, 2.0, 1.0);
	cb_lint_apply_measured(&r, 1, &plan, &err);
	tap_ok(m->disagrees && fabs(m->slowdown - 1.75) < 1e-9,
	       "apply: a model that predicts 6.25x where 1.75x is measured disagrees");
	plan.ms[1].lanes[0] = 4;
	tap_ok(cb_lint_apply_measured(&r, 1, &plan, &err) == CB_ERR_INPUT &&
		       strstr(err.text, "not this kernel's lane table"),
	       "apply: a document measured for other tables is refused");
	cb_result_free(&plan);
	cb_lint_result_free(&r);
}

int main(void)
{
	test_tables();
	test_plan();
	test_apply();
	return tap_done();
}
