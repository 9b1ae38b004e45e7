/* SPDX-License-Identifier: MIT */
/*
 * Inference by model selection. Every candidate bank model (B banks of W bytes, merging or not,
 * lanes per pass for each element size) predicts the passes of every measured lane table; time
 * is modelled per element size as t = t0 + c * passes (t0 >= 0, c >= 0), fitted by least
 * squares on relative residuals. Candidates are ranked by a BIC-style score; a flat model
 * (t = t0) always competes. The answer is banked, not_banked or inconclusive -- never a bank
 * count that the data does not single out.
 */
#ifndef CB_INFER_H
#define CB_INFER_H

#include "core/model.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
	unsigned elem_bytes;
	const uint32_t *lanes;  /* subgroup offsets in bytes */
	double t;               /* time per access step; only ratios matter */
	double rel_err;         /* relative uncertainty of t when known, else 0 */
	bool holdout;           /* random tables: validation only */
	size_t index;           /* position in the document's measurement array */
} cb_obs;

typedef struct {
	cb_obs *obs;
	size_t n;
	unsigned subgroup;
	double clock_mhz;         /* 0 when unknown */
	double subgroups_per_cu;  /* sub-groups sharing one compute unit per step; 0 when unknown */
} cb_dataset;

typedef enum { CB_BANKED, CB_NOT_BANKED, CB_INCONCLUSIVE } cb_status;

typedef struct {
	bool flat;
	cb_geometry geom;
	unsigned lanes_per_pass[CB_NELEM]; /* 0 where there is no data for that size */
	double t0[CB_NELEM], c[CB_NELEM];
	double sse;    /* sum of squared relative residuals over the fit set */
	double score;  /* sse / sigma^2 + parameters * ln(n): lower is better */
	double rms;    /* relative RMS residual */
} cb_fit;

typedef struct {
	cb_status status;
	double confidence;          /* see clbanks(1): posterior share of the reported answer */
	char reason[320];
	bool broadcast_known;
	bool lanes_certain[CB_NELEM];
	bool elem_present[CB_NELEM];
	cb_fit best;                /* reported model when banked; best banked candidate otherwise */
	bool has_best;
	cb_fit runner_up;           /* best candidate with another geometry (or the flat model) */
	bool has_runner_up;
	cb_fit flat;
	double r2;                  /* share of the variation the best banked model explains */
	double sigma;               /* relative noise scale used for scores */
	double max_ratio;           /* largest slowdown within one element size */
	size_t n_fit, n_holdout, candidates;
	size_t val_n;
	double val_rms, val_max, val_within10;
	double cost_per_pass_ns, cost_per_pass_cycles; /* NAN when unknown */
} cb_inference;

/* Runs the inference. Returns false (with a message in out->reason) only when the dataset has
 * no usable measurement at all. */
bool cb_infer(const cb_dataset *ds, cb_inference *out);

/* Predicted time of one table under a fit (NAN when that element size has no fit). */
double cb_fit_predict(const cb_fit *f, unsigned subgroup, unsigned elem_bytes,
		      const uint32_t *lanes);

const char *cb_status_name(cb_status s);
json_t *cb_inference_to_json(const cb_inference *inf, unsigned subgroup);

/* Reads the model part of an inference object (for predict). Returns false with a message in
 * ERR when the object has no banked model. */
bool cb_model_from_json(json_t *inference, cb_geometry *g, unsigned lanes_per_pass[CB_NELEM],
			char *err, size_t errlen);

#endif
