/* SPDX-License-Identifier: MIT */
/* Least-squares fits of every candidate bank model (internal to the inference). */
#ifndef CB_INFER_FIT_H
#define CB_INFER_FIT_H

#include "core/infer.h"

#define CB_MAX_BANKS_SEARCHED 128
#define CB_MAX_GROUPINGS 12

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

double cb_sums_sse(const cb_sums *s, double a, double b);
/* Least squares with a >= 0 and b >= 0. */
cb_line_fit cb_sums_solve(const cb_sums *s);

/* Fits every candidate geometry to SET; returns the candidates (*N of them), or NULL when a
 * stop was asked for. */
cb_candidate *cb_fit_candidates(const cb_fit_set *set, size_t *n);

#endif
