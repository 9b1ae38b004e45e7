/* SPDX-License-Identifier: MIT */
/* The state one inference's steps share (infer.c: the fit and the model selection;
 * infer_verdict.c: the verdict, its warnings and the validation). Internal to src/core/. */
#ifndef CB_INFER_CTX_H
#define CB_INFER_CTX_H

#include "core/infer.h"
#include "core/infer_fit.h"

#include <stdbool.h>
#include <stddef.h>

/* Score gap below which two candidates count as a near-tie (BIC scale: > 10 is very strong
 * evidence). */
#define TIE_SCORE 10.0

/* Everything the steps of one inference share. */
typedef struct {
	const cb_dataset *ds;
	cb_inference *out;
	cb_fit_set set;
	unsigned n_elem; /* element sizes with data */
	cb_candidate *cand;
	size_t ncand;
	size_t best_index;            /* the candidate with the smallest residual */
	const cb_candidate *reported; /* its geometry, without packing when that fits as well */
	double sigma2;
	double min_score, total_weight, geometry_weight;
	size_t tie_geometries;
	char tie_desc[200];
	bool beyond_fits; /* a geometry beyond the search fits as well as the best */
	char beyond_desc[32];
	cb_leader *leaders; /* when not NULL: the leading models, up to max_leaders */
	size_t max_leaders, nleaders;
} infer_ctx;

/* The steps infer.c runs after the selection, in this order: */
/* Step 9: how well the best model fits, against the measurements' noise. */
void cb_infer_judge(infer_ctx *x);
/* Step 10: validation on the hold-out tables with MODEL. */
void cb_infer_validate(infer_ctx *x, const cb_fit *model);
/* Step 11: the verdict and its reason. */
void cb_infer_verdict(infer_ctx *x);
/* Step 12: the cost of one extra pass. */
void cb_infer_cost_per_pass(infer_ctx *x);

#endif
