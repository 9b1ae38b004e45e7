/* SPDX-License-Identifier: MIT */
/* clbanks lint as text: one block per __local access, lines under 100 columns; names from
 * the kernel and paths have control characters escaped (\x1b). */
#ifndef CB_LINT_TEXT_H
#define CB_LINT_TEXT_H

#include "lint/lint.h"

#include <stdbool.h>
#include <stdio.h>

/* Compiler-style: "FILE:LINE:COL: warning: ..." for each conflict or unpriced access, "note:"
 * lines for its array's fix; VERBOSE adds conflict-free, accepted and not executed accesses
 * with their iterations and lanes. Then each array's fix and the kernel's summary. */
void cb_lint_print_text(FILE *out, const cb_lint_result *r, bool verbose);
/* Kernel K under several models (RES[m][k], the same kernel linted with each at its own
 * sub-group size, every array's fix the one chosen across them): each access's passes per
 * model, a line each, LABELS naming the models (their devices). MEAS (NULL: none) is kernel
 * K linted at a measuring device's sub-group size with --measured: each access's measured
 * slowdown beside the models, and the kernel's. */
void cb_lint_print_models(FILE *out, const cb_lint_result *const *res, const char *const *labels,
			  size_t nmodels, size_t k, const cb_lint_result *meas, bool verbose);

#endif
