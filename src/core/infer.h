/* SPDX-License-Identifier: MIT */
/*
 * Inference by model selection. Every candidate bank model (B banks of W bytes, broadcast or
 * not, pair packing or not, lanes per pass for each element size) predicts the passes of every
 * measured lane table; time is modelled per element size as t = t0 + c * passes (t0 >= 0,
 * c >= 0), fitted by least squares on relative residuals. Candidates are ranked by a BIC-style
 * score; a flat model (t = t0) always competes. The answer is banked, not_banked or
 * inconclusive -- never a bank count that the data does not single out.
 *
 * The pipeline (infer.c): split the observations into fit and hold-out sets, fit the flat
 * model, fit every candidate (infer_fit.c), set the noise scale, score, pick the reported model
 * and its groupings, find the runner-up, judge how well it fits against the
 * measurements' own noise (infer_quality.c), validate on the hold-out tables, decide the
 * verdict (cb_infer_decide, the one place that holds the thresholds), the cost of a pass.
 * The confidence of a banked verdict is the posterior share of its geometry, times that of
 * its lanes per pass, times a factor below 1 when the model misses the measurements by more
 * than their noise and a model allowance explain.
 */
#ifndef CB_INFER_H
#define CB_INFER_H

#include "core/error.h"
#include "core/fit.h"
#include "core/model.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { CB_BANKED, CB_NOT_BANKED, CB_INCONCLUSIVE } cb_status;

typedef struct {
	cb_status status;
	double confidence;     /* see clbanks(1): geometry share x lanes share x fit factor */
	double geometry_share; /* posterior share of the reported geometry */
	double lanes_share;    /* posterior share of the reported lanes per pass, given it */
	double fit_factor;     /* 1 when the model fits; less when it misses (infer_quality.h) */
	double run_factor;     /* the run's quality: convergence and drift (set by analysis) */
	cb_fit_quality quality;
#define CB_MAX_INFER_WARNINGS 4
	char warnings[CB_MAX_INFER_WARNINGS][240]; /* what the verdict's reader must know */
	unsigned nwarnings;
	char reason[320];
	bool no_model_fits; /* inconclusive because the best model misses the data */
	bool flat_fits;     /* the flat model fits as well as any bank model (not banked,
				     * or inconclusive for want of evidence either way) */
	bool broadcast_known;
	bool lanes_certain[CB_NELEM];
	bool elem_present[CB_NELEM];
	cb_fit best; /* reported model when banked; best banked candidate otherwise */
	bool has_best;
	cb_fit runner_up; /* best candidate with another geometry (or the flat model) */
	bool has_runner_up;
	cb_fit flat;
	double r2;        /* share of the variation the best banked model explains */
	double sigma;     /* relative noise scale used for scores */
	double max_ratio; /* largest slowdown within one element size */
	size_t n_fit, n_holdout, candidates;
	size_t val_n;
	double val_rms, val_max, val_within10;
	/* One extra pass: in the measurements' unit (ns per access step of the whole launch, the
	 * fit's c), per sub-group (that divided by the sub-groups one compute unit serves in a
	 * step), and in clock cycles (per sub-group at the maximum clock); NAN when unknown. */
	double step_pass_ns, pass_ns_per_subgroup, pass_cycles;
} cb_inference;

/* Runs the inference. A dataset without a usable measurement is inconclusive (the reason says
 * so); the only error is CB_ERR_INTERRUPTED, when a stop was asked for. */
cb_rc cb_infer(const cb_dataset *ds, cb_inference *out, cb_error *err);

/* The passes of a dataset's tables under every candidate model, computed once and reused while
 * only the times change (a run re-fits after every round). NULL when the dataset has more
 * distinct tables than a cache holds. */
typedef struct cb_pass_cache cb_pass_cache;
cb_pass_cache *cb_pass_cache_new(const cb_dataset *ds);
void cb_pass_cache_free(cb_pass_cache *cache);
/* A memo of every table's passes under every model of the family, by table: the adaptive
 * design analyzes after each batch a set of tables that only grows, and computing the passes
 * again was half the host time of an H200 run. A dataset with a memo (its field) reads passes
 * from it and adds those it lacks; the memo also lends each analysis its large buffers (the
 * candidates, a cache's passes) instead of new pages. Not thread-safe: one memo per thread. */
cb_pass_memo *cb_pass_memo_new(void);
void cb_pass_memo_free(cb_pass_memo *memo);
/* The distinct tables it holds. */
size_t cb_pass_memo_tables(const cb_pass_memo *memo);
/* Makes the buffers the memo lends ready for an analysis of up to NTABLES distinct tables,
 * every page touched: a first fit otherwise faulted in its 1.7 MB of candidates while the
 * device waited (5 of the 6 ms of a stub run's first analysis). For the prefetch thread. */
void cb_pass_memo_warm(cb_pass_memo *memo, size_t ntables);
/* cb_infer with CACHE, built for a dataset with the same tables in the same order. */
cb_rc cb_infer_cached(const cb_dataset *ds, const cb_pass_cache *cache, cb_inference *out,
		      cb_error *err);

/* A leading model of the posterior: a fit (flat, or a candidate with a grouping for each
 * element size) and its posterior weight (the weights of all models sum to 1). */
typedef struct {
	cb_fit fit;
	double weight;
} cb_leader;
/* cb_infer_cached that also gives up to MAX leading models, heaviest first, in LEADERS (*N of
 * them): the best candidates by score, the reported geometry with each element size's other
 * groupings, and the flat model. The adaptive design measures where they disagree. */
cb_rc cb_infer_leaders(const cb_dataset *ds, const cb_pass_cache *cache, cb_inference *out,
		       cb_leader *leaders, size_t max, size_t *n, cb_error *err);

const char *cb_status_name(cb_status s);

/* The numbers the verdict rests on, and the verdict. Exposed for the tests. */
typedef struct {
	size_t n_fit;
	unsigned n_elem; /* element sizes with data */
	double flat_score, best_score;
	double r2, max_ratio, flat_rms;
	size_t tie_geometries; /* other geometries within the tie margin of the best */
	double flat_weight, geometry_weight, total_weight;
	double lanes_share; /* posterior share of the reported lanes per pass */
	double misfit;      /* the larger of the fit's and the validation's misfit */
	bool beyond_fits;   /* the best sits at the edge of the search, and a geometry
				     * beyond it fits as well or better */
} cb_decision_input;

typedef enum {
	CB_WHY_TOO_FEW,
	CB_WHY_FLAT_FITS,
	CB_WHY_SMALL_EFFECT,
	CB_WHY_UNEXPLAINED,
	CB_WHY_TIE,
	CB_WHY_MISFIT,
	CB_WHY_BANKED,
	CB_WHY_BEYOND,
	CB_WHY_FLAT_UNSURE
} cb_decision_reason;

/* A "not banked" verdict needs at least this confidence; below it (the flat model one
 * candidate among many that fit as well, or a run too poor to tell) it reads inconclusive,
 * never "not banked (confidence 0.000)". */
#define CB_NOT_BANKED_MIN_CONFIDENCE 0.1

typedef struct {
	cb_status status;
	double confidence;
	cb_decision_reason why;
} cb_decision;

cb_decision cb_infer_decide(const cb_decision_input *in);

#endif
