/* SPDX-License-Identifier: MIT */
/*
 * Least-squares fits of every candidate bank model (internal to the inference).
 *
 * Passes depend only on the geometry (width, banks), the broadcast and packing rules, the
 * grouping and the lane table -- not on the times. So they are computed once per distinct
 * table (a pass cache) and reused by every candidate's fit, by every element size, and by every
 * re-fit with new times (a run checks after each round whether its answer has settled). A
 * dataset with more distinct tables than the cache holds is fitted in two stages: every
 * candidate on an evenly spread sample of the tables, then the best geometries on all of them;
 * the cost stays linear in the measurements.
 */
#ifndef CB_INFER_FIT_H
#define CB_INFER_FIT_H

#include "core/infer.h"

#define CB_MAX_BANKS_SEARCHED 128
#define CB_MAX_GROUPINGS 12
/* Distinct tables one cache holds (about 10 MB for sub-groups of 32). */
#define CB_CACHE_MAX_TABLES 1024
/* Geometries the second stage keeps. */
#define CB_STAGE2_GEOMETRIES 16

/* Weighted sums for t = a + b p with weights 1 / t^2 (relative residuals). */
typedef struct {
	double s0, s1, s2, t0, t1, tt;
} cb_sums;

typedef struct {
	double a, b, sse;
} cb_line_fit;

/* One candidate: a geometry and, per element size and grouping, its fit. */
typedef struct {
	unsigned banks, width;
	bool broadcast, pair_packing;
	double sse_eg[CB_NELEM][CB_MAX_GROUPINGS];
	double a_eg[CB_NELEM][CB_MAX_GROUPINGS], b_eg[CB_NELEM][CB_MAX_GROUPINGS];
	unsigned best_g[CB_NELEM];
	double sse;
	double score;
} cb_candidate;

/* The observations of the fit set, by element size. */
typedef struct {
	const cb_dataset *ds;
	size_t *idx[CB_NELEM];
	size_t n[CB_NELEM];
	unsigned groupings[CB_MAX_GROUPINGS];
	unsigned ngroupings;
} cb_fit_set;

/* Adds one observation: time T at P passes. */
void cb_sums_add(cb_sums *s, double p, double t);
double cb_sums_sse(const cb_sums *s, double a, double b);
/* Least squares with a >= 0 and b >= 0. */
cb_line_fit cb_sums_solve(const cb_sums *s);

/* Fits every candidate geometry to SET; returns the candidates (*N of them), or NULL when a
 * stop was asked for. CACHE, when not NULL, holds the passes of SET's tables. */
cb_candidate *cb_fit_candidates(const cb_fit_set *set, const cb_pass_cache *cache, size_t *n);
/* Frees (or gives back to the memo of SET's dataset) what cb_fit_candidates returned. */
void cb_fit_candidates_free(const cb_fit_set *set, cb_candidate *cand);

/* The residual of geometry G (its broadcast and packing rules, each element size's best
 * grouping) fitted on every STEP-th observation of SET, passes computed directly: for
 * geometries outside the family. NAN when a stop was asked for. */
double cb_fit_direct(const cb_fit_set *set, const cb_geometry *g, size_t step);

/* The number of candidate models of the family (what the report counts). */
size_t cb_family_size(void);
/* Lanes per pass a candidate may have for sub-groups of SUBGROUP: 4, 8, ... dividing it, and
 * the whole sub-group. Returns the count. */
unsigned cb_groupings_for(unsigned subgroup, unsigned *g);

#endif
