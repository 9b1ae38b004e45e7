/* SPDX-License-Identifier: MIT */
/*
 * What the steps of the inference share, below all of them: the timed lane tables of one op
 * (a dataset), a fitted time model (t = t0 + c * passes per element size, or flat) and how well
 * it fits. infer.c runs the steps; infer_fit.c fits the candidates; infer_quality.c judges a
 * fit. Kept apart so that the judge need not know the pipeline that calls it.
 */
#ifndef CB_FIT_H
#define CB_FIT_H

#include "core/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
	unsigned elem_bytes;
	const uint32_t *lanes; /* subgroup offsets in bytes */
	double t;              /* time per access step; only ratios matter */
	double rel_err;        /* relative uncertainty of t when known, else 0 */
	bool holdout;          /* random tables: validation only */
	const char *kind;      /* the kind of table ("stride", "pool", ...), or NULL */
	size_t index;          /* position in the document's measurement array */
} cb_obs;

/* Passes already computed, kept across analyses of a growing set of tables (infer.h). */
typedef struct cb_pass_memo cb_pass_memo;

typedef struct {
	cb_obs *obs;
	size_t n;
	cb_pass_memo *memo; /* NULL: none; else its passes are reused and new ones added */
	unsigned subgroup;
	double clock_mhz;        /* 0 when unknown */
	double subgroups_per_cu; /* sub-groups sharing one compute unit per step; 0 when unknown */
} cb_dataset;

typedef struct {
	bool flat;
	cb_geometry geom;
	unsigned lanes_per_pass[CB_NELEM]; /* 0 where there is no data for that size */
	double t0[CB_NELEM], c[CB_NELEM];
	double sse;   /* sum of squared relative residuals over the fit set */
	double score; /* sse / sigma^2 + parameters * ln(n): lower is better */
	double rms;   /* relative RMS residual */
} cb_fit;

/* How well a fitted model describes the measurements (infer_quality.h says how it is judged). */
#define CB_WORST_TABLES 3
typedef struct {
	bool judged;
	bool noise_known;  /* some measurement records its uncertainty */
	double noise;      /* median relative standard error of the fit tables (0 unknown) */
	double expected;   /* RMS of the residual that noise and allowance explain */
	double misfit;     /* RMS of residual / expected over the fit tables */
	double val_misfit; /* the same over the hold-out tables; NAN when none */
	double elem_misfit[CB_NELEM];   /* NAN without tables */
	bool approximate[CB_NELEM];     /* this element size's tables stand out */
	char approx_kind[CB_NELEM][24]; /* the kind of table that misses most, or "" */
	double approx_kind_misfit[CB_NELEM];
	size_t worst[CB_NELEM][CB_WORST_TABLES]; /* document indices of the worst tables */
	unsigned nworst[CB_NELEM];
} cb_fit_quality;

/* Predicted time of one table under a fit (NAN when that element size has no fit). */
double cb_fit_predict(const cb_fit *f, unsigned subgroup, unsigned elem_bytes,
		      const uint32_t *lanes);
/* cb_fit_predict of one table under each of N fits, into OUT[0..N): the table prepared once
 * per bank width among them and its banks once per bank count, not once per fit (the
 * adaptive design predicts every candidate table under 16 leading models after a batch: a
 * quarter of a run's host time). The same numbers as cb_fit_predict. */
void cb_fit_predict_each(const cb_fit *const *fits, size_t n, unsigned subgroup,
			 unsigned elem_bytes, const uint32_t *lanes, double *out);

#endif
