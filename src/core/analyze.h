/* SPDX-License-Identifier: MIT */
/* Analysis of a result: the inference of every op that has timed measurements, then the
 * advice, once. Reports, compare and plot only read what this fills in. */
#ifndef CB_ANALYZE_H
#define CB_ANALYZE_H

#include "core/error.h"
#include "core/infer.h"
#include "core/result.h"

/* Fills r->inference, r->op_present and the advice; sets r->analyzed. Fails only when
 * interrupted. A documented model (r->documented) is not analyzed: its inferences are the
 * documented model as recorded, with no confidence, cost or advice. */
cb_rc cb_analyze(cb_result *r, cb_error *err);
/* The passes of R's tables IDX[0..N) under every model of the family, into R's pass memo, so
 * that the analysis that follows their measurement finds them: the adaptive run computes them
 * on a thread of its own while the device measures. Touches only the memo. */
void cb_analyze_prefetch(cb_result *r, const size_t *idx, size_t n);
/* cb_analyze with the pass cache of R's load measurements (in order), or NULL. */
cb_rc cb_analyze_cached(cb_result *r, const cb_pass_cache *load_cache, cb_error *err);

/* Do A and B have the same timed tables of OP (element size, lanes, sub-group), in the same
 * order? Then a pass cache built from one serves the other (compare: a fleet's documents). */
bool cb_same_tables(const cb_result *a, const cb_result *b, cb_op op);

/* cb_analyze of each of the N results RS, on THREADS threads (0: one per online processor, at
 * most 16). Results with the same load tables (a fleet's documents, from one plan) share one
 * pass cache. On failure, the error of the first result that failed (by index). */
cb_rc cb_analyze_all(cb_result *rs, size_t n, unsigned threads, cb_error *err);

/* The inference's view of the timed measurements of OP (lanes point into R). */
void cb_dataset_of(const cb_result *r, cb_op op, cb_dataset *ds);
/* Element size E's own model of OP when it is to be used in place of the op's: banked with
 * CB_BY_SIZE_MIN_CONFIDENCE where the op's model is not (not banked, or less sure); else NULL. */
const cb_inference *cb_size_model(const cb_result *r, cb_op op, int e);
void cb_dataset_free(cb_dataset *ds);

#endif
