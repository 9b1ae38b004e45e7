/* SPDX-License-Identifier: MIT */
/*
 * Measured lint (clbanks lint --measure): the lane tables of each access of a linted kernel
 * become a plan that the ordinary run measures on a device (differential timing, verification,
 * rounds), and the run's document gives each access its measured slowdown. Plain C over the
 * lint result and the typed result document; built with or without LLVM.
 *
 * The plan: for each priced access, its CB_LINT_MEASURE_TABLES most frequent lane tables
 * (kind "lint": params kernel, access, table, fixed (1: under its array's fix), reference),
 * and for each op, element size and set of active lanes one conflict-free reference (kind
 * "lint_reference": the active lanes reading consecutive elements, as lint's minimum). The
 * lane-table kernels run every lane, so an inactive lane of a load reads the first active
 * lane's word (the same in the reference); stores and atomics with inactive lanes are not
 * measured (a repeated store or atomic would change the cost). Offsets beyond the run's local
 * memory are taken modulo the largest power of two within it when no two lanes' words merge
 * (banks repeat at a power of two), else the table is not measured.
 *
 * An access's slowdown is the weighted mean over its tables of the table's ratio over its
 * reference's ratio (both against the run's baseline, round by round), weights the tables'
 * counts; its interval adds the tables' and references' relative half-widths. The model's
 * prediction (passes over minimum, weighted alike) disagrees when it lies outside the interval
 * widened by CB_LINT_MEASURE_TOLERANCE of itself (the time of a pass is not exactly the
 * conflict-free time on every device).
 */
#ifndef CB_LINT_MEASURE_H
#define CB_LINT_MEASURE_H

#include "core/error.h"
#include "core/result.h"
#include "lint/lint.h"

#define CB_LINT_MEASURE_TABLES 4
#define CB_LINT_MEASURE_TOLERANCE 0.15
/* A measured slowdown whose interval lies above this is a measured conflict. */
#define CB_LINT_MEASURE_CONFLICT 1.25

/* M was measured slower than CB_LINT_MEASURE_CONFLICT beyond its interval (what
 * --fail-on-conflict fails on). */
bool cb_lint_measured_conflict(const cb_lint_measured *m);
/* ... or it contradicts the model: worth a warning (text, SARIF). */
bool cb_lint_measured_warns(const cb_lint_measured *m);

/* The plan of RES[0..N) (linted with keep_tables) for sub-groups of SUBGROUP lanes and
 * LOCAL_BYTES of local memory, into PLAN (initialized here). Accesses that cannot be
 * measured get measured.note (and fixed_measured.note). CB_ERR_USAGE when a result's
 * sub-group size is not SUBGROUP. */
cb_rc cb_lint_plan(cb_lint_result *res, size_t n, unsigned subgroup, unsigned long local_bytes,
		   cb_result *plan, cb_error *err);

/* DOC, the document of a run of that plan (from the same kernel, options and sub-group
 * size): each access's measured and fixed_measured, each result's totals. CB_ERR_INPUT when
 * DOC was measured for other tables. */
cb_rc cb_lint_apply_measured(cb_lint_result *res, size_t n, const cb_result *doc, cb_error *err);

#endif
