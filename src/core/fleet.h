/* SPDX-License-Identifier: MIT */
/* A fleet in compare: identical devices (same name, driver, regime, sub-group and measured
 * model of every op) grouped, with the spread of their cost per pass and conflict-free
 * throughput, and the devices more than the noise away from their identical siblings. */
#ifndef CB_FLEET_H
#define CB_FLEET_H

#include "core/result.h"

#include <stddef.h>

/* The figures compared within a group: the loads' cost of one extra pass (ns per sub-group)
 * and the conflict-free bandwidth of 4-byte loads (GB/s). */
enum { CB_FLEET_COST, CB_FLEET_THROUGHPUT, CB_FLEET_NMETRICS };

typedef struct {
	size_t *members; /* document indices, in the order given */
	size_t n;
	double median[CB_FLEET_NMETRICS]; /* NAN when no member has the figure */
	double spread[CB_FLEET_NMETRICS]; /* robust relative spread, 1.4826 x MAD / median (NAN
					    * with fewer than 2 values) */
	size_t noutliers;
} cb_fleet_group;

typedef struct {
	size_t doc, group;
	int metric; /* CB_FLEET_COST or CB_FLEET_THROUGHPUT */
	double value, median;
	double deviation; /* value / median - 1 */
	double allowed;   /* the relative distance beyond which a device is named */
} cb_fleet_outlier;

typedef struct {
	cb_fleet_group *groups; /* in the order of their first member */
	size_t ngroups;
	cb_fleet_outlier *outliers; /* by group, then document, then metric */
	size_t noutliers;
} cb_fleet;

/* Groups N analyzed results. Outliers are named only in groups of 3 or more, where one
 * device's figure is further from the group's median than the largest of: 4 robust standard
 * deviations of the group (1.4826 x MAD), 3 times the device's own measurement noise, and the
 * 2% model allowance. */
void cb_fleet_build(const cb_result *const *rs, size_t n, cb_fleet *f);
void cb_fleet_free(cb_fleet *f);

/* Are A and B identical devices (the grouping rule)? */
bool cb_fleet_identical(const cb_result *a, const cb_result *b);

/* FIGURE of R (NAN when it has none): the loads' banked model's cost of one extra pass in ns
 * per sub-group, or the conflict-free bandwidth of 4-byte loads in GB/s. */
double cb_fleet_figure(const cb_result *r, int figure);
/* The conflict-free bandwidth of ELEM_INDEX-size accesses of OP over the device in GB/s
 * (stride 1 as measured, else the model's one pass; throughput regime only): the bytes of an
 * access step (sub-groups per unit x units x sub-group x element size) over its time; NAN when
 * unknown. */
double cb_conflict_free_gbs(const cb_result *r, cb_op op, int elem_index);
/* The units that own local memory (sub-slices on Intel), else the compute units; NAN: unknown. */
double cb_memory_units(const cb_result *r);
/* The physical limit of INF's banked model: banks x width x clock x units, in GB/s; NAN when
 * not banked or the clock or units are unknown. */
double cb_bandwidth_limit_gbs(const cb_result *r, const cb_inference *inf);

/* compare --baseline: one quantity of OLD against NEW, as text, and whether it changed. */
typedef struct {
	char what[48]; /* "loads: banks" */
	char old_text[48], new_text[48];
	char note[96]; /* the cost's relative change and what it is allowed, or "" */
	bool changed;
} cb_baseline_diff;

#define CB_MAX_BASELINE_DIFFS 64
/* Every quantity of the model of each op either has (verdict, banks, width, lanes per pass of
 * each element size, broadcast, the cost of a pass per sub-group) of OLD against NEW into D
 * (*N of them); returns how many changed. The cost changes when it moves by more than 3 times
 * the larger of the two runs' measurement noise, and at least the 2% model allowance (the
 * fleet's outlier rule). */
size_t cb_baseline_compare(const cb_result *old, const cb_result *new, cb_baseline_diff *d,
			   size_t *n);

#endif
